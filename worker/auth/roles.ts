// Admins (docs/sign-in.md): wallets listed in ADMIN_WALLETS, compared case-insensitively for Ethereum and exactly
// for Solana, or users whose row has isAdmin set. A public dev wallet (its key is in every tutorial) is an admin
// only in a local deployment (the site and both nodes on this machine, deployment/local-mode.ts), whatever
// ADMIN_WALLETS or the users table say (docs/production-settings.md). An admin is a key: a session whose wallet proved
// itself only through the nodes' word for a contract wallet (siwe.ts) is never an admin's, unless
// ADMIN_CONTRACT_WALLETS names that wallet (docs/sign-in.md#contract-wallets). Both lists and local mode are read from
// the deployment the request was given (deployment/deployment.ts), never parsed again here.
import { sameAddress } from "../../schema/address";
import type { Network, SignInProof } from "../../schema/db";
import type { Deployment } from "../deployment/deployment";
import { isPublicDevWallet } from "../deployment/public-dev-accounts";

/** What the admin role is decided from: the admin lists, and whether the deployment is local (for this request). */
export type AdminRules = Pick<Deployment, "admins" | "local">;

function listedAdmin(rules: AdminRules, network: Network, address: string): boolean {
  return rules.admins.wallets.some((entry) => sameAddress(network, entry, address));
}

/** A wallet ADMIN_CONTRACT_WALLETS names: an operator's explicit word that this admin is a contract wallet. */
export function namedContractAdmin(rules: AdminRules, network: Network, address: string): boolean {
  return network === "ethereum" && rules.admins.contractWallets.some((entry) => sameAddress(network, entry, address));
}

/**
 * Why `address` may not sign in on the nodes' word for a contract wallet, or null when it may: an admin (listed, or
 * marked in its user row) proves itself with its own key unless ADMIN_CONTRACT_WALLETS names it.
 */
export function contractProofRefusal(rules: AdminRules, network: Network, address: string, userRowIsAdmin: boolean): string | null {
  if (!(userRowIsAdmin || listedAdmin(rules, network, address)) || namedContractAdmin(rules, network, address)) return null;
  return "this wallet is an admin, and an admin signs in only with a signature its own key makes (this one does not recover to the address); an operator who means a contract wallet to be an admin names it in ADMIN_CONTRACT_WALLETS";
}

/**
 * The admin role of a wallet: listed in ADMIN_WALLETS or marked in its user row, and not a public dev wallet
 * outside a local deployment (`rules.local`: for the host the request came to; in the cron job, SITE_ORIGIN's).
 */
export function isAdmin(rules: AdminRules, network: Network, address: string, userRowIsAdmin: boolean): boolean {
  if (isPublicDevWallet(address) && !rules.local) return false;
  return userRowIsAdmin || listedAdmin(rules, network, address);
}

/** The admin role of a session: its wallet's (isAdmin), and a key's proof unless ADMIN_CONTRACT_WALLETS names the wallet. */
export function sessionIsAdmin(rules: AdminRules, s: { network: Network; walletAddress: string; userRowIsAdmin: boolean; proof: SignInProof }): boolean {
  if (s.proof !== "key" && !namedContractAdmin(rules, s.network, s.walletAddress)) return false;
  return isAdmin(rules, s.network, s.walletAddress, s.userRowIsAdmin);
}
