// Admins (docs/sign-in.md): wallets listed in ADMIN_WALLETS, compared case-insensitively for Ethereum and exactly
// for Solana, or users whose row has isAdmin set. A public dev wallet (its key is in every tutorial) is an admin
// only in a local deployment (the site and both nodes on this machine, deployment/local-mode.ts), whatever
// ADMIN_WALLETS or the users table say (docs/production-settings.md).
import { sameAddress } from "../../schema/address";
import type { Network } from "../../schema/db";
import { isLocalDeployment, type LocalModeText, type RequestHost } from "../deployment/local-mode";
import { isPublicDevWallet } from "../deployment/public-dev-accounts";

export type RoleEnv = Pick<Env, "ADMIN_WALLETS"> & LocalModeText;

function adminEntries(env: Pick<Env, "ADMIN_WALLETS">): string[] {
  return (env.ADMIN_WALLETS ?? "")
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean);
}

function listedAdmin(env: RoleEnv, network: Network, address: string): boolean {
  return adminEntries(env).some((entry) => sameAddress(network, entry, address));
}

/**
 * The admin role of a wallet: listed in ADMIN_WALLETS or marked in its user row, and not a public dev wallet
 * outside a local deployment. `host`: the host the request came to (null outside a request).
 */
export function isAdmin(env: RoleEnv, host: RequestHost, network: Network, address: string, userRowIsAdmin: boolean): boolean {
  if (isPublicDevWallet(address) && !isLocalDeployment(env, host)) return false;
  return userRowIsAdmin || listedAdmin(env, network, address);
}
