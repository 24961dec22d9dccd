// Talking to the e2e stack's API from Node as a signed-in wallet: Sign-In with Ethereum with a dev key
// (viem signs what the server wrote), then calls with the session cookie through Hono's typed client on the
// Worker's app type, as the web app makes them (web/src/api/http.ts). Used to set up what a journey needs (a
// listing whose key the test knows) without driving a second browser.
import { type ClientResponse, hc } from "hono/client";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { inject } from "vitest";
import type { AppType } from "../worker/app";

/** The API, typed by the Worker's routes: `session.api.transactions.initiate.$post({ json })`. */
export type Api = ReturnType<typeof hc<AppType>>["api"];

export type ApiSession = { cookie: string; api: Api };

/** The typed API at the e2e stack's base URL, with `headers` on every call. */
export function apiAt(baseUrl: string, headers: Record<string, string> = {}): Api {
  return hc<AppType>(baseUrl, { fetch: send, headers }).api;
}

/** Awaits a call: its status and its JSON body (null when the answer has none), typed by the route. */
export async function answer<R extends ClientResponse<unknown, number, string>>(call: Promise<R>): Promise<{ status: number; body: BodyOf<R> }> {
  const res = await call;
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as BodyOf<R> };
}

/** The JSON of every answer a route declares (a union when it declares several). */
type BodyOf<R> = R extends ClientResponse<infer T, number, string> ? T : never;

/**
 * fetch, once more on a new connection when a kept-alive one was closed under it: the stack closes idle
 * connections, and a journey that grinds a key between two calls (keyStartingWith) leaves its connection idle
 * long enough to race that close ("fetch failed: other side closed", CI of stop 35). A request the server did
 * answer is never sent twice: a repeated listing would be refused (409) and fail the journey loudly.
 */
async function send(url: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (e) {
    if (!(e instanceof TypeError && (e.cause as { code?: string } | undefined)?.code === "UND_ERR_SOCKET")) throw e;
    return fetch(url, init);
  }
}

/**
 * One API session per key and stack for the whole run (a session lasts a day): every journey signing in afresh
 * from the same loopback address spent the client network's 30 sign-ins a minute (NONCE_RATE_LIMIT) once the
 * journeys ran side by side, and the 429's text was then signed as if it were a message.
 */
const sessions = new Map<string, Promise<ApiSession>>();

export function signInWithKey(privateKey: Hex): Promise<ApiSession> {
  const key = `${inject("baseUrl")} ${privateKey}`;
  let session = sessions.get(key);
  if (!session) {
    session = freshSession(privateKey);
    // A failed sign-in is not kept: the next journey tries again.
    session.catch(() => sessions.delete(key));
    sessions.set(key, session);
  }
  return session;
}

async function freshSession(privateKey: Hex): Promise<ApiSession> {
  const baseUrl = inject("baseUrl");
  const account = privateKeyToAccount(privateKey);
  const anonymous = apiAt(baseUrl);
  const asked = await anonymous.auth.nonce.$post({ json: { network: "ethereum", address: account.address } });
  if (!asked.ok) throw new Error(`sign-in failed: nonce ${asked.status} ${await asked.text()}`);
  const message = (await asked.json()).message!;
  const signature = await account.signMessage({ message });
  const verified = await anonymous.auth.verify.$post({ json: { network: "ethereum", message, signature } });
  if (!verified.ok) throw new Error(`sign-in failed: ${verified.status} ${await verified.text()}`);
  const cookie = (verified.headers.get("set-cookie") ?? "").split(";")[0];
  return { cookie, api: apiAt(baseUrl, { cookie }) };
}

/** Lists an address with its key as the admin; answers the listing id. */
export async function listAsAdmin(
  admin: ApiSession,
  listing: { address: string; network: "ethereum" | "solana"; price: string; privateKey: string },
): Promise<number> {
  const res = await answer(
    admin.api.addresses.$post({
      // The journeys list fresh random keys, which show no notable pattern: confirmed, as the form's checkbox does.
      json: { ...listing, currency: listing.network === "ethereum" ? "ETH" : "SOL", confirmNoPattern: true },
    }),
  );
  if (res.status !== 201) throw new Error(`listing failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}
