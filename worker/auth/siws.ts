// Sign-In With Solana: the message text the Wallet Standard's `solana:signIn` produces (the EIP-4361 layout
// with "Solana account"), built here for wallets that only offer `solana:signMessage`, parsed back from what
// either kind of wallet signed, and checked explicitly: domain, URI, nonce, issue and expiry times, and the
// Ed25519 signature through Web Crypto.
import { base58 } from "@scure/base";
import type { SolanaSignInFields } from "../../schema/auth";
import { issuedAtIsAcceptable } from "./clock";
import { SIGN_IN_STATEMENT } from "./siwe";
import { type SiteOrigin, uriIsOnSite } from "./site";

const HEADER_SUFFIX = " wants you to sign in with your Solana account:";

export type SiwsMessage = {
  domain: string;
  address: string;
  statement?: string;
  uri?: string;
  version?: string;
  chainId?: string;
  nonce?: string;
  issuedAt?: string;
  expirationTime?: string;
  notBefore?: string;
  requestId?: string;
  resources?: string[];
};

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

const FIELDS: [label: string, key: keyof SiwsMessage][] = [
  ["URI", "uri"],
  ["Version", "version"],
  ["Chain ID", "chainId"],
  ["Nonce", "nonce"],
  ["Issued At", "issuedAt"],
  ["Expiration Time", "expirationTime"],
  ["Not Before", "notBefore"],
  ["Request ID", "requestId"],
];

/** The message text, in the field order `solana:signIn` wallets use. */
export function buildSiwsMessage(m: SiwsMessage): string {
  let text = `${m.domain}${HEADER_SUFFIX}\n${m.address}`;
  if (m.statement) text += `\n\n${m.statement}`;
  const lines: string[] = [];
  for (const [label, key] of FIELDS) {
    const value = m[key];
    if (typeof value === "string" && value) lines.push(`${label}: ${value}`);
  }
  if (m.resources?.length) lines.push("Resources:", ...m.resources.map((r) => `- ${r}`));
  if (lines.length) text += `\n\n${lines.join("\n")}`;
  return text;
}

/** Parses a SIWS message strictly: unknown lines, repeated fields or a misplaced statement mean null. */
export function parseSiwsMessage(text: string): SiwsMessage | null {
  const lines = text.split("\n");
  const header = lines[0] ?? "";
  if (!header.endsWith(HEADER_SUFFIX)) return null;
  const domain = header.slice(0, -HEADER_SUFFIX.length);
  const address = lines[1] ?? "";
  if (!domain || /\s/.test(domain) || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) return null;
  const out: SiwsMessage = { domain, address };
  let i = 2;
  if (i === lines.length) return out;
  if (lines[i] !== "") return null;
  i++;
  const isField = (line: string) => FIELDS.some(([label]) => line.startsWith(`${label}: `)) || line === "Resources:";
  if (i < lines.length && !isField(lines[i])) {
    out.statement = lines[i];
    i++;
    if (i === lines.length) return out;
    if (lines[i] !== "") return null;
    i++;
  }
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line === "Resources:") {
      if (out.resources) return null;
      out.resources = [];
      while (i + 1 < lines.length && lines[i + 1].startsWith("- ")) out.resources.push(lines[++i].slice(2));
      continue;
    }
    const field = FIELDS.find(([label]) => line.startsWith(`${label}: `));
    if (!field) return null;
    const [label, key] = field;
    if (out[key] !== undefined) return null;
    (out as Record<string, unknown>)[key] = line.slice(label.length + 2);
  }
  return out;
}

export type SiwsCheck = { ok: true; message: SiwsMessage } | { ok: false; reason: string };

const time = (iso: string | undefined) => (iso === undefined ? NaN : Date.parse(iso));

/** Checks everything about a signed SIWS message except the nonce's presence in the store. */
export async function checkSiws(site: SiteOrigin, p: { text: string; signature: string; claimedAddress?: string; now: number }): Promise<SiwsCheck> {
  const m = parseSiwsMessage(p.text);
  if (!m) return { ok: false, reason: "not a Sign-In with Solana message" };
  if (m.domain !== site.domain) return { ok: false, reason: "message is for another domain" };
  if (m.uri === undefined || !uriIsOnSite(m.uri, site)) return { ok: false, reason: "message URI is for another site" };
  if (m.version !== undefined && m.version !== "1") return { ok: false, reason: "unsupported message version" };
  if (!m.nonce || !/^[A-Za-z0-9]{8,}$/.test(m.nonce)) return { ok: false, reason: "message carries no valid nonce" };
  const expires = time(m.expirationTime);
  if (Number.isNaN(expires)) return { ok: false, reason: "message has no valid expiration time" };
  if (expires <= p.now) return { ok: false, reason: "message has expired" };
  if (m.issuedAt === undefined || !issuedAtIsAcceptable(new Date(time(m.issuedAt)), p.now)) return { ok: false, reason: "message has no valid issue time" };
  if (m.notBefore !== undefined) {
    const notBefore = time(m.notBefore);
    if (Number.isNaN(notBefore) || notBefore > p.now) return { ok: false, reason: "message is not valid yet" };
  }
  if (p.claimedAddress !== undefined && p.claimedAddress !== m.address) return { ok: false, reason: "signing account differs from the message's address" };
  if (!(await verifyEd25519(m.address, p.signature, new TextEncoder().encode(p.text)))) return { ok: false, reason: "signature does not match" };
  return { ok: true, message: m };
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
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    const key = await crypto.subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, signature, data);
  } catch {
    // Not a valid curve point: no key could have signed.
    return false;
  }
}
