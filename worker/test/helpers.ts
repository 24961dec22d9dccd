import { env, SELF } from "cloudflare:test";
import { rateWindowMs } from "../http/rate-limit";

/** Calls the Worker as a browser would (through its real fetch handler). */
export function api(path: string, init: RequestInit = {}) {
  return SELF.fetch(`http://localhost${path}`, init);
}

export function postJson(path: string, body: unknown, init: RequestInit = {}) {
  return api(path, {
    method: "POST",
    ...init,
    headers: { "content-type": "application/json", ...(init.headers ?? {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The rate limits' window in this project: RATE_LIMIT_WINDOW_MS, which the test projects set to a day (vitest.config.ts). */
export function testRateWindowMs(): number {
  const windowMs = rateWindowMs(env, 60_000);
  if (windowMs !== 86_400_000)
    throw new Error(`RATE_LIMIT_WINDOW_MS gives a window of ${windowMs} ms here: the test project must set a day (vitest.config.ts)`);
  return windowMs;
}

/**
 * Rate limits count in fixed windows (worker/http/rate-limit.ts). A test that fills a window must not straddle two
 * of them, or its last calls land in a fresh window and pass. The window here is a day, so this waits only when
 * less than `needMs` of the day is left: in the last seconds before midnight UTC, never for a minute.
 */
export async function inFreshRateWindow(needMs = 20_000) {
  const windowMs = testRateWindowMs();
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
