// Identity of a wallet in the database: Ethereum addresses are compared case-insensitively, so they are
// stored lower-case; Solana base58 is case-sensitive and stored exactly.
import type { Network } from "../../schema/db";

export function normalizeWallet(network: Network, address: string): string {
  return network === "ethereum" ? address.toLowerCase() : address;
}

/** A readable, unique username derived from the wallet: "eth_0xf39f…2266" style, with the full address kept elsewhere. */
export function deriveUsername(network: Network, address: string): string {
  const a = normalizeWallet(network, address);
  return `${network === "ethereum" ? "eth" : "sol"}_${a.slice(0, network === "ethereum" ? 8 : 6)}${a.slice(-6)}`;
}
