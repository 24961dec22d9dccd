// A buyer of the local stack over HTTP, as a buyer's page does it: the node calls, the API calls, signing in with a
// wallet, reserving a listing. Shared by `npm run bench:purchase` and `npm run soak`; every request goes to loopback,
// and the buyer's client network is only a header value (docs/public-surface.md#client-networks).
import path from "node:path";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import type { Keypair } from "@solana/web3.js";
import { defineChain, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { getPlatformProxy } from "wrangler";
import { extractableDeliveryKey, openSealedKey } from "../../schema/sealed-delivery";
import { ROOT } from "../stack";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** anvil as viem's chain, at `url`. */
export const anvilChain = (url: string) =>
  defineChain({
    id: 31337,
    name: "Anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });

/** One JSON-RPC call; a node error is thrown. */
export async function rpc(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: callers read each node answer's fields where they use them.
  const body = (await res.json()) as { result?: any; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

// biome-ignore lint/suspicious/noExplicitAny: callers read each API answer's fields where they use them.
export type ApiAnswer = { status: number; json: any; cookie: string | undefined };
export type Api = (pathname: string, init?: { method?: string; body?: unknown; cookie?: string }) => Promise<ApiAnswer>;

/**
 * The site's API at `base`, each request from the client network `client()` names (the `cf-connecting-ip` header,
 * which wrangler dev keeps). `onAnswer` sees every answer's status, JSON and text (the soak counts them).
 */
export function apiClient(
  base: string,
  client: () => string,
  onAnswer?: (pathname: string, status: number, json: ApiAnswer["json"], text: string) => void,
): Api {
  return async (pathname, init = {}) => {
    const res = await fetch(`${base}${pathname}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...(init.cookie ? { cookie: init.cookie } : {}),
        "cf-connecting-ip": client(),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    onAnswer?.(pathname, res.status, json, text);
    return { status: res.status, json, cookie: res.headers.get("set-cookie")?.split(";")[0] };
  };
}

/**
 * The reveal as the purchase page makes it (docs/key-custody.md#sealed-delivery): a one-time key pair, its public
 * half sent, the sealed answer opened here. `privateKey` is the opened key, undefined for a refusal.
 */
export async function revealKey(api: Api, cookie: string, id: string): Promise<ApiAnswer & { privateKey?: string }> {
  const page = await extractableDeliveryKey();
  const res = await api(`/api/transactions/${id}/reveal-private-key`, { body: { publicKey: page.publicKey }, cookie });
  if (!res.json?.success) return res;
  return { ...res, privateKey: await openSealedKey(page.pair, id, res.json.sealed) };
}

export class SignInRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function signInEthereum(api: Api, privateKey: Hex) {
  const account = privateKeyToAccount(privateKey);
  const nonce = await api("/api/auth/nonce", { body: { network: "ethereum", address: account.address } });
  // A refusal carries a `message` too (a 429's text): only a 200's is a message to sign.
  if (nonce.status !== 200 || !nonce.json?.message) throw new SignInRefused(nonce.status, `nonce ${nonce.status}: ${JSON.stringify(nonce.json)}`);
  const signature = await account.signMessage({ message: nonce.json.message });
  const verified = await api("/api/auth/verify", { body: { network: "ethereum", message: nonce.json.message, signature } });
  if (!verified.json?.authenticated || !verified.cookie) throw new SignInRefused(verified.status, `Ethereum sign-in failed: ${JSON.stringify(verified.json)}`);
  return verified.cookie;
}

export async function signInSolana(api: Api, keypair: Keypair) {
  const address = keypair.publicKey.toBase58();
  const nonce = await api("/api/auth/nonce", { body: { network: "solana", address } });
  // A refusal carries a `message` too (a 429's text): only a 200's is a message to sign.
  if (nonce.status !== 200 || !nonce.json?.message) throw new SignInRefused(nonce.status, `nonce ${nonce.status}: ${JSON.stringify(nonce.json)}`);
  const message = nonce.json.message as string;
  const signature = base58.encode(ed25519.sign(new TextEncoder().encode(message), keypair.secretKey.slice(0, 32)));
  const verified = await api("/api/auth/verify", { body: { network: "solana", message, signature, address } });
  if (!verified.json?.authenticated || !verified.cookie) throw new SignInRefused(verified.status, `Solana sign-in failed: ${JSON.stringify(verified.json)}`);
  return verified.cookie;
}

export type Listing = { id: number; address: string; network: "ethereum" | "solana" };

/** Runs `use` with the bindings of the stack's local D1 at `persistTo` (wrangler's platform proxy), then lets go. */
export async function withLocalEnv<E, T>(persistTo: string, use: (env: E) => Promise<T>): Promise<T> {
  const proxy = await getPlatformProxy<E & Record<string, unknown>>({
    configPath: path.join(ROOT, "wrangler.toml"),
    persist: { path: path.join(persistTo, "v3") },
    remoteBindings: false,
  });
  try {
    return await use(proxy.env);
  } finally {
    await proxy.dispose();
  }
}

export type LocalDb = { prepare: (q: string) => { all: <T>() => Promise<{ results: T[] }> } };

/** The listings for sale in the stack's local D1 at `persistTo`. */
export function activeListings(persistTo: string): Promise<Listing[]> {
  return withLocalEnv<{ DB: LocalDb }, Listing[]>(persistTo, async ({ DB }) => {
    const { results } = await DB.prepare("SELECT id, address, network FROM addresses WHERE status = 'active' AND is_listed = 1 ORDER BY id").all<Listing>();
    return results;
  });
}

/** What the purchase page reads to pay: the amount, where to, and (Solana) the reference key. */
export type PaymentView = { amountBaseUnits: string; recipient: string; paymentReference: string | null; expiresAt: string | null };

/** Reserves `listing`; the answer when the API refuses. */
export async function reserve(
  api: Api,
  cookie: string,
  listing: Listing,
  buyerId: string,
): Promise<{ id: string; view: PaymentView } | { refused: ApiAnswer }> {
  const res = await api("/api/transactions/initiate", { body: { addressId: listing.id, buyerId }, cookie });
  if (res.status !== 201) return { refused: res };
  const view = await api(`/api/transactions/${res.json.transactionId}`, { cookie });
  return { id: res.json.transactionId as string, view: view.json as PaymentView };
}

/** Reserves `listing`, throwing when the API refuses. */
export async function initiate(api: Api, cookie: string, listing: Listing, buyerId: string) {
  const res = await reserve(api, cookie, listing, buyerId);
  if ("refused" in res) throw new Error(`initiate ${res.refused.status}: ${JSON.stringify(res.refused.json)}`);
  return res;
}
