import { useNavigate } from "@tanstack/react-router";
import { currentPath } from "../../lib/return-path";
import { toast } from "../toast-store";

/**
 * For a visitor without a wallet who asked for something that needs one (a star, a saved search): says so and
 * takes them to /profile to connect, which brings them back here once connected (as a wallet-less Buy does).
 */
export function useConnectFirst() {
  const navigate = useNavigate();
  return (what: string) => {
    toast({ title: "Wallet Required", description: `Connect your wallet to ${what}; you come back here once it is connected.` });
    void navigate({ to: "/profile", search: { returnTo: currentPath() } });
  };
}
