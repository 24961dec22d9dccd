// EIP-6963 wallet discovery, through mipd's store. Started once when the app boots and kept listening for the
// page's whole life, because extensions announce themselves whenever they finish loading. Wallets are told
// apart by the uuid of their announcement (repeats are ignored). window.ethereum is used only when nothing
// announced itself.
import { createStore, type EIP6963ProviderDetail, type Store } from "mipd";
import { useSyncExternalStore } from "react";

export type Eip1193Provider = {
  request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown>;
  on?(event: string, listener: (...args: never[]) => void): void;
  removeListener?(event: string, listener: (...args: never[]) => void): void;
};

export type EvmWallet = {
  kind: "evm";
  /** The announcement's uuid (or "injected"): unique within this page load. */
  uuid: string;
  /** Reverse-DNS id, stable across visits ("io.metamask"); stored as walletType. */
  rdns: string;
  name: string;
  /** A data: URI, rendered only as an <img> source. */
  icon: string | null;
  provider: Eip1193Provider;
};

// The EIP-6963 store is mipd's (from viem's authors): it sends the request event, listens for announcements for
// the page's whole life and ignores repeated uuids. Anything may announce, an extension or the local demo's dev
// wallets (wallet/dev), through the same standard event; this module only vets what is shown.
let store: Store | null = null;
// Snapshots handed to useSyncExternalStore must keep their identity until something changes.
const NONE: EvmWallet[] = [];
let announced: EvmWallet[] = NONE;
let fallback: { source: unknown; wallets: EvmWallet[] } | null = null;
const listeners = new Set<() => void>();

const isProvider = (p: unknown): p is Eip1193Provider => typeof p === "object" && p !== null && typeof (p as Eip1193Provider).request === "function";
const text = (v: unknown, max: number) => (typeof v === "string" ? v.trim().slice(0, max) : "");
/** Icons must be images carried inline; anything else (a remote URL, javascript:) is dropped. */
const safeIcon = (v: unknown) => (typeof v === "string" && /^data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]/i.test(v) ? v : null);

/** An announcement as the app shows it, or null when it is not a usable wallet. */
export function toWallet(detail: EIP6963ProviderDetail): EvmWallet | null {
  const uuid = text(detail?.info?.uuid, 100);
  if (!uuid || !isProvider(detail?.provider)) return null;
  return {
    kind: "evm",
    uuid,
    rdns: text(detail.info.rdns, 100) || uuid,
    name: text(detail.info.name, 60) || "Ethereum wallet",
    icon: safeIcon(detail.info.icon),
    provider: detail.provider as Eip1193Provider,
  };
}

export function startEvmDiscovery() {
  if (store || typeof window === "undefined") return;
  store = createStore();
  store.subscribe(
    (details) => {
      announced = details.map(toWallet).filter((w): w is EvmWallet => w !== null);
      if (announced.length === 0) announced = NONE;
      listeners.forEach((l) => l());
    },
    { emitImmediately: true },
  );
}

/** Announced wallets, or the legacy injected provider when none announced. */
export function evmWallets(): EvmWallet[] {
  if (announced.length > 0) return announced;
  const injected = typeof window === "undefined" ? undefined : (window as { ethereum?: unknown }).ethereum;
  if (!isProvider(injected)) return NONE;
  if (fallback?.source !== injected) {
    const named = injected as { isMetaMask?: boolean; isPhantom?: boolean };
    const name = named.isMetaMask ? "MetaMask" : named.isPhantom ? "Phantom" : "Browser wallet";
    fallback = { source: injected, wallets: [{ kind: "evm", uuid: "injected", rdns: "injected", name, icon: null, provider: injected }] };
  }
  return fallback.wallets;
}

export function subscribeEvmWallets(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The EVM wallets present now, re-rendering when another one announces itself. */
export function useEvmWallets(): EvmWallet[] {
  return useSyncExternalStore(subscribeEvmWallets, evmWallets, () => NONE);
}
