// Admins (docs/sign-in.md): wallets listed in ADMIN_WALLETS, compared case-insensitively for Ethereum and exactly
// for Solana, or users whose row has isAdmin set. A public dev wallet (its key is in every tutorial) is an admin
// only in a local deployment (the site and both nodes on this machine, deployment/local-mode.ts), whatever
// ADMIN_WALLETS or the users table say (docs/production-settings.md). An admin is a key: a session whose wallet proved
// itself only through the nodes' word for a contract wallet (siwe.ts) is never an admin's, unless
// ADMIN_CONTRACT_WALLETS names that wallet (docs/sign-in.md#contract-wallets).
import { sameAddress } from "../../schema/address";
import type { Network, SignInProof } from "../../schema/db";
import { isLocalDeployment, type LocalModeText, type RequestHost } from "../deployment/local-mode";
import { isPublicDevWallet } from "../deployment/public-dev-accounts";

export type RoleEnv = Pick<Env, "ADMIN_WALLETS" | "ADMIN_CONTRACT_WALLETS"> & LocalModeText;

function entries(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean);
}

function listedAdmin(env: RoleEnv, network: Network, address: string): boolean {
  return entries(env.ADMIN_WALLETS).some((entry) => sameAddress(network, entry, address));
}

/** A wallet ADMIN_CONTRACT_WALLETS names: an operator's explicit word that this admin is a contract wallet. */
export function namedContractAdmin(env: RoleEnv, network: Network, address: string): boolean {
  return network === "ethereum" && entries(env.ADMIN_CONTRACT_WALLETS).some((entry) => sameAddress(network, entry, address));
}

/**
 * Why `address` may not sign in on the nodes' word for a contract wallet, or null when it may: an admin (listed, or
 * marked in its user row) proves itself with its own key unless ADMIN_CONTRACT_WALLETS names it.
 */
export function contractProofRefusal(env: RoleEnv, network: Network, address: string, userRowIsAdmin: boolean): string | null {
  if (!(userRowIsAdmin || listedAdmin(env, network, address)) || namedContractAdmin(env, network, address)) return null;
  return "this wallet is an admin, and an admin signs in only with a signature its own key makes (this one does not recover to the address); an operator who means a contract wallet to be an admin names it in ADMIN_CONTRACT_WALLETS";
}

/**
 * The admin role of a wallet: listed in ADMIN_WALLETS or marked in its user row, and not a public dev wallet
 * outside a local deployment. `host`: the host the request came to (null outside a request).
 */
export function isAdmin(env: RoleEnv, host: RequestHost, network: Network, address: string, userRowIsAdmin: boolean): boolean {
  if (isPublicDevWallet(address) && !isLocalDeployment(env, host)) return false;
  return userRowIsAdmin || listedAdmin(env, network, address);
}

/** The admin role of a session: its wallet's (isAdmin), and a key's proof unless ADMIN_CONTRACT_WALLETS names the wallet. */
export function sessionIsAdmin(
  env: RoleEnv,
  host: RequestHost,
  s: { network: Network; walletAddress: string; userRowIsAdmin: boolean; proof: SignInProof },
): boolean {
  if (s.proof !== "key" && !namedContractAdmin(env, s.network, s.walletAddress)) return false;
  return isAdmin(env, host, s.network, s.walletAddress, s.userRowIsAdmin);
}
