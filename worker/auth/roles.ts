// Admins (DESIGN §4): wallets listed in ADMIN_WALLETS, compared case-insensitively for Ethereum and exactly
// for Solana, or users whose row has isAdmin set.
import type { Network } from "../../schema/db";

function adminEntries(env: Pick<Env, "ADMIN_WALLETS">): string[] {
  return (env.ADMIN_WALLETS ?? "")
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean);
}

export function isAdminWallet(env: Pick<Env, "ADMIN_WALLETS">, network: Network, address: string): boolean {
  return adminEntries(env).some((entry) =>
    network === "ethereum" ? entry.toLowerCase() === address.toLowerCase() : !entry.startsWith("0x") && entry === address,
  );
}
