// Fixed-window rate limiting in D1 (table rate_limits). One atomic upsert counts the request and returns
// the window's count, so concurrent requests from one client are all counted; the same batch drops
// windows that have ended, which keeps the table to about one row per active client. D1 rather than a
// Workers rate-limit binding so it behaves the same under `wrangler dev` and in the worker tests.
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../types";
import { ApiError } from "./errors";

/** The caller's address as Cloudflare saw it; "local" where there is no edge (wrangler dev, tests). */
export function clientIp(c: Context<AppEnv>): string {
  const ip = (c.req.header("cf-connecting-ip") ?? "").trim();
  return ip && ip.length <= 64 ? ip : "local";
}

/** Counts one request for `key` in the current window; the count including this one. */
export async function countRequest(d1: D1Database, key: string, windowMs: number, now: number): Promise<number> {
  const windowStart = now - (now % windowMs);
  const [, counted] = await d1.batch<{ count: number }>([
    d1.prepare("DELETE FROM rate_limits WHERE window_start < ?").bind(windowStart - windowMs),
    d1
      .prepare(
        `INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, 1)
         ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1 RETURNING count`,
      )
      .bind(key, windowStart),
  ]);
  return counted.results[0]?.count ?? 1;
}

/** Refuses with 429 once a client has made `limit` requests to `name` within the current window. */
export function rateLimit(name: string, limit: number, windowMs: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const count = await countRequest(c.env.DB, `${name}:${clientIp(c)}`, windowMs, Date.now());
    if (count > limit) {
      throw new ApiError(429, `Too many requests: at most ${limit} per ${Math.round(windowMs / 1000)} seconds. Wait a minute and try again.`);
    }
    await next();
  };
}
