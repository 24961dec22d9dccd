// Talking to the e2e stack's API from Node as a signed-in wallet: Sign-In with Ethereum with a dev key
// (viem signs what the server wrote), then calls with the session cookie. Used to set up what a journey
// needs (a listing whose key the test knows) without driving a second browser.
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { inject } from "vitest";

export type ApiSession = { cookie: string; call: <T>(method: string, path: string, body?: unknown) => Promise<{ status: number; body: T }> };

/**
 * fetch, once more on a new connection when a kept-alive one was closed under it: the stack closes idle
 * connections, and a journey that grinds a key between two calls (keyStartingWith) leaves its connection idle
 * long enough to race that close ("fetch failed: other side closed", CI of stop 35). A request the server did
 * answer is never sent twice: a repeated listing would be refused (409) and fail the journey loudly.
 */
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (e) {
    if (!(e instanceof TypeError && (e.cause as { code?: string } | undefined)?.code === "UND_ERR_SOCKET")) throw e;
    return fetch(url, init);
  }
}

export async function signInWithKey(privateKey: Hex): Promise<ApiSession> {
  const baseUrl = inject("baseUrl");
  const account = privateKeyToAccount(privateKey);
  const post = (path: string, body: unknown, cookie = "") =>
    send(`${baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
  const nonce = (await (await post("/api/auth/nonce", { network: "ethereum", address: account.address })).json()) as { message: string };
  const signature = await account.signMessage({ message: nonce.message });
  const verified = await post("/api/auth/verify", { network: "ethereum", message: nonce.message, signature });
  if (!verified.ok) throw new Error(`sign-in failed: ${verified.status} ${await verified.text()}`);
  const cookie = (verified.headers.get("set-cookie") ?? "").split(";")[0];
  return {
    cookie,
    async call<T>(method: string, path: string, body?: unknown) {
      const res = await send(`${baseUrl}${path}`, {
        method,
        headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
    },
  };
}

/** Lists an address with its key as the admin; answers the listing id. */
export async function listAsAdmin(
  admin: ApiSession,
  listing: { address: string; network: "ethereum" | "solana"; price: string; privateKey: string },
): Promise<number> {
  const res = await admin.call<{ id: number }>("POST", "/api/addresses", { ...listing, currency: listing.network === "ethereum" ? "ETH" : "SOL" });
  if (res.status !== 201) throw new Error(`listing failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}
