// The one rule for "the same wallet", apart from schema/address.ts so that the browser's start (wallet storage, the
// account-change rule) takes it without address.ts's checksum and curve code (viem, @noble), which its bundle
// would otherwise carry (npm run check's home-route budget).
import type { Network } from "./db/columns";

/**
 * Whether two texts name the same wallet or address on `network`: Ethereum's are one account in any letter case
 * (EIP-55 capitals are only a checksum), Solana's base58 is case-sensitive. Decides who is the buyer, whether a
 * wallet is an admin and whose transfer a payment is: every comparison of two addresses goes through here.
 */
export function sameAddress(network: Network, a: string, b: string): boolean {
  return network === "ethereum" ? a.toLowerCase() === b.toLowerCase() : a === b;
}
