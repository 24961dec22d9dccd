// Sign-In With Solana: the message text the Wallet Standard's `solana:signIn` produces (the EIP-4361 layout
// with "Solana account"), built here for wallets that only offer `solana:signMessage`, and checked after a
// strict parse (sign-in-grammar.ts): domain, URI, issue and expiry times, the text against the message issued
// for the nonce, and the Ed25519 signature through Web Crypto.
import { base58 } from "@scure/base";
import type { SolanaSignInFields } from "../../schema/auth";
import { siwsMessageText } from "../../schema/siws-message";
import { issuedAtIsAcceptable } from "./clock";
import type { SignInMessage } from "./sign-in-grammar";
import { type NonceClaim, SIGN_IN_STATEMENT } from "./siwe";
import { type SiteOrigin, uriIsOnSite } from "./site";

export function signInFields(site: SiteOrigin, p: { address?: string; nonce: string; issuedAt: number; expiresAt: number }): SolanaSignInFields {
  return {
    domain: site.domain,
    ...(p.address ? { address: p.address } : {}),
    statement: SIGN_IN_STATEMENT,
    uri: site.origin,
    version: "1",
    nonce: p.nonce,
    issuedAt: new Date(p.issuedAt).toISOString(),
    expirationTime: new Date(p.expiresAt).toISOString(),
  };
}

/** The message text, in the field order `solana:signIn` wallets use (schema/siws-message.ts, shared with the dev wallet). */
export function buildSiwsMessage(m: SignInMessage): string {
  return siwsMessageText(m);
}

/**
 * The SIWS message the server issues when the wallet writes the text itself (`solana:signIn` with no address
 * known): the address line is left empty for the wallet to fill in. Its hash is what the nonce's HMAC covers.
 */
export function withAddressLeftOut(text: string): string {
  const lines = text.split("\n");
  if (lines.length > 1) lines[1] = "";
  return lines.join("\n");
}

export type SiwsCheck = { ok: true; address: string } | { ok: false; reason: string };

// Stryker disable next-line ConditionalExpression: Date.parse(undefined) is NaN as well; the check says what is meant.
const time = (iso: string | undefined) => (iso === undefined ? NaN : Date.parse(iso));

/**
 * Checks a strictly parsed SIWS message (sign-in-grammar.ts) whose nonce is ours and live: domain, URI, times,
 * then `claim`: the text is the message issued for the nonce (byte for byte, or with only the address line
 * filled in by a `solana:signIn` wallet, as @solana/wallet-standard-util's verifySignIn rebuilds and compares
 * it), and the nonce is used up; then the Ed25519 signature.
 */
export async function checkSiws(
  site: SiteOrigin,
  p: { text: string; parsed: SignInMessage; claim: NonceClaim; signature: string; claimedAddress?: string; now: number },
): Promise<SiwsCheck> {
  const m = p.parsed;
  if (m.domain !== site.domain) return { ok: false, reason: "message is for another domain" };
  // Stryker disable next-line ConditionalExpression: uriIsOnSite refuses a missing URI too (new URL throws).
  if (m.uri === undefined || !uriIsOnSite(m.uri, site)) return { ok: false, reason: "message URI is for another site" };
  const expires = time(m.expirationTime);
  if (Number.isNaN(expires)) return { ok: false, reason: "message has no valid expiration time" };
  if (expires <= p.now) return { ok: false, reason: "message has expired" };
  // Stryker disable next-line ConditionalExpression: a missing issue time reads as an invalid date, which the clock refuses too.
  if (m.issuedAt === undefined || !issuedAtIsAcceptable(new Date(time(m.issuedAt)), p.now)) return { ok: false, reason: "message has no valid issue time" };
  // Stryker disable next-line ConditionalExpression: a missing not-before time is NaN, and NaN > now is false.
  if (m.notBefore !== undefined && time(m.notBefore) > p.now) return { ok: false, reason: "message is not valid yet" };
  const refused = await p.claim([p.text, withAddressLeftOut(p.text)]);
  if (refused) return { ok: false, reason: refused };
  if (p.claimedAddress !== undefined && p.claimedAddress !== m.address) return { ok: false, reason: "signing account differs from the message's address" };
  if (!(await verifyEd25519(m.address, p.signature, new TextEncoder().encode(p.text)))) return { ok: false, reason: "signature does not match" };
  return { ok: true, address: m.address };
}

/** Ed25519 through Web Crypto: the Solana address is the raw 32-byte public key in base58. */
export async function verifyEd25519(addressBase58: string, signatureBase58: string, data: Uint8Array): Promise<boolean> {
  let publicKey: Uint8Array;
  let signature: Uint8Array;
  try {
    publicKey = base58.decode(addressBase58);
    signature = base58.decode(signatureBase58);
  } catch {
    return false;
  }
  // Stryker disable next-line ConditionalExpression,LogicalOperator: Web Crypto refuses these lengths as well (import throws, verify says false); checked first so the rule is written here.
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    // Stryker disable next-line BooleanLiteral: whether the key could be exported changes nothing here.
    const key = await crypto.subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, signature, data);
    // Stryker disable next-line all: Node's Web Crypto never throws here (it checks no curve point on import); workerd may.
  } catch {
    // Not a valid curve point: no key could have signed.
    // Stryker disable next-line BooleanLiteral: unreachable in Node, as just said.
    return false;
  }
}
