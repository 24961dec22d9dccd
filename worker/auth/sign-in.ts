// Signing in by wallet signature (docs/sign-in.md), as services: the nonce and the message to sign, checking a signed
// message (the nonce used up first, then the signature), the session's answer, and who is an admin. The routes
// (routes/auth.ts, routes/users.ts) only validate, set the cookie and answer. The site, the chain, its nodes and the
// admin lists are the request's deployment (c.var.deployment); `env` gives only the secret and the database.
import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import { detectAddressType, validateAddress } from "../../schema/address";
import type { AdminStatusResponse, NonceRequest, NonceResponse, SessionResponse, VerifyRequest } from "../../schema/auth";
import { type SignInProof, users } from "../../schema/db";
import type { Db } from "../db/database";
import type { Deployment } from "../deployment/deployment";
import { normalizeWallet } from "../domain/users";
import { ApiError } from "../http/errors";
import { enforceLimits, isReturningWallet, rateWindowMs } from "../http/rate-limit";
import type { AuthSession } from "./middleware";
import { type IssuedNonce, isIssued, issueNonce, RETURNING_SIGN_IN_LIMIT, readNonce, spendNonce } from "./nonce";
import { recordDisagreements } from "../operations/node-disagreements";
import { type AdminRules, contractProofRefusal, isAdmin } from "./roles";
import { parseSiwe, parseSiws } from "./sign-in-grammar";
import { buildSiweMessage, checkSiwe, NOT_ISSUED } from "./siwe";
import { buildSiwsMessage, checkSiws, signInFields } from "./siws";
import { type SiteOrigin, siteOf } from "./site";

const refuse = (reason: string) => new ApiError(401, `Sign-in failed: ${reason}`);
const NONCE_REFUSED = "the nonce is unknown, used or expired; request a new one";
const NODES_NOT_TRUSTED =
  "this signature does not recover to the address, and this deployment's settings fail the payment rules (GET /api/health lists why; on mainnet at least two nodes on different hosts and a quorum of 2), so no node's word about a contract wallet counts: sign with the wallet's own key";

/** SESSION_SECRET, which keys the nonces; the routes refuse with 503 before this when it is missing (deployment/secrets.ts). */
function nonceSecret(env: Env): string {
  if (!env.SESSION_SECRET) throw new ApiError(503, "Sign-in is not available: SESSION_SECRET is not set");
  return env.SESSION_SECRET;
}

export async function sessionResponse(db: Db, session: AuthSession): Promise<SessionResponse> {
  const user = await db.select().from(users).where(eq(users.id, session.userId)).get();
  if (!user) return { authenticated: false };
  return {
    authenticated: true,
    user: {
      id: user.id,
      username: user.username,
      walletAddress: user.walletAddress,
      network: user.network,
      isAdmin: session.isAdmin,
      createdAt: new Date(user.createdAt).toISOString(),
    },
    expiresAt: new Date(session.expiresAt).toISOString(),
  };
}

/** The chain Ethereum sign-in is on; a 503 that names the setting while ETH_CHAIN_ID is not a chain id. */
function signInChainId(deployment: Deployment): number {
  const { chainId } = deployment.ethereum;
  if (chainId === null) {
    console.error("refusing Sign-In with Ethereum: ETH_CHAIN_ID is not a chain id");
    throw new ApiError(503, "Sign-In with Ethereum is disabled: the server's ETH_CHAIN_ID setting is not a chain id (a whole number such as 1).");
  }
  return chainId;
}

/**
 * What /nonce answers, and the text it issues (whose hash the nonce's HMAC covers): the SIWE message; the SIWS
 * message when the address is known; otherwise the `solana:signIn` input, and as issued text that message with
 * the address line left for the wallet to fill in.
 */
function writeSignIn(site: SiteOrigin, deployment: Deployment, body: NonceRequest, n: IssuedNonce): { answer: NonceResponse; issuedText: string } {
  const { nonce, issuedAt, expiresAt } = n;
  const answer: NonceResponse = { nonce, expiresAt: new Date(expiresAt).toISOString() };
  if (body.network === "ethereum") {
    answer.message = buildSiweMessage(site, { address: body.address, chainId: signInChainId(deployment), nonce, issuedAt, expiresAt });
    return { answer, issuedText: answer.message };
  }
  const fields = signInFields(site, { address: body.address, nonce, issuedAt, expiresAt });
  answer.signInInput = fields;
  if (body.address) answer.message = buildSiwsMessage({ ...fields, address: body.address });
  return { answer, issuedText: answer.message ?? buildSiwsMessage({ ...fields, address: "" }) };
}

/** A fresh nonce and what to sign with it. Stores nothing (nonce.ts): however many are asked for, none waits in a table. */
export async function startSignIn(env: Env, deployment: Deployment, body: NonceRequest, now = Date.now()): Promise<NonceResponse> {
  if (body.address !== undefined) {
    const checked = validateAddress(body.address, body.network);
    if (!checked.isValid) throw new ApiError(400, `address: ${checked.message}`);
  }
  const site = siteOf(deployment);
  const issued = await issueNonce(nonceSecret(env), now, (nonce) => writeSignIn(site, deployment, body, nonce));
  return issued.answer;
}

/**
 * The wallet that signed the message and how it proved itself; 401 otherwise. The nonce must be one of ours and live;
 * the message's fields are checked (siwe.ts, siws.ts), then `claim`: the text must be exactly the message issued with
 * the nonce, and the nonce is used up, both before any signature work. A SIWE signature that does not recover to the
 * address is asked of the nodes by quorum, and only for a wallet that is not an admin (roles.ts contractProofRefusal).
 */
export async function verifySignIn(
  db: Db,
  env: Env,
  deployment: Deployment,
  body: VerifyRequest,
  now: number,
  networkFull: ApiError | null = null,
): Promise<{ address: string; proof: SignInProof }> {
  const site = siteOf(deployment);
  const secret = nonceSecret(env);
  const parsed = body.network === "ethereum" ? parseSiwe(body.message) : parseSiws(body.message);
  if (!parsed) throw refuse(`not a Sign-In with ${body.network === "ethereum" ? "Ethereum (EIP-4361)" : "Solana"} message`);
  if (!parsed.nonce) throw refuse("message carries no nonce");
  const nonce = readNonce(parsed.nonce, now);
  if (!nonce) throw refuse(NONCE_REFUSED);
  // Past the client network's limit only a returning buyer's wallet goes on (docs/sign-in.md#returning-buyers), and
  // only with its own key: the nonce is used up after the signature is proven, not before, so whoever lacks the key
  // stores nothing and spends none of the wallet's allowance, and no node is asked about a contract signature.
  if (networkFull && !(parsed.address && (await isReturningWallet(db, body.network, parsed.address)))) throw networkFull;
  const claim = async (texts: readonly string[]) => {
    if (!(await isIssued(secret, nonce, texts))) return NOT_ISSUED;
    if (networkFull) return null;
    return (await spendNonce(env.DB, nonce, now)) ? null : NONCE_REFUSED;
  };
  const proven = async (address: string) => {
    if (!networkFull) return;
    await enforceLimits(
      env.DB,
      [
        {
          key: `auth-verify:wallet:${body.network}:${normalizeWallet(body.network, address)}`,
          limit: RETURNING_SIGN_IN_LIMIT.limit,
          refusal: `Too many sign-ins: at most ${RETURNING_SIGN_IN_LIMIT.limit} a minute for one wallet while its network is at its limit.`,
        },
      ],
      rateWindowMs(env, RETURNING_SIGN_IN_LIMIT.windowMs),
      now,
    );
    if (!(await spendNonce(env.DB, nonce, now))) throw refuse(NONCE_REFUSED);
  };
  if (body.network === "ethereum") {
    const contractProof = async (address: string) => {
      if (networkFull) return "your network is at its sign-in limit; past it a wallet signs in with its own key only";
      // The nodes' word counts only where the payment rules accept how many of them must agree: on a deployment they
      // refuse (mainnet cut down to one node, say), one node would decide who anyone is, and a buyer's keys with it.
      if (!deployment.payments.ok) return NODES_NOT_TRUSTED;
      const row = await db
        .select({ isAdmin: users.isAdmin })
        .from(users)
        .where(eq(users.walletAddress, normalizeWallet("ethereum", address)))
        .get();
      return contractProofRefusal(deployment, "ethereum", address, row?.isAdmin === true);
    };
    const report = recordDisagreements(db);
    const checked = await checkSiwe(deployment.ethereum, site, {
      message: body.message,
      parsed,
      claim,
      signature: body.signature as Hex,
      now,
      contractProof,
      report,
    });
    if (!checked.ok) throw refuse(checked.reason);
    await proven(checked.address);
    return { address: checked.address, proof: checked.proof };
  }
  const checked = await checkSiws(site, {
    text: body.message,
    parsed,
    claim,
    signature: body.signature,
    claimedAddress: body.address,
    now,
  });
  if (!checked.ok) throw refuse(checked.reason);
  if (detectAddressType(checked.address) !== "solana") throw refuse("not a Solana address");
  await proven(checked.address);
  // Ed25519, checked here: Solana has no contract wallets that sign messages.
  return { address: checked.address, proof: "key" };
}

/** GET /api/users/admin-status: whether a wallet is an admin and has signed in before. 400 for no wallet address. */
export async function adminStatus(db: Db, rules: AdminRules, walletAddress: string): Promise<AdminStatusResponse> {
  const network = detectAddressType(walletAddress);
  if (network === "unknown") throw new ApiError(400, "walletAddress: not an Ethereum or Solana address");
  const user = await db
    .select({ isAdmin: users.isAdmin })
    .from(users)
    .where(eq(users.walletAddress, normalizeWallet(network, walletAddress)))
    .get();
  return { isAdmin: isAdmin(rules, network, walletAddress, user?.isAdmin === true), userExists: user !== undefined };
}
