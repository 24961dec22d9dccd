import { useEffect } from "react";
import { fetchSession, logout } from "./auth-api";
import { evmWallets } from "./evm-discovery";
import { loadSolanaWallets, solanaWallets } from "./solana-discovery";
import { readStoredWallet, sameWallet, storeConnected, storeWallet } from "./storage";
import { applyAccounts, followEvmWallet, followSolanaWallet } from "./wallet-events";
import { getWalletState, setWalletState, walletGeneration } from "./wallet-store";

/** How long after load the wallet is looked for again (extensions inject themselves after the page). */
export const RECONNECT_DELAY_MS = 500;

let started = false;

/**
 * Once per page: asks the server whether the stored wallet still has a live session (isWalletConnected is
 * true only then), and 500 ms after load reattaches to the wallet so its account changes are followed.
 */
export function useWalletSession() {
  useEffect(() => {
    if (started) return;
    started = true;
    const checked = confirmSession();
    // The Solana wallet list loads when it is needed (Connect, reconnecting a stored Solana wallet, paying),
    // not on every page load.
    window.setTimeout(() => {
      void checked.then(reconnectWallet).catch((err: unknown) => console.warn("wallet reconnect check failed:", err));
    }, RECONNECT_DELAY_MS);
  }, []);
}

async function confirmSession() {
  const generation = walletGeneration();
  const stored = readStoredWallet();
  let session;
  try {
    session = await fetchSession();
  } catch {
    return; // offline or server trouble: keep what we had rather than sign the person out
  }
  if (walletGeneration() !== generation) return; // a sign-in or disconnect happened meanwhile
  if (session.authenticated) {
    const user = session.user;
    if (stored.address && sameWallet(user.network, stored.address, user.walletAddress)) {
      storeConnected(true);
      setWalletState({ status: "connected", address: stored.address, network: user.network, user });
    } else if (!stored.address) {
      // Signed in but the browser forgot which wallet (storage cleared): take the session's.
      storeWallet({ address: user.walletAddress, network: user.network, type: stored.type }, true);
      setWalletState({ status: "connected", address: user.walletAddress, network: user.network, walletType: stored.type, user });
    } else {
      // The session is another wallet's than the one stored (the account changed): it no longer applies.
      await logout();
      storeConnected(false);
      setWalletState({ status: "idle", user: null });
    }
  } else {
    if (stored.connected) storeConnected(false);
    if (getWalletState().status === "connected") setWalletState({ status: "idle", user: null });
  }
}

async function reconnectWallet() {
  const { status, network, walletType, address } = getWalletState();
  if (status !== "connected" || !address) return;
  if (network === "ethereum") {
    const wallets = evmWallets();
    const wallet = wallets.find((w) => w.rdns === walletType) ?? (wallets.length === 1 ? wallets[0] : undefined);
    if (!wallet) return;
    // eth_accounts never prompts; a locked wallet answers [] and the session simply stays.
    const accounts = (await wallet.provider.request({ method: "eth_accounts" })) as string[];
    if (Array.isArray(accounts) && accounts.length > 0 && applyAccounts("ethereum", accounts)) return;
    const chainId = Number.parseInt(String(await wallet.provider.request({ method: "eth_chainId" })), 16);
    setWalletState({ chainId: Number.isFinite(chainId) ? chainId : null });
    followEvmWallet(wallet.provider);
  } else if (network === "solana") {
    await loadSolanaWallets();
    const wallet = solanaWallets().find((w) => w.name === walletType);
    if (!wallet) return;
    const { silentSolanaAccounts } = await import("./solana-connector");
    const accounts = await silentSolanaAccounts(wallet.wallet);
    if (
      accounts.length > 0 &&
      applyAccounts(
        "solana",
        accounts.map((a) => a.address),
      )
    )
      return;
    followSolanaWallet(wallet.wallet);
  }
}
