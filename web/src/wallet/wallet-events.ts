// Follows the connected wallet after sign-in: account and chain changes from an EIP-1193 provider, account
// changes from a Wallet Standard wallet. One subscription at a time.
import type { StandardEventsFeature } from "@wallet-standard/features";
import type { Wallet } from "@wallet-standard/base";
import type { Network } from "../../../schema/db";
import { accountChange } from "./account-change";
import { logout } from "./auth-api";
import type { Eip1193Provider } from "./evm-discovery";
import { clearStoredWallet, readStoredWallet, storeWallet } from "./storage";
import { setWalletState } from "./wallet-store";

let detach: (() => void) | null = null;

/** Applies the spec's transition for a new account list; true when the page is about to reload. */
export function applyAccounts(network: Network, accounts: readonly string[]): boolean {
  const stored = readStoredWallet();
  const change = accountChange(network, stored.address, accounts);
  if (change.action === "ignore") return false;
  detachWalletEvents();
  if (change.action === "clear") {
    clearStoredWallet();
  } else {
    // The session belongs to the previous account: the new one is remembered but must sign in itself.
    storeWallet({ address: change.address, network, type: stored.type }, false);
  }
  void logout().finally(() => window.location.reload());
  return true;
}

export function followEvmWallet(provider: Eip1193Provider) {
  detachWalletEvents();
  const onAccounts = (accounts: string[]) => applyAccounts("ethereum", Array.isArray(accounts) ? accounts : []);
  const onChain = (chainId: string) => {
    const id = Number.parseInt(String(chainId), 16);
    setWalletState({ chainId: Number.isFinite(id) ? id : null });
  };
  provider.on?.("accountsChanged", onAccounts as (...args: never[]) => void);
  provider.on?.("chainChanged", onChain as (...args: never[]) => void);
  detach = () => {
    provider.removeListener?.("accountsChanged", onAccounts as (...args: never[]) => void);
    provider.removeListener?.("chainChanged", onChain as (...args: never[]) => void);
  };
}

export function followSolanaWallet(wallet: Wallet) {
  detachWalletEvents();
  const events = (wallet.features as Partial<StandardEventsFeature>)["standard:events"];
  if (!events) return;
  const off = events.on("change", ({ accounts }) => {
    if (accounts)
      applyAccounts(
        "solana",
        accounts.map((a) => a.address),
      );
  });
  detach = off;
}

export function detachWalletEvents() {
  detach?.();
  detach = null;
}
