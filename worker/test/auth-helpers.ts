// Signing in from the worker tests with real wallets: viem accounts for anvil's dev keys (SIWE) and an
// Ed25519 key (SIWS), exactly as a browser would through the API.
import { ed25519 } from "@noble/curves/ed25519.js";
import type { Answer } from "./client";
import { base58 } from "@scure/base";
import type { Hex } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import type { NonceRequest, NonceResponse, SessionResponse } from "../../schema/auth";
import { DEV_ACCOUNTS } from "../../schema/dev-accounts";
import { client, unchecked } from "./client";

export const adminAccount = privateKeyToAccount(DEV_ACCOUNTS.admin.privateKey);
export const buyerAccount = privateKeyToAccount(DEV_ACCOUNTS.buyer.privateKey);
export const otherAccount = privateKeyToAccount(DEV_ACCOUNTS.otherBuyer.privateKey);

export type SolanaKey = { secretKey: Uint8Array; address: string; sign: (text: string) => string };

export function solanaKey(seedByte?: number): SolanaKey {
  const secretKey = seedByte === undefined ? ed25519.utils.randomSecretKey() : new Uint8Array(32).fill(seedByte);
  const address = base58.encode(ed25519.getPublicKey(secretKey));
  return { secretKey, address, sign: (text) => base58.encode(ed25519.sign(new TextEncoder().encode(text), secretKey)) };
}

/** The session cookie ("session=<id>") a response set, ready for a Cookie header. */
export function sessionCookie(res: Answer): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith("session="));
  if (!set) throw new Error(`no session cookie in ${res.status} response`);
  return set.split(";")[0];
}

let clients = 0;
/** A cf-connecting-ip no other call in this file used (an IPv4 address: a client network of its own). */
export function freshClient() {
  clients++;
  return `198.18.${clients >> 8}.${clients & 255}`;
}

/**
 * A nonce as a fresh client would get it: each call has its own cf-connecting-ip, so the per-client nonce
 * limit (tested on its own in auth-security.test.ts) does not couple unrelated sign-ins in one test file.
 */
export async function nonceFor(body: NonceRequest): Promise<NonceResponse> {
  const res = await client(undefined, { "cf-connecting-ip": freshClient() }).auth.nonce.$post({ json: body });
  if (res.status !== 200) throw new Error(`nonce: ${res.status} ${await res.text()}`);
  return res.json();
}

/** POST /api/auth/verify from a fresh client too (any body: the sign-in tests also send broken ones), so the per-client verify limit (auth-message.test.ts) does
 * not couple unrelated sign-ins either. */
export function verify(body: Record<string, unknown>, cookie?: string) {
  return client(undefined, { "cf-connecting-ip": freshClient(), ...(cookie ? { cookie } : {}) }).auth.verify.$post({ json: unchecked(body) });
}

/** Full SIWE sign-in; returns the verify response and the cookie it set. */
export async function signInEthereum(account: PrivateKeyAccount = adminAccount, cookie?: string) {
  const { message } = await nonceFor({ network: "ethereum", address: account.address });
  const signature: Hex = await account.signMessage({ message: message! });
  const res = await verify({ network: "ethereum", message, signature }, cookie);
  if (res.status !== 200) throw new Error(`verify: ${res.status} ${await res.text()}`);
  return { res, cookie: sessionCookie(res), body: (await res.json()) as SessionResponse };
}

/** Full SIWS sign-in through the server-built message (the `solana:signMessage` path). */
export async function signInSolana(key: SolanaKey = solanaKey()) {
  const { message } = await nonceFor({ network: "solana", address: key.address });
  const res = await verify({ network: "solana", message, signature: key.sign(message!), address: key.address });
  if (res.status !== 200) throw new Error(`verify: ${res.status} ${await res.text()}`);
  return { res, cookie: sessionCookie(res), body: (await res.json()) as SessionResponse };
}

export async function sessionOf(cookie: string): Promise<SessionResponse> {
  return (await client(undefined, { cookie }).auth.session.$get()).json();
}
