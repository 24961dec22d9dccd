// Sign-In with Ethereum (EIP-4361). The server writes the message for each nonce and accepts only that text,
// byte for byte; its fields are checked with viem, always passing domain, nonce, scheme and time, and the chain id
// is compared here because viem does not look at it. The signature must recover to the address here, in the
// Worker; only a wallet that may be a contract (never an admin, unless ADMIN_CONTRACT_WALLETS names it) is then
// asked of the nodes, by quorum (chain/contract-signature.ts, docs/sign-in.md#contract-wallets).
import { type Address, getAddress, type Hex, hashMessage, isAddressEqual, recoverMessageAddress } from "viem";
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from "viem/siwe";
import { contractSignatureByQuorum } from "../chain/contract-signature";
import type { DisagreementReport } from "../chain/quorum-verifier";
import type { SignInProof } from "../../schema/db";
import type { Deployment } from "../deployment/deployment";
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

export type SiweCheck = { ok: true; address: Address; proof: SignInProof } | { ok: false; reason: string };

/**
 * Uses the nonce up once one of `texts` is exactly the message issued with it; the refusal's reason otherwise
 * (sign-in.ts: not the issued text, or the nonce already used).
 */
export type NonceClaim = (texts: readonly string[]) => Promise<string | null>;

/** Why a wallet may not sign in by the nodes' word (an admin is a key: roles.ts), or null when it may. */
export type ContractProofRule = (address: Address) => Promise<string | null>;

/** What a SIWE check reads of the request's deployment: the chain sign-in is on, and its nodes and quorum. */
export type SiweChain = Pick<Deployment["ethereum"], "chainId" | "nodes" | "quorum">;

/** The refusal for a signature that recovers to nobody the message names and that the nodes did not vouch for. */
const BAD_SIGNATURE = "signature, domain or time does not match";

/** Whether `signature` over `message` recovers to `address`, here, with no node. */
async function recoversTo(message: string, signature: Hex, address: Address): Promise<boolean> {
  // Null: not a 65-byte ECDSA signature (an ERC-6492 wrapper, an ERC-8010 one, garbage): only a contract could vouch for it.
  const recovered = await recoverMessageAddress({ message, signature }).catch(() => null);
  return recovered !== null && isAddressEqual(recovered, address);
}

/**
 * Checks a strictly parsed SIWE message (sign-in-grammar.ts) whose nonce is ours and live: chain, site and
 * times first (each with its own reason), then `claim` (the text is byte for byte the message issued for the
 * nonce, which is then used up), then the signature: recovered here, or else, for a wallet `contractProof` allows,
 * vouched for by a quorum of the nodes (once per nonce); a node that contradicts the others goes to `report`.
 */
export async function checkSiwe(
  ethereum: SiweChain,
  site: SiteOrigin,
  p: {
    message: string;
    parsed: SignInMessage;
    claim: NonceClaim;
    signature: Hex;
    now: number;
    contractProof: ContractProofRule;
    report: DisagreementReport;
  },
): Promise<SiweCheck> {
  const { parsed } = p;
  const { chainId } = ethereum;
  // No chain id (ETH_CHAIN_ID unreadable): no message is issued either (sign-in.ts), so none can be for it.
  if (chainId === null) return { ok: false, reason: "this marketplace's ETH_CHAIN_ID is not a chain id, so no Ethereum sign-in is accepted" };
  if (Number(parsed.chainId) !== chainId) return { ok: false, reason: `message is for chain ${parsed.chainId}, this marketplace signs in on chain ${chainId}` };
  if (parsed.domain !== site.domain || (parsed.scheme ?? "https") !== site.scheme) return { ok: false, reason: "message is for another domain" };
  // Stryker disable next-line ConditionalExpression: uriIsOnSite refuses a missing URI too (it cannot be read); this is for the type
  if (parsed.uri === undefined || !uriIsOnSite(parsed.uri, site)) return { ok: false, reason: "message URI is for another site" };
  // viem checks expiry and not-before but never the issue time; SIWS refuses the same times (clock.ts).
  // No Issued At: NaN, an invalid date, which issuedAtIsAcceptable refuses.
  if (!issuedAtIsAcceptable(new Date(parsed.issuedAt ?? Number.NaN), p.now)) return { ok: false, reason: "message has no valid issue time" };
  const refused = await p.claim([p.message]);
  if (refused) return { ok: false, reason: refused };
  const fields = parseSiweMessage(p.message);
  const fieldsValid = validateSiweMessage({ message: fields, domain: site.domain, scheme: site.scheme, nonce: parsed.nonce, time: new Date(p.now) });
  if (!fieldsValid || !fields.address) return { ok: false, reason: BAD_SIGNATURE };
  const address = getAddress(fields.address);
  if (await recoversTo(p.message, p.signature, address)) return { ok: true, address, proof: "key" };
  const notAllowed = await p.contractProof(address);
  if (notAllowed) return { ok: false, reason: notAllowed };
  const nodes = { nodes: ethereum.nodes, quorum: ethereum.quorum, chainId };
  const verdict = await contractSignatureByQuorum(nodes, { address, hash: hashMessage(p.message), signature: p.signature }, p.report);
  if (verdict.valid) return { ok: true, address, proof: "contract" };
  if (verdict.dissenters.length > 0) return { ok: false, reason: "the nodes disagree about this contract wallet's signature; nothing was signed in" };
  if (verdict.vouched > 0)
    return {
      ok: false,
      reason: `only ${verdict.vouched} of the ${verdict.quorum} nodes needed vouched for this contract wallet's signature; try again shortly`,
    };
  return { ok: false, reason: BAD_SIGNATURE };
}
