// The edge cache for anonymous browse reads (search, featured, one listing, market stats, recent
// transactions): answers to visitors without a session are kept in the Workers Cache API of the data centre
// that served them, keyed by the request, the USD rates and the listings version (worker/listings/version.ts).
// Any write to addresses or transactions bumps the version through a trigger, so once this isolate re-reads
// the version the next read misses and is answered from D1: a sold or deleted listing stops showing within
// 2 x the version TTL (2 s by default) plus one primary round trip. STORE_SECONDS only bounds what neither
// covers: the clock (a featured-until passing, the active-users window).
//
// Signed-in callers (any request presenting a session cookie) never touch the cache: their answers carry
// isOwner, so they are neither looked up nor stored, and go out as `private, no-store`.
import type { Context, MiddlewareHandler } from "hono";
import { readSessionCookie } from "../auth/session";
import { getUsdPrices } from "../prices/price-feed";
import type { UsdRates } from "../domain/prices";
import { createDb } from "../db/database";
import { currentListingsVersion, versionTtlMs } from "../listings/version";
import type { AppEnv } from "../types";

/** How long a stored answer may be served at most, whatever the version says. */
export const STORE_SECONDS = 30;
/** Response header telling what the cache did: HIT, MISS (stored), BYPASS (signed in or not cacheable). */
export const CACHE_STATUS_HEADER = "x-edge-cache";
// The route's own Cache-Control travels in the stored copy under this name and is put back on a hit; the
// stored copy's Cache-Control is the cache's lifetime, not the browser's.
const CLIENT_CACHE_CONTROL = "x-client-cache-control";

/**
 * The cache key: this origin, the listings version, the USD rates the answer's prices and price order were
 * computed at, the path, and the query with its parameters in a fixed order. Everything an anonymous answer
 * depends on, except the clock (featured-until, active users), which STORE_SECONDS bounds.
 */
export function edgeCacheKey(requestUrl: string, version: number, rates: Pick<UsdRates, "ethPrice" | "solPrice">): string {
  const url = new URL(requestUrl);
  url.searchParams.sort();
  return `${url.origin}/__edge-cache/v${version}/usd-${rates.ethPrice}-${rates.solPrice}${url.pathname}${url.search}`;
}

function background(c: Context<AppEnv>): (p: Promise<unknown>) => void {
  return (p) => {
    try {
      c.executionCtx.waitUntil(p);
    } catch {
      // No execution context (app.request in tests): the promise still runs, nobody waits for it.
    }
  };
}

const signedIn = (c: Context<AppEnv>) => c.var.session != null || readSessionCookie(c) !== null;

function storable(res: Response): boolean {
  const control = res.headers.get("cache-control") ?? "";
  return res.status === 200 && !res.headers.has("set-cookie") && !/\b(private|no-store)\b/i.test(control);
}

/**
 * Mount on the anonymous-cacheable GET routes (after loadSession). `enabled` false (the benchmark's uncached
 * run) leaves everything to the route, headers included, except the signed-in `private, no-store`.
 */
export function edgeCache(options: { enabled?: boolean } = {}): MiddlewareHandler<AppEnv> {
  const enabled = options.enabled ?? true;
  return async (c, next) => {
    if (c.req.method !== "GET") return next();
    if (signedIn(c)) {
      await next();
      c.res.headers.set("cache-control", "private, no-store");
      c.res.headers.set(CACHE_STATUS_HEADER, "BYPASS");
      return;
    }
    if (!enabled) return next();

    const cache = caches.default;
    // The route asks for the same rates a moment later: getUsdPrices keeps them per isolate.
    const [known, rates] = await Promise.all([currentListingsVersion(c.env.DB, versionTtlMs(c.env), background(c)), getUsdPrices(c.env)]);
    const key = edgeCacheKey(c.req.url, known.version, rates);
    const hit = await cache.match(key);
    if (hit) {
      const res = new Response(hit.body, hit);
      const client = res.headers.get(CLIENT_CACHE_CONTROL);
      res.headers.delete(CLIENT_CACHE_CONTROL);
      if (client) res.headers.set("cache-control", client);
      else res.headers.delete("cache-control");
      res.headers.set(CACHE_STATUS_HEADER, "HIT");
      return res;
    }

    // Read at least as new as the version in the key (see version.ts), never older.
    if (known.bookmark) c.set("db", createDb(c.env.DB.withSession(known.bookmark)));
    await next();
    if (!storable(c.res)) {
      c.res.headers.set(CACHE_STATUS_HEADER, "BYPASS");
      return;
    }
    const stored = c.res.clone();
    const client = c.res.headers.get("cache-control");
    if (client) stored.headers.set(CLIENT_CACHE_CONTROL, client);
    stored.headers.set("cache-control", `public, max-age=${STORE_SECONDS}`);
    stored.headers.delete(CACHE_STATUS_HEADER);
    c.res.headers.set(CACHE_STATUS_HEADER, "MISS");
    // Awaited rather than left to waitUntil: the next identical request then finds it (a put is local and
    // fast), and a failed put costs only the cache, never the answer.
    await cache.put(key, stored).catch(() => undefined);
  };
}
