// The current Ethereum gas price for the fee preview and a reservation's gas estimate: every configured node is
// asked eth_gasPrice at once, and the price is the median of those that answer, so one lying node (or k-1 of them
// among 2k-1) cannot move it past an honest node's price (docs/payments.md#trust-no-single-node). The preview is
// asked again 800 ms after each keystroke, so a price is kept briefly in this isolate's memory, and a slow or dead
// node is given up on quickly: with no answer at all the caller uses the spec's fallback estimate.
import { createPublicClient, http } from "viem";
import type { NodeList } from "../deployment/deployment";

export const GAS_PRICE_TTL_MS = 15_000;
export const GAS_PRICE_TIMEOUT_MS = 2_000;

let cached: { url: string; wei: bigint; at: number } | null = null;

/** Forgets the cached price (tests). */
export function resetGasPriceCache() {
  cached = null;
}

/**
 * The median of `prices`; with an even count the lower of the two middle ones, so that with two answers a node
 * can only lower the estimate a buyer is charged, never raise it. Null for none.
 */
export function medianPrice(prices: bigint[]): bigint | null {
  if (prices.length === 0) return null;
  // The difference's sign, exact however large the prices (Number of a huge bigint is at worst an infinity).
  const sorted = [...prices].sort((a, b) => Number(a - b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** One node's gas price, or null when it fails, answers nonsense or takes longer than GAS_PRICE_TIMEOUT_MS. */
async function nodeGasPrice(url: string): Promise<bigint | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const client = createPublicClient({ transport: http(url, { timeout: GAS_PRICE_TIMEOUT_MS, retryCount: 0 }) });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${GAS_PRICE_TIMEOUT_MS} ms`)), GAS_PRICE_TIMEOUT_MS);
    });
    const wei = await Promise.race([client.getGasPrice(), timeout]);
    // Stryker disable next-line ConditionalExpression,LogicalOperator: viem reads the price from hex with BigInt, so never another type nor negative
    return typeof wei === "bigint" && wei >= 0n ? wei : null;
  } catch (err) {
    console.warn("gas price unavailable from a node:", err instanceof Error ? err.message.split("\n")[0] : String(err));
    return null;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** Wei per gas: the median of the nodes that answer in time, or null when none does. Never throws. */
export async function currentGasPrice(ethereum: NodeList, now = Date.now()): Promise<bigint | null> {
  const urls = ethereum.nodes.map((n) => n.url);
  const url = urls.join(",");
  if (cached && cached.url === url && now - cached.at < GAS_PRICE_TTL_MS) return cached.wei;
  const answers = await Promise.all(urls.map(nodeGasPrice));
  const wei = medianPrice(answers.filter((w): w is bigint => w !== null));
  if (wei === null) return null;
  cached = { url, wei, at: now };
  return wei;
}
