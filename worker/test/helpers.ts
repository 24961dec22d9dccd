import { SELF } from "cloudflare:test";

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

/**
 * Rate limits count in fixed one-minute windows (worker/http/rate-limit.ts). A test that fills a window must
 * not straddle two of them, or its last calls land in a fresh window and pass: wait for the next window when
 * less than `needMs` of the current one is left.
 */
export async function inFreshRateWindow(needMs = 20_000, windowMs = 60_000) {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
