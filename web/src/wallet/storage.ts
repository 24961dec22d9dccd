// The wallet state the browser keeps between visits, under the spec's keys. `isWalletConnected` is "true"
// only while the server holds a live session for `walletAddress` (checked on every load).
import { sameAddress } from "../../../schema/same-address";
import type { Network } from "../../../schema/db";

export const WALLET_STORAGE_KEYS = {
  address: "walletAddress",
  network: "walletNetwork",
  type: "walletType",
  connected: "isWalletConnected",
} as const;

export type StoredWallet = { address: string | null; network: Network | null; type: string | null; connected: boolean };

function get(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function set(key: string, value: string) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* storage disabled: the session cookie still works for this page */
  }
}

export function readStoredWallet(): StoredWallet {
  const network = get(WALLET_STORAGE_KEYS.network);
  const address = get(WALLET_STORAGE_KEYS.address);
  return {
    address: address || null,
    network: network === "ethereum" || network === "solana" ? network : null,
    type: get(WALLET_STORAGE_KEYS.type) || null,
    connected: get(WALLET_STORAGE_KEYS.connected) === "true" && Boolean(address),
  };
}

export function storeWallet(wallet: { address: string; network: Network; type: string | null }, connected: boolean) {
  set(WALLET_STORAGE_KEYS.address, wallet.address);
  set(WALLET_STORAGE_KEYS.network, wallet.network);
  set(WALLET_STORAGE_KEYS.type, wallet.type ?? "");
  set(WALLET_STORAGE_KEYS.connected, String(connected));
}

export function storeConnected(connected: boolean) {
  set(WALLET_STORAGE_KEYS.connected, String(connected));
}

export function clearStoredWallet() {
  try {
    for (const key of Object.values(WALLET_STORAGE_KEYS)) localStorage.removeItem(key);
  } catch {
    /* nothing stored */
  }
}

/** sameAddress for what the browser stored: nothing stored is no wallet, and an unknown network compares as Ethereum. */
export function sameWallet(network: Network | null, a: string | null, b: string | null): boolean {
  if (!a || !b) return false;
  return sameAddress(network ?? "ethereum", a, b);
}
