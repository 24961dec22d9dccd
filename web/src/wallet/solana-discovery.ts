// Solana wallets through the Wallet Standard. @wallet-standard/app is loaded on demand (it is not needed to
// draw the home page); getWallets() picks up the wallets registered so far and we listen for later ones.
import type { Wallet } from "@wallet-standard/base";
import { useSyncExternalStore } from "react";

export type SolanaWallet = { kind: "solana"; name: string; icon: string | null; wallet: Wallet };

const NONE: SolanaWallet[] = [];
let wallets: SolanaWallet[] = NONE;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

const safeIcon = (v: unknown) => (typeof v === "string" && /^data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]/i.test(v) ? v : null);

/** A wallet we can sign in with: a Solana chain, standard:connect, and signIn or signMessage. */
function canSignIn(w: Wallet): boolean {
  const features = Object.keys(w.features);
  return (
    w.chains.some((c) => c.startsWith("solana:")) &&
    features.includes("standard:connect") &&
    (features.includes("solana:signIn") || features.includes("solana:signMessage"))
  );
}

export function loadSolanaWallets(): Promise<void> {
  if (typeof window === "undefined") return Promise.resolve();
  loading ??= import("@wallet-standard/app").then(({ getWallets }) => {
    const api = getWallets();
    const refresh = () => {
      const seen = new Set<string>();
      wallets = api
        .get()
        .filter(canSignIn)
        .filter((w) => !seen.has(w.name) && Boolean(seen.add(w.name)))
        .map((w) => ({ kind: "solana" as const, name: w.name.slice(0, 60), icon: safeIcon(w.icon), wallet: w }));
      listeners.forEach((l) => l());
    };
    api.on("register", refresh);
    api.on("unregister", refresh);
    refresh();
  });
  return loading;
}

export function solanaWallets(): SolanaWallet[] {
  return wallets;
}

/** The Solana wallets present now, re-rendering when one registers later. */
export function useSolanaWallets(): SolanaWallet[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => wallets,
    () => NONE,
  );
}
