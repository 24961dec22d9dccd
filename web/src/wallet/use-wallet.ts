import { useCallback } from "react";
import { logout } from "./auth-api";
import { solanaWallets } from "./solana-discovery";
import { clearStoredWallet } from "./storage";
import { detachWalletEvents } from "./wallet-events";
import { replaceWalletState, useWalletState, type WalletState } from "./wallet-store";

/** The connected wallet (address, network, status, signed-in user) and a disconnect that ends the session. */
export function useWallet(): WalletState & { isConnected: boolean; disconnect: () => Promise<void> } {
  const state = useWalletState();
  const disconnect = useCallback(async () => {
    const { network, walletType } = state;
    detachWalletEvents();
    clearStoredWallet();
    replaceWalletState({ status: "idle", address: null, network: null, walletType: null, chainId: null, user: null, error: null });
    await logout();
    if (network === "solana") {
      const wallet = solanaWallets().find((w) => w.name === walletType);
      if (wallet) await (await import("./solana-connector")).disconnectSolanaWallet(wallet.wallet);
    }
  }, [state]);
  return { ...state, isConnected: state.status === "connected" && Boolean(state.address), disconnect };
}
