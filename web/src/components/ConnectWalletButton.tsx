import { Link } from "@tanstack/react-router";
import { lazy, Suspense, useRef, useState } from "react";
import type { Network } from "../../../schema/db";
import { evmWallets } from "../wallet/evm-discovery";
import { shortAddress } from "../lib/short-address";
import { loadSolanaWallets, solanaWallets } from "../wallet/solana-discovery";
import { useAdminStatus } from "../wallet/use-admin-status";
import { useSignIn } from "../wallet/use-sign-in";
import { useWallet } from "../wallet/use-wallet";
import { type WalletChoice, walletChoiceId } from "../wallet/use-wallet-choices";
import { connectorNotFound } from "../wallet/wallet-errors";
import { setWalletState } from "../wallet/wallet-store";
import { toast } from "./toast-store";
import { currencyOf } from "../../../schema/network";

// The picker (and Radix Dialog with it) loads only when someone opens it.
const WalletPickerDialog = lazy(() => import("./WalletPickerDialog"));

const currentChoices = (): WalletChoice[] => [...evmWallets(), ...solanaWallets()];

export function NetworkIcon({ network }: { network: Network }) {
  const eth = network === "ethereum";
  return (
    <span className={eth ? "text-indigo-300" : "text-teal-300"} title={eth ? "Ethereum" : "Solana"}>
      <span aria-hidden>{eth ? "◆" : "◎"}</span>
      <span className="sr-only">{eth ? "Ethereum" : "Solana"}</span>
    </span>
  );
}

/** The header's wallet control: "Connect Wallet", or the connected wallet linking to /profile. */
export function ConnectWalletButton({ className = "" }: { className?: string }) {
  const wallet = useWallet();
  const { isAdmin } = useAdminStatus(wallet.isConnected ? wallet.address : null);
  const signIn = useSignIn();
  const [pickerOpen, setPickerOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  // The picker unmounts as it closes (it is lazy and rendered only while open), so Radix's own focus return
  // can land on <body>; a keyboard user must come back to the button that opened it.
  const closePicker = (open: boolean) => {
    setPickerOpen(open);
    if (!open) requestAnimationFrame(() => trigger.current?.focus());
  };

  const start = async () => {
    if (wallet.status === "error") setWalletState({ status: "idle", error: null });
    await loadSolanaWallets().catch(() => undefined);
    const choices = currentChoices();
    // One wallet: straight to its prompt. None or several: the picker explains or lets the person choose.
    if (choices.length === 1) void signIn(choices[0]);
    else setPickerOpen(true);
  };

  const choose = (id: string) => {
    setPickerOpen(false);
    const choices = currentChoices();
    const choice = choices.find((c) => walletChoiceId(c) === id);
    if (!choice) {
      const message = connectorNotFound(
        id,
        choices.map((c) => c.name),
      );
      setWalletState({ status: "error", error: message });
      toast({ title: "Failed to connect wallet", description: message, variant: "destructive" });
      return;
    }
    void signIn(choice);
  };

  if (wallet.isConnected && wallet.address && wallet.network) {
    const label = isAdmin ? `Admin (${currencyOf(wallet.network)})` : shortAddress(wallet.address);
    return (
      <div className={`flex shrink-0 items-center gap-1 ${className}`}>
        <Link
          to="/profile"
          data-testid="wallet-button"
          title={wallet.address}
          className="inline-flex items-center gap-2 rounded-lg border border-slate-700 bg-slate-900 px-2 py-1.5 font-mono text-xs text-white hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400 sm:px-3 sm:text-sm"
        >
          <NetworkIcon network={wallet.network} />
          {isAdmin ? (
            label
          ) : (
            <>
              {/* Below sm a shorter form, so the header's row keeps room for the notification bell at 360 px. */}
              <span className="sm:hidden">{`${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`}</span>
              <span className="hidden sm:inline">{label}</span>
            </>
          )}
        </Link>
        <button
          type="button"
          onClick={() => void wallet.disconnect()}
          aria-label="Disconnect wallet"
          title="Disconnect"
          className="rounded-lg px-2 py-1.5 text-slate-400 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400"
        >
          ⏏
        </button>
      </div>
    );
  }

  const connecting = wallet.status === "connecting";
  return (
    <>
      <button
        type="button"
        ref={trigger}
        data-testid="wallet-button"
        onClick={() => void start()}
        disabled={connecting}
        className={`shrink-0 rounded-lg bg-violet-600 px-3 py-1.5 text-sm font-semibold whitespace-nowrap text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400 disabled:opacity-60 sm:px-4 ${className}`}
      >
        {connecting ? "Connecting..." : "Connect Wallet"}
      </button>
      {pickerOpen && (
        <Suspense fallback={null}>
          <WalletPickerDialog open={pickerOpen} onOpenChange={closePicker} onChoose={choose} />
        </Suspense>
      )}
    </>
  );
}
