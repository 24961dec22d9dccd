// Sign-In with Ethereum (EIP-4361), checked with viem. Domain, nonce, scheme and time are always passed, so
// a message written for another site, an unknown nonce or an expired message fails inside viem; the chain id
// is compared here because viem does not look at it.
import { createPublicClient, getAddress, http, type Address, type Hex } from "viem";
import { createSiweMessage, parseSiweMessage, verifySiweMessage } from "viem/siwe";
import { ethereumChain } from "../chain/ethereum";
import { issuedAtIsAcceptable } from "./clock";
import { type SiteOrigin, uriIsOnSite } from "./site";

export const SIGN_IN_STATEMENT = "Sign in to Vanity Addresses. This request costs nothing and sends no transaction.";

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

/** Reads the nonce and chain id a message claims, before any signature work. */
export function readSiweClaims(message: string, expectedChainId: number, now: number): { ok: true; nonce: string } | { ok: false; reason: string } {
  const parsed = parseSiweMessage(message);
  if (!parsed.address || !parsed.nonce || parsed.chainId === undefined) return { ok: false, reason: "not a Sign-In with Ethereum message" };
  if (parsed.chainId !== expectedChainId) return { ok: false, reason: `message is for chain ${parsed.chainId}, this marketplace signs in on chain ${expectedChainId}` };
  // viem checks expiry and not-before but never the issue time: without this a message stamped a day ahead
  // passed here while SIWS refused it. Both now allow the same clock skew (clock.ts).
  if (!issuedAtIsAcceptable(parsed.issuedAt, now)) return { ok: false, reason: "message has no valid issue time" };
  return { ok: true, nonce: parsed.nonce };
}

export async function checkSiwe(
  env: Pick<Env, "ETH_CHAIN_ID" | "ETH_RPC_URL">,
  site: SiteOrigin,
  p: { message: string; signature: Hex; nonce: string; now: number },
): Promise<SiweCheck> {
  const parsed = parseSiweMessage(p.message);
  if (!parsed.address) return { ok: false, reason: "not a Sign-In with Ethereum message" };
  if (parsed.uri !== undefined && !uriIsOnSite(parsed.uri, site)) return { ok: false, reason: "message URI is for another site" };
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
      nonce: p.nonce,
      time: new Date(p.now),
      ...eoaFirst,
    });
  } catch (err) {
    // The contract-wallet fallback needs the RPC node; if it is unreachable the signature is not proven.
    console.warn("SIWE verification could not complete", err instanceof Error ? err.message.split("\n")[0] : String(err));
    valid = false;
  }
  if (!valid) return { ok: false, reason: "signature, domain or time does not match" };
  return { ok: true, address: parsed.address };
}
