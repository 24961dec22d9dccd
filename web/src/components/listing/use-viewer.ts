import { getWalletState } from "../../wallet/wallet-store";
import { useWallet } from "../../wallet/use-wallet";

/** The connected wallet whose session decides `isOwner` on listings, or null; part of every listing read's key. */
export function useViewer(): string | null {
  const wallet = useWallet();
  return wallet.isConnected ? wallet.address : null;
}

/** The same outside React (route loaders). */
export function currentViewer(): string | null {
  const state = getWalletState();
  return state.status === "connected" && state.address ? state.address : null;
}
