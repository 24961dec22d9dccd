// The Private Key Access card (status verified or completed, the buyer only): security warning, the owned
// address, the key masked until shown, copy only while shown, saving for a wallet, and Destroy. The key is
// fetched once per visit, sealed to a key pair this page makes and opened here (sealed-reveal.ts), and kept only
// in memory (never in the query cache after leaving the page).
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { PurchaseView, SupportInfo } from "../../../../schema/purchases";
import { errorMessage } from "../../api/error-message";
import { HttpError } from "../../api/http";
import { DestroyKeyDialog } from "../../components/purchase/DestroyKeyDialog";
import { toast } from "../../components/toast-store";
import { useCopy } from "../../components/use-copy";
import { KeySaveOptions } from "./KeySaveOptions";
import { revealSealedKey } from "./sealed-reveal";

const revealQuery = (view: Pick<PurchaseView, "id" | "network" | "address">) => ({
  queryKey: ["purchase-key", view.id] as const,
  queryFn: () => revealSealedKey(view.id, view.network, view.address),
  staleTime: Infinity,
  gcTime: 0,
  retry: false,
});

/**
 * "Private Key Released!" is news once: it came back on every visit, over the keystore password
 * field on a phone. Remembered per purchase in this browser; without storage it shows, as before.
 */
export function releasedNewsOnce(
  id: string,
  storage: Pick<Storage, "getItem" | "setItem"> | null = typeof localStorage === "undefined" ? null : localStorage,
): boolean {
  const key = `vanity:key-released-toast:${id}`;
  try {
    if (storage?.getItem(key)) return false;
    storage?.setItem(key, "1");
  } catch {
    // Storage refused (private mode, quota): showing the toast again is harmless.
  }
  return true;
}

export function PrivateKeyCard({ view }: { view: PurchaseView }) {
  const key = useQuery(revealQuery(view));
  const [shown, setShown] = useState(false);
  const data = key.data;
  const privateKey = data?.success ? data.privateKey : "";
  const { copied, copy } = useCopy(privateKey, "Private key");

  useEffect(() => {
    if (!data) return;
    if (data.success) {
      if (releasedNewsOnce(view.id))
        toast({ title: "Private Key Released!", description: "Import it into your wallet, then destroy our copy.", variant: "success" });
    } else if (data.supportInfo) toast({ title: "Payment Verified - Support Required", description: data.supportInfo.message, variant: "destructive" });
    else toast({ title: "Private Key Access Failed", description: data.message || "Could not retrieve private key", variant: "destructive" });
  }, [data, view.id]);
  useEffect(() => {
    if (key.isError)
      toast({
        title: "Error",
        description: key.error instanceof HttpError ? errorMessage(key.error) : "Failed to retrieve private key",
        variant: "destructive",
      });
  }, [key.isError, key.error]);

  return (
    <section
      aria-labelledby="key-title"
      className="space-y-4 rounded-2xl border border-emerald-700/60 bg-slate-900/60 p-5 sm:p-6"
      data-testid="private-key-card"
    >
      <h2 id="key-title" className="text-lg font-semibold text-white">
        Private Key Access
      </h2>
      <div className="rounded-lg border border-amber-600/60 bg-amber-950/40 p-3 text-sm text-amber-100" role="note">
        <strong className="font-semibold">Keep this key secret.</strong> Anyone who sees it controls the address and everything sent to it. Never share it,
        never paste it into a website, and store it offline. We will never ask you for it.
      </div>
      <div>
        <p className="text-xs tracking-wide text-slate-400 uppercase">You now own</p>
        <p className="mt-1 font-mono text-sm break-all text-slate-100" data-testid="owned-address">
          {view.address}
        </p>
      </div>
      {key.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-300" role="status">
          <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-700 border-t-emerald-400" aria-hidden />
          Retrieving private key...
        </p>
      ) : data?.success ? (
        <>
          <div>
            <p id="key-label" className="text-xs tracking-wide text-slate-400 uppercase">
              Private key
            </p>
            <div
              role="group"
              className="mt-1 rounded-lg border border-slate-700 bg-slate-950 p-3 font-mono text-sm break-all text-slate-100"
              aria-labelledby="key-label"
              data-testid="private-key"
            >
              {shown ? privateKey : "•".repeat(Math.min(64, privateKey.length))}
            </div>
            <p className="mt-1 text-xs text-slate-400" data-testid="sealed-note">
              Sealed to this page: the key travelled encrypted to a one-time key made in this browser, and was opened here.
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              onClick={() => setShown((s) => !s)}
              aria-pressed={shown}
              className="rounded-lg border border-slate-700 px-4 py-2 text-sm font-semibold text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400"
            >
              {shown ? "Hide" : "Show"}
            </button>
            <button
              type="button"
              onClick={() => void copy()}
              disabled={!shown}
              title={shown ? undefined : "Show the key to copy it"}
              className="rounded-lg border border-slate-700 px-4 py-2 text-sm font-semibold text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-not-allowed disabled:opacity-50"
            >
              {copied ? "Copied!" : "Copy"}
            </button>
          </div>
          <KeySaveOptions network={view.network} privateKey={privateKey} address={data.address} revealed={shown} />
          <div className="border-t border-slate-800 pt-4">
            <p className="text-sm text-slate-400">Imported it and checked you can open the address? Remove our copy for good.</p>
            <DestroyKeyDialog
              transactionId={view.id}
              trigger={
                <button
                  type="button"
                  className="mt-2 rounded-lg border border-red-700 px-4 py-2 text-sm font-semibold text-red-200 hover:bg-red-950 focus-visible:outline-2 focus-visible:outline-red-400"
                >
                  Destroy Private Key
                </button>
              }
            />
          </div>
        </>
      ) : data?.supportInfo ? (
        <SupportAlert info={data.supportInfo} />
      ) : (
        <p role="alert" className="text-sm text-red-300">
          {data?.message ?? "Could not retrieve private key"}
        </p>
      )}
    </section>
  );
}

function SupportAlert({ info }: { info: SupportInfo }) {
  return (
    <div role="alert" className="space-y-2 rounded-lg border border-red-700 bg-red-950/50 p-4 text-sm text-red-100" data-testid="support-info">
      <p className="font-semibold">Payment Verified - Support Required</p>
      <p>{info.message}</p>
      <p>{info.instructions}</p>
      {info.txHash && (
        <p>
          Transaction: <span className="font-mono break-all">{info.txHash}</span>
        </p>
      )}
      <p>Contact: {info.contactMethod}</p>
    </div>
  );
}
