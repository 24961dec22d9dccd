// The current Ethereum gas price for the fee preview (eth_gasPrice through the one Ethereum client). The
// preview is asked again 800 ms after each keystroke, so a price is kept briefly in this isolate's memory,
// and a slow or dead node gives up quickly: the caller then uses the spec's fallback estimate.
import { type RpcNodesText, rpcUrls } from "../deployment/rpc-nodes";
import { ethereumClient } from "./ethereum";

export const GAS_PRICE_TTL_MS = 15_000;
export const GAS_PRICE_TIMEOUT_MS = 2_000;

let cached: { url: string; wei: bigint; at: number } | null = null;

/** Forgets the cached price (tests). */
export function resetGasPriceCache() {
  cached = null;
}

/** Wei per gas, or null when the node does not answer in time. Never throws. */
export async function currentGasPrice(env: Pick<Env, "ETH_CHAIN_ID"> & RpcNodesText, now = Date.now()): Promise<bigint | null> {
  const url = rpcUrls(env, "ethereum").join(",");
  if (cached && cached.url === url && now - cached.at < GAS_PRICE_TTL_MS) return cached.wei;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${GAS_PRICE_TIMEOUT_MS} ms`)), GAS_PRICE_TIMEOUT_MS);
    });
    const wei = await Promise.race([ethereumClient(env).getGasPrice(), timeout]);
    if (typeof wei !== "bigint" || wei < 0n) return null;
    cached = { url, wei, at: now };
    return wei;
  } catch (err) {
    console.warn("gas price unavailable:", err instanceof Error ? err.message.split("\n")[0] : String(err));
    return null;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
