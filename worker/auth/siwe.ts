// Sign-In with Ethereum (EIP-4361). The server writes the message for each nonce and accepts only that text,
// byte for byte; the signature is checked with viem, always passing domain, nonce, scheme and time, and the
// chain id is compared here because viem does not look at it.
import { createPublicClient, getAddress, http, type Address, type Hex } from "viem";
import { createSiweMessage, verifySiweMessage } from "viem/siwe";
import { ethereumChain } from "../chain/ethereum";
import { issuedAtIsAcceptable } from "./clock";
import type { SignInMessage } from "./sign-in-grammar";
import { type SiteOrigin, uriIsOnSite } from "./site";

export const SIGN_IN_STATEMENT = "Sign in to Vanity Addresses. This request costs nothing and sends no transaction.";

/** The refusal for a well-formed message that is not the one issued for its nonce. */
export const NOT_ISSUED = "the signed text is not the message issued for this nonce; sign the message the site shows";

export function buildSiweMessage(site: SiteOrigin, p: { address: string; chainId: number; nonce: string; issuedAt: number; expiresAt: number }) {
  return createSiweMessage({
    scheme: site.scheme,
    domain: site.domain,
    uri: site.origin,
    address: getAddress(p.address),
    statement: SIGN_IN_STATEMENT,
    version: "1",
    chainId: p.chainId,
    nonce: p.nonce,
    issuedAt: new Date(p.issuedAt),
    expirationTime: new Date(p.expiresAt),
  });
}

// Sign-in reaches the node only for smart-contract wallets, and a person is waiting: one short try, no
// retries (the payment client in chain/ethereum.ts retries because a payment check must not give up).
const signInClient = (env: Pick<Env, "ETH_CHAIN_ID" | "ETH_RPC_URL">) =>
  createPublicClient({ chain: ethereumChain(env), transport: http(env.ETH_RPC_URL, { timeout: 5_000, retryCount: 0 }) });

export type SiweCheck = { ok: true; address: Address } | { ok: false; reason: string };

/**
 * Uses the nonce up once one of `texts` is exactly the message issued with it; the refusal's reason otherwise
 * (sign-in.ts: not the issued text, or the nonce already used).
 */
export type NonceClaim = (texts: readonly string[]) => Promise<string | null>;

/**
 * Checks a strictly parsed SIWE message (sign-in-grammar.ts) whose nonce is ours and live: chain, site and
 * times first (each with its own reason), then `claim` (the text is byte for byte the message issued for the
 * nonce, which is then used up), then the signature. Only a signature that does not recover to the address
 * reaches the node, once per nonce.
 */
export async function checkSiwe(
  env: Pick<Env, "ETH_CHAIN_ID" | "ETH_RPC_URL">,
  site: SiteOrigin,
  p: { message: string; parsed: SignInMessage; claim: NonceClaim; signature: Hex; now: number },
): Promise<SiweCheck> {
  const { parsed } = p;
  const expectedChainId = Number(env.ETH_CHAIN_ID);
  if (Number(parsed.chainId) !== expectedChainId)
    return { ok: false, reason: `message is for chain ${parsed.chainId}, this marketplace signs in on chain ${expectedChainId}` };
  if (parsed.domain !== site.domain || (parsed.scheme ?? "https") !== site.scheme) return { ok: false, reason: "message is for another domain" };
  if (parsed.uri === undefined || !uriIsOnSite(parsed.uri, site)) return { ok: false, reason: "message URI is for another site" };
  // viem checks expiry and not-before but never the issue time; SIWS refuses the same times (clock.ts).
  if (parsed.issuedAt === undefined || !issuedAtIsAcceptable(new Date(parsed.issuedAt), p.now)) return { ok: false, reason: "message has no valid issue time" };
  const refused = await p.claim([p.message]);
  if (refused) return { ok: false, reason: refused };
  // viem forwards extra parameters to verifyHash: `mode: "eoa"` recovers the signer locally first, so an
  // ordinary wallet signs in without an RPC round trip; only a signature that does not recover falls back to
  // the on-chain ERC-1271/6492 check for smart-contract wallets.
  const eoaFirst = { mode: "eoa" } as object;
  let valid: boolean;
  try {
    valid = await verifySiweMessage(signInClient(env), {
      message: p.message,
      signature: p.signature,
      domain: site.domain,
      scheme: site.scheme,
      nonce: parsed.nonce,
      time: new Date(p.now),
      ...eoaFirst,
    });
  } catch (err) {
    // The contract-wallet fallback needs the RPC node; if it is unreachable the signature is not proven.
    console.warn("SIWE verification could not complete", err instanceof Error ? err.message.split("\n")[0] : String(err));
    valid = false;
  }
  if (!valid) return { ok: false, reason: "signature, domain or time does not match" };
  return { ok: true, address: getAddress(parsed.address) };
}
