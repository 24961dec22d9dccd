// GET /api/config: the public settings the browser needs to link out and to pay: which Ethereum chain and
// Solana cluster this marketplace settles on, the platform address to pay on each, the depth a payment
// needs, and how long a reservation lasts. Nothing secret: the RPC URLs themselves (which may carry an API
// key) are never returned, only the cluster (SOL_CLUSTER) and whether this is a local deployment.
import { Hono } from "hono";
import type { ChainConfigResponse } from "../../schema/purchases";
import { RESERVATION_MINUTES } from "../../schema/reservation";
import { solanaCluster } from "../deployment/payment-rules";
import type { AppEnv } from "../types";

export { solanaCluster };

export const configRoutes = new Hono<AppEnv>().get("/", (c) => {
  const deployment = c.var.deployment;
  const ethChainId = deployment.ethereum.chainId ?? 0;
  // SOL_CLUSTER; while it is unreadable (payments are refused then) the RPC host's suggestion, for explorer links.
  const solCluster = deployment.solana.cluster ?? solanaCluster(deployment.solana.nodes[0]?.url ?? "");
  // While the payment settings are unsafe there is nothing to pay: no address, no depth (the payment page
  // will not send money without them). Checked as written; the nodes are asked by the payment routes.
  const checked = deployment.payments;
  c.header("Cache-Control", "public, max-age=300");
  return c.json({
    ethChainId,
    solCluster,
    ...(checked.ok
      ? {
          payments: {
            ethereum: { recipient: checked.settings.ethereum.recipient, chainId: ethChainId, confirmations: checked.settings.ethereum.confirmations },
            solana: { recipient: checked.settings.solana.recipient, cluster: solCluster, commitment: checked.settings.solana.commitment },
          },
        }
      : {}),
    reservationMinutes: RESERVATION_MINUTES,
    localDevWallets: deployment.local,
  } satisfies ChainConfigResponse);
});
