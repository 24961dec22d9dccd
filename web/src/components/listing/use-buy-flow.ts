import { useNavigate } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { readStoredWallet } from "../../wallet/storage";
import { toast } from "../toast-store";

/** The card's pause before the buy flow starts, and the wait before a wallet-less buyer is sent to /profile. */
export const BUY_START_DELAY_MS = 500;
export const WALLET_REDIRECT_DELAY_MS = 2000;

export type BuyPhase = "idle" | "checking" | "redirecting";

/** Buying needs a connected wallet: walletAddress stored and isWalletConnected "true" (public-side.md §5). */
export const hasConnectedWallet = () => readStoredWallet().connected;

/**
 * The buy flow of a listing card (public-side.md §4, §5): a 500 ms pause, then the wallet check. Without a
 * wallet: the "Wallet Required" toast, "Redirecting to profile..." and /profile after 2 seconds. With one,
 * `onWalletReady` continues (the card opens the listing's page).
 */
export function useBuyFlow(onWalletReady: () => void) {
  const [phase, setPhase] = useState<BuyPhase>("idle");
  const navigate = useNavigate();
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((t) => window.clearTimeout(t)), []);
  const later = (ms: number, fn: () => void) => timers.current.push(window.setTimeout(fn, ms));

  const start = () => {
    if (phase !== "idle") return;
    setPhase("checking");
    later(BUY_START_DELAY_MS, () => {
      if (!hasConnectedWallet()) {
        toast({ title: "Wallet Required", description: "Please connect your wallet to purchase this address." });
        setPhase("redirecting");
        later(WALLET_REDIRECT_DELAY_MS, () => void navigate({ to: "/profile" }));
        return;
      }
      setPhase("idle");
      onWalletReady();
    });
  };

  return { phase, start };
}
