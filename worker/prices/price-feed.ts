// The live USD price source: PRICE_FEED_URL (JSON, see domain/prices.ts parseFeedPrices) fetched with a short
// timeout and kept in this isolate's memory, or the spec's fallback rates when no feed is configured or it
// fails. Every USD figure the API shows comes from getUsdPrices.
import type { LivePrices } from "../../schema/browse";
import { fallbackPrices, parseFeedPrices } from "../domain/prices";

/** A fetched price is served this long before the feed is asked again (the client polls every 60 s). */
export const PRICE_TTL_MS = 45_000;
/** After a failure the feed is left alone this long, so a dead feed does not slow every request. */
export const PRICE_RETRY_MS = 15_000;
/** A stale price beats the fixed fallback for this long after the feed stops answering. */
export const PRICE_STALE_LIMIT_MS = 15 * 60_000;
/** Browse calls wait at most this long for the feed. */
export const PRICE_TIMEOUT_MS = 1_500;

type CacheState = { url: string; prices: LivePrices | null; fetchedAt: number; failedAt: number; inflight: Promise<LivePrices | null> | null };
let state: CacheState = { url: "", prices: null, fetchedAt: 0, failedAt: 0, inflight: null };

/** Forgets everything cached (tests). */
export function resetPriceCache() {
  state = { url: "", prices: null, fetchedAt: 0, failedAt: 0, inflight: null };
}

async function readFeed(url: string, now: number): Promise<LivePrices> {
  const res = await fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(PRICE_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`status ${res.status}`);
  const rates = parseFeedPrices(await res.json());
  if (!rates) throw new Error("answer has no sane ethPrice/solPrice");
  return { ...rates, source: "feed", updatedAt: new Date(now).toISOString() };
}

async function fetchFeed(url: string, now: number): Promise<LivePrices | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // The abort signal covers a well-behaved fetch; the race also covers a body that never finishes.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${PRICE_TIMEOUT_MS} ms`)), PRICE_TIMEOUT_MS);
    });
    return await Promise.race([readFeed(url, now), timeout]);
  } catch (err) {
    // The feed is outside our control: log it for operators and carry on with what we have.
    console.warn("price feed unavailable:", err instanceof Error ? err.message : String(err));
    return null;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

export async function getUsdPrices(env: Pick<Env, "PRICE_FEED_URL">, now = Date.now()): Promise<LivePrices> {
  const url = (env.PRICE_FEED_URL ?? "").trim();
  if (!url) return fallbackPrices();
  if (state.url !== url) resetPriceCache();
  state.url = url;

  if (state.prices && now - state.fetchedAt < PRICE_TTL_MS) return state.prices;
  const usable = () => (state.prices && now - state.fetchedAt < PRICE_STALE_LIMIT_MS ? state.prices : fallbackPrices());
  if (now - state.failedAt < PRICE_RETRY_MS) return usable();

  // One fetch at a time per isolate; concurrent requests share it.
  state.inflight ??= fetchFeed(url, now).then((prices) => {
    if (prices) {
      state.prices = prices;
      state.fetchedAt = now;
    } else {
      state.failedAt = now;
    }
    state.inflight = null;
    return prices;
  });
  return (await state.inflight) ?? usable();
}
