// GET /api/config: the public settings the browser needs to link out and to pay: which Ethereum chain and
// Solana cluster this marketplace settles on, the platform address to pay on each, the depth a payment
// needs, and how long a reservation lasts. Nothing secret: the RPC URLs themselves (which may carry an API
// key) are never returned, only the cluster read from them and whether both are local.
import { Hono } from "hono";
import { type ChainConfigResponse, RESERVATION_MINUTES, type SolanaCluster } from "../../schema/purchases";
import { checkPaymentSettings, solanaCluster } from "../domain/payment-settings";
import type { AppEnv } from "../types";
import { localDevWallets } from "./dev-chains";

export type { ChainConfigResponse, SolanaCluster };
export { solanaCluster };

export const configRoutes = new Hono<AppEnv>().get("/", (c) => {
  const id = Number(c.env.ETH_CHAIN_ID);
  const ethChainId = Number.isSafeInteger(id) && id > 0 ? id : 0;
  const solCluster = solanaCluster(c.env.SOL_RPC_URL);
  // While the payment settings are unsafe there is nothing to pay: no address, no depth (the payment page
  // will not send money without them). Checked as written; the nodes are asked by the payment routes.
  const checked = checkPaymentSettings(c.env);
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
    localDevWallets: localDevWallets(c.env),
  } satisfies ChainConfigResponse);
});
