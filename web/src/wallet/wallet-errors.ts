// What the person sees when connecting fails, and
// the mobile fallbacks: open the site inside the wallet app, or its download page.
import type { Network } from "../../../schema/db";

export const WALLET_MESSAGES = {
  failed: "Failed to connect wallet",
  ethereumMissing: "Ethereum wallet extension not found. Please install the MetaMask extension (or another Ethereum wallet) and reload the page.",
  solanaMissing: "Solana wallet extension not found. Please install the Phantom extension (or another Solana wallet) and reload the page.",
  mobileUnavailable: "Mobile wallet connection unavailable. Please install a mobile wallet and try again.",
  iphoneGuidance: "On iPhone, wallets cannot connect from Safari: open this page in the MetaMask or Phantom app's built-in browser.",
  rejectedTitle: "Connection cancelled",
  rejected: "You closed the wallet request. Nothing was signed; connect again whenever you are ready.",
} as const;

export const connectorNotFound = (wanted: string, available: string[]) =>
  `Wallet connector "${wanted}" not found. Available: ${available.length ? available.join(", ") : "none"}.`;

/** A failure whose message is meant for the person as it is. */
export class WalletError extends Error {}

/** EIP-1193 4001 (and the Wallet Standard wallets that reuse it or say so): the person said no. */
export function isUserRejection(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (code === 4001 || code === "ACTION_REJECTED" || name === "UserRejectedRequestError") return true;
    if (typeof message === "string" && /user (rejected|denied|cancell?ed|declined)/i.test(message)) return true;
  }
  return false;
}

/** The text to show for a failure that is not a refusal. */
export function describeWalletError(err: unknown): string {
  if (err instanceof WalletError) return err.message;
  const server = (err as { serverMessage?: unknown })?.serverMessage;
  if (typeof server === "string" && server) return server;
  return WALLET_MESSAGES.failed;
}

// ---- mobile ------------------------------------------------------------------------------------------

export function isMobileBrowser(ua = typeof navigator === "undefined" ? "" : navigator.userAgent): boolean {
  return /Android|iPhone|iPad|iPod|Mobile/i.test(ua);
}

export function isIphone(ua = typeof navigator === "undefined" ? "" : navigator.userAgent): boolean {
  return /iPhone|iPad|iPod/i.test(ua);
}

export type WalletApp = { name: string; network: Network; deepLink: (href: string) => string; download: string };

export const WALLET_APPS: WalletApp[] = [
  {
    name: "MetaMask",
    network: "ethereum",
    deepLink: (href) => {
      const url = new URL(href);
      return `https://metamask.app.link/dapp/${url.host}${url.pathname}${url.search}`;
    },
    download: "https://metamask.io/download/",
  },
  {
    name: "Phantom",
    network: "solana",
    deepLink: (href) => `https://phantom.app/ul/browse/${encodeURIComponent(href)}?ref=${encodeURIComponent(new URL(href).origin)}`,
    download: "https://phantom.com/download",
  },
];

/** Sends the phone to the wallet app's own browser; if we are still here 2 s later, opens the download page. */
export function openInWalletApp(app: WalletApp) {
  window.location.href = app.deepLink(window.location.href);
  window.setTimeout(() => {
    if (document.visibilityState !== "visible") return;
    const opened = window.open(app.download, "_blank", "noopener");
    if (!opened) window.location.href = app.download;
  }, 2000);
}
