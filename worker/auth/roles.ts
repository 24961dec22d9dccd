// Admins (DESIGN §4): wallets listed in ADMIN_WALLETS, compared case-insensitively for Ethereum and exactly
// for Solana, or users whose row has isAdmin set. A public dev wallet (its key is in every tutorial) is an admin
// only while both chains are local, whatever ADMIN_WALLETS or the users table say (issue 26 §8).
import type { Network } from "../../schema/db";
import { bothChainsLocal, isPublicDevWallet } from "../domain/payment-settings";

type RoleEnv = Pick<Env, "ADMIN_WALLETS" | "ETH_RPC_URL" | "ETH_CHAIN_ID" | "SOL_RPC_URL">;

function adminEntries(env: Pick<Env, "ADMIN_WALLETS">): string[] {
  return (env.ADMIN_WALLETS ?? "")
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean);
}

function listedAdmin(env: RoleEnv, network: Network, address: string): boolean {
  return adminEntries(env).some((entry) =>
    network === "ethereum" ? entry.toLowerCase() === address.toLowerCase() : !entry.startsWith("0x") && entry === address,
  );
}

/** The admin role of a wallet: listed in ADMIN_WALLETS or marked in its user row, and not a public dev wallet off the local chains. */
export function isAdmin(env: RoleEnv, network: Network, address: string, userRowIsAdmin: boolean): boolean {
  if (isPublicDevWallet(address) && !bothChainsLocal(env)) return false;
  return userRowIsAdmin || listedAdmin(env, network, address);
}
