// The API as the tests call it: Hono's typed client on the Worker's app type (worker/app.ts AppType), the
// same one the web builds in web/src/api/http.ts, over the test Worker's own fetch handler. A route that is
// renamed, or whose body or query schema changes, is then a type error in the tests (npm run typecheck), not a
// 404 at run time. Raw string paths (helpers.ts api/postJson) stay only for what this client cannot send:
// malformed or non-JSON bodies, wrong content types, unknown routes, hand-built query strings.
import { SELF } from "cloudflare:test";
import { hc } from "hono/client";
import type { ErrorBody } from "../../schema/api";
import type { AppType } from "../app";

/** Anything that carries request headers: a signed-in Wallet or Caller of the fixtures (cookie, cf-connecting-ip). */
export type HeaderCarrier = { headers: Record<string, string> };

/** The origin the tests call (SITE_ORIGIN in vitest.config.ts). */
const ORIGIN = "http://localhost";

/**
 * The typed API as `who` (its cookie and client address; anonymous when undefined), plus `headers` on every
 * call: `client(buyer).transactions[":id"].confirm.$post({ param: { id }, json })`. A single call
 * may add headers of its own as the second argument: `$get({}, { headers: { "x-wallet-address": a } })`.
 */
export function client(who?: HeaderCarrier, headers: Record<string, string> = {}) {
  return hc<AppType>(ORIGIN, { fetch: (input: RequestInfo | URL, init?: RequestInit) => SELF.fetch(input, init), headers: { ...who?.headers, ...headers } })
    .api;
}

/**
 * The same client on an app of the test's own, with bindings of its own (a test that changes a setting for one
 * call): `clientOf((input, init) => createApp().request(input, init, { ...env, X: "y" }))`.
 */
export function clientOf(
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Response | Promise<Response>,
  who?: HeaderCarrier,
  headers: Record<string, string> = {},
) {
  return hc<AppType>(ORIGIN, {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(fetch(input, init)),
    headers: { ...who?.headers, ...headers },
  }).api;
}

/**
 * `input`, the URL the client calls (always on http://localhost), moved to `origin`: for a test whose request
 * must arrive at another Host or at an https site, `clientOf((input, init) => app.request(atOrigin(site, input), init, e))`.
 */
export function atOrigin(origin: string, input: RequestInfo | URL): string {
  const url = new URL(input instanceof Request ? input.url : String(input));
  return `${origin}${url.pathname}${url.search}`;
}

/**
 * A JSON body the route's schema refuses, sent on purpose (hostile-input tests): the route and its path stay
 * typed, only the body is not.
 */
export const unchecked = <T>(body: unknown) => body as T;

/**
 * The API's error answer (`{error, message, ...extra}`, docs/api.md) of a refused call: the client types what a
 * route answers, and a refusal thrown as an ApiError is not part of that type.
 */
export async function refusal(res: { json(): Promise<unknown> }): Promise<ErrorBody & Record<string, unknown>> {
  return (await res.json()) as ErrorBody & Record<string, unknown>;
}

/** What the tests read of any answer, the typed client's or a raw fetch's: status, headers and body. */
export type Answer = { status: number; headers: Headers; json(): Promise<unknown>; text(): Promise<string> };
