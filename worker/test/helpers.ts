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
