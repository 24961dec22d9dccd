// The connected wallet, held outside React so event handlers from wallets and the hooks share one truth.
// It starts from localStorage (so a reload shows the wallet at once) and is confirmed against the server's
// session by useWalletSession.
import { useSyncExternalStore } from "react";
import type { SessionUser } from "../../../schema/auth";
import type { Network } from "../../../schema/db";
import { readStoredWallet } from "./storage";

export type WalletStatus = "idle" | "connecting" | "connected" | "error";

export type WalletState = {
  status: WalletStatus;
  address: string | null;
  network: Network | null;
  /** Which wallet: an EIP-6963 rdns ("io.metamask"), "injected" for window.ethereum, or a Wallet Standard name. */
  walletType: string | null;
  chainId: number | null;
  /** The signed-in user as the server knows it (creation date for "Member since"). */
  user: SessionUser | null;
  error: string | null;
};

function initialState(): WalletState {
  const stored = typeof window === "undefined" ? null : readStoredWallet();
  return {
    status: stored?.connected ? "connected" : "idle",
    address: stored?.address ?? null,
    network: stored?.network ?? null,
    walletType: stored?.type ?? null,
    chainId: null,
    user: null,
    error: null,
  };
}

let state: WalletState = initialState();
/** Bumped by every sign-in and disconnect, so a session check that started earlier cannot overwrite them. */
let generation = 0;
const listeners = new Set<() => void>();

export function getWalletState(): WalletState {
  return state;
}

export function walletGeneration(): number {
  return generation;
}

/** A change made by the person (sign-in, disconnect): supersedes any check still in flight. */
export function replaceWalletState(patch: Partial<WalletState>) {
  generation++;
  setWalletState(patch);
}

export function setWalletState(patch: Partial<WalletState>) {
  state = { ...state, ...patch };
  listeners.forEach((l) => l());
}

export function useWalletState(): WalletState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
    () => state,
  );
}
