// One home for what each network is called and paid in, for the Worker, the web and the scripts: "Ethereum" / ETH,
// "Solana" / SOL. Code asks currencyOf(network) and networkName(network) instead of writing the pair out again. A
// coin's smallest unit (wei, lamports: decimals and name) is in schema/money.ts, its explorer in schema/explorer.ts.
import type { Network } from "./db/columns";

const FACTS = {
  ethereum: { name: "Ethereum", currency: "ETH" },
  solana: { name: "Solana", currency: "SOL" },
} as const satisfies Record<Network, { name: string; currency: string }>;

/** "ETH" for Ethereum, "SOL" for Solana: the currency every price and payment on that network is in. */
export const currencyOf = <N extends Network>(network: N): (typeof FACTS)[N]["currency"] => FACTS[network].currency;

/** "Ethereum", "Solana": the network's name in a sentence or a label. */
export const networkName = (network: Network): (typeof FACTS)[Network]["name"] => FACTS[network].name;
