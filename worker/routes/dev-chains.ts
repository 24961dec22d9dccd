// POST /api/dev-chains/{ethereum|solana}: a same-origin JSON-RPC relay for the local dev wallets
// (web/src/wallet/dev/). Those wallets live inside the page, whose CSP allows connections to its own origin
// only (a real extension talks to its own node instead). The relay exists only in a local deployment (the site
// and both nodes on this machine, deployment/local-mode.ts) — the same rule as /api/config's localDevWallets — and
// answers 404 otherwise; it forwards only the methods the dev wallets use, so a page cannot reach anvil's or the
// test RPC's control methods through it.
import { Hono } from "hono";
import * as v from "valibot";
import { isLocalDeployment, type LocalModeText, type RequestHost } from "../deployment/local-mode";
import { ApiError } from "../http/errors";
import { validate } from "../http/validate";
import type { AppEnv } from "../types";

/** True only in a local deployment: then the web app may offer the public dev accounts as wallets (the routes read it as c.var.deployment.local). */
export function localDevWallets(env: LocalModeText, host: RequestHost): boolean {
  return isLocalDeployment(env, host);
}

export const DEV_WALLET_METHODS = {
  ethereum: [
    "eth_chainId",
    "net_version",
    "eth_blockNumber",
    "eth_getBalance",
    "eth_getTransactionCount",
    "eth_estimateGas",
    "eth_gasPrice",
    "eth_maxPriorityFeePerGas",
    "eth_feeHistory",
    "eth_getBlockByNumber",
    "eth_call",
    "eth_sendRawTransaction",
    "eth_getTransactionReceipt",
    "eth_getTransactionByHash",
  ],
  solana: [
    "getLatestBlockhash",
    "isBlockhashValid",
    "sendTransaction",
    "simulateTransaction",
    "getSignatureStatuses",
    "getTransaction",
    "getBalance",
    "getAccountInfo",
    "getMinimumBalanceForRentExemption",
    "getFeeForMessage",
    "getSlot",
    "getBlockHeight",
    "getGenesisHash",
    "getVersion",
    "getHealth",
  ],
} as const;

const RpcRequest = v.object({
  jsonrpc: v.literal("2.0"),
  id: v.union([v.pipe(v.number(), v.integer()), v.pipe(v.string(), v.maxLength(64))]),
  method: v.pipe(v.string(), v.maxLength(64)),
  params: v.optional(v.pipe(v.array(v.unknown()), v.maxLength(8)), []),
});

const UPSTREAM_TIMEOUT_MS = 15_000;

export const devChainRoutes = new Hono<AppEnv>().post(
  "/:network",
  async (c, next) => {
    if (!c.var.deployment.local) throw new ApiError(404, `No API route for POST ${c.req.path}`);
    await next();
  },
  validate("param", v.object({ network: v.picklist(["ethereum", "solana"]) })),
  validate("json", RpcRequest),
  async (c) => {
    const { network } = c.req.valid("param");
    const request = c.req.valid("json");
    if (!(DEV_WALLET_METHODS[network] as readonly string[]).includes(request.method))
      throw new ApiError(400, `method: ${request.method} is not relayed to the local ${network} chain`);
    // Local only (a quorum of one): the chain's one node.
    const upstream = c.var.deployment[network].nodes[0]?.url ?? "";
    let res: Response;
    try {
      res = await fetch(upstream, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(request),
        signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      });
    } catch {
      throw new ApiError(502, `The local ${network} node did not answer`);
    }
    if (!res.ok) throw new ApiError(502, `The local ${network} node answered HTTP ${res.status}`);
    c.header("Cache-Control", "no-store");
    return c.body(await res.text(), 200, { "content-type": "application/json" });
  },
);
