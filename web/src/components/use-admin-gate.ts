// Whether the page may show admin-only content (Create-listing and the Admin
// panel): "loading" while the wallet reconnects (up to the spec's 2 s wait) or the admin check runs.
import { useEffect, useState } from "react";
import { useAdminStatus } from "../wallet/use-admin-status";
import { useWallet } from "../wallet/use-wallet";

/** How long a page waits for the wallet to connect before saying none is (the specification's 2 s wallet connection wait). */
export const WALLET_WAIT_MS = 2000;

export type AdminGate = "loading" | "disconnected" | "not-admin" | "admin";

export function useAdminGate(): { gate: AdminGate; address: string | null; network: string | null } {
  const wallet = useWallet();
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    const t = window.setTimeout(() => setWaited(true), WALLET_WAIT_MS);
    return () => window.clearTimeout(t);
  }, []);
  const address = wallet.isConnected ? wallet.address : null;
  const admin = useAdminStatus(address);
  let gate: AdminGate;
  if (!address) gate = wallet.status === "connecting" || !waited ? "loading" : "disconnected";
  else if (admin.isLoading) gate = "loading";
  else gate = admin.isAdmin ? "admin" : "not-admin";
  return { gate, address, network: wallet.network };
}
