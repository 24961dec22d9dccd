// Sign-in by wallet signature (docs/sign-in.md): the request bodies the Worker validates and the answers the browser
// reads. Shared so both sides agree on one shape.
import * as v from "valibot";
import type { Network } from "./db";

import { MAX_SIGN_IN_MESSAGE_LENGTH } from "./constants";

export { MAX_SIGN_IN_MESSAGE_LENGTH };

const walletAddressInput = v.pipe(v.string(), v.trim(), v.minLength(1, "must not be empty"), v.maxLength(64, "is too long"));

/** POST /api/auth/nonce. Ethereum needs the address (the server writes the SIWE message for it); Solana's
 * `solana:signIn` lets the wallet fill in its own address, so there it is optional. */
export const NonceRequest = v.variant("network", [
  v.object({ network: v.literal("ethereum"), address: walletAddressInput }),
  v.object({ network: v.literal("solana"), address: v.optional(walletAddressInput) }),
]);
export type NonceRequest = v.InferOutput<typeof NonceRequest>;

/** The fields of a Sign-In With Solana request, as the Wallet Standard's `solana:signIn` takes them. */
export type SolanaSignInFields = {
  domain: string;
  address?: string;
  statement: string;
  uri: string;
  version: "1";
  nonce: string;
  issuedAt: string;
  expirationTime: string;
};

export type NonceResponse = {
  nonce: string;
  /** ISO time after which the nonce is refused. */
  expiresAt: string;
  /** The exact text to sign, when the server knows the address (always for Ethereum). */
  message?: string;
  /** Solana only: the input for `solana:signIn`, so the wallet builds the same message itself. */
  signInInput?: SolanaSignInFields;
};

const message = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(MAX_SIGN_IN_MESSAGE_LENGTH, "is too long"));

/** POST /api/auth/verify: the signed message and its signature. */
export const VerifyRequest = v.variant("network", [
  v.object({
    network: v.literal("ethereum"),
    message,
    // 65-byte ECDSA signatures, or the longer wrapped forms smart-contract wallets produce (ERC-6492).
    signature: v.pipe(v.string(), v.regex(/^0x(?:[0-9a-fA-F]{2}){65,2048}$/, "must be a 0x-prefixed hex signature")),
  }),
  v.object({
    network: v.literal("solana"),
    message,
    // An Ed25519 signature is 64 bytes: 86 to 88 base58 characters.
    signature: v.pipe(v.string(), v.regex(/^[1-9A-HJ-NP-Za-km-z]{64,90}$/, "must be a base58 Ed25519 signature")),
    /** The account the wallet says it signed with; must be the message's address when given. */
    address: v.optional(walletAddressInput),
  }),
]);
export type VerifyRequest = v.InferOutput<typeof VerifyRequest>;

export type SessionUser = {
  id: number;
  username: string;
  walletAddress: string;
  network: Network;
  isAdmin: boolean;
  /** ISO time the users row was created ("Member since"). */
  createdAt: string;
};

/** GET /api/auth/session and POST /api/auth/verify. A visitor without a session gets `authenticated: false`
 * with status 200, so an anonymous page load shows no failed request. */
export type SessionResponse = { authenticated: false } | { authenticated: true; user: SessionUser; expiresAt: string };

/** GET /api/users/admin-status?walletAddress= */
export const AdminStatusQuery = v.object({ walletAddress: walletAddressInput });
export type AdminStatusResponse = { isAdmin: boolean; userExists: boolean };
