// The found address and its key: masked until shown, copy while shown, and the V3 keystore file the purchase
// flow makes (KeySaveOptions). Everything stays in this page.
import { useState } from "react";
import { useCopy } from "../../components/use-copy";
import { KeySaveOptions } from "../-purchase/KeySaveOptions";

export function FoundKey({ network, address, privateKey }: { network: "ethereum" | "solana"; address: string; privateKey: string }) {
  const [shown, setShown] = useState(false);
  const { copied, copy } = useCopy(privateKey, "Private key");
  const button =
    "rounded-lg border border-slate-700 px-4 py-2 text-sm font-semibold text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400";
  return (
    <section aria-labelledby="found-title" className="space-y-4 rounded-2xl border border-emerald-700/60 bg-slate-900/60 p-5 sm:p-6" data-testid="found-key">
      <h2 id="found-title" className="text-lg font-semibold text-white">
        Found: your address
      </h2>
      <p className="font-mono text-sm break-all text-slate-100" data-testid="found-address">
        {address}
      </p>
      <div className="rounded-lg border border-amber-600/60 bg-amber-950/40 p-3 text-sm text-amber-100" role="note">
        <strong className="font-semibold">Only this page has the key.</strong> It was made on your GPU and checked in your browser; it was never sent anywhere,
        and it is gone when you leave or reload this page. Save it now: anyone who sees it controls the address.
      </div>
      <div>
        <p id="found-key-label" className="text-xs tracking-wide text-slate-400 uppercase">
          Private key
        </p>
        <div
          role="group"
          className="mt-1 rounded-lg border border-slate-700 bg-slate-950 p-3 font-mono text-sm break-all text-slate-100"
          aria-labelledby="found-key-label"
          data-testid="found-private-key"
        >
          {shown ? privateKey : "•".repeat(64)}
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="button" onClick={() => setShown((s) => !s)} aria-pressed={shown} className={button}>
          {shown ? "Hide" : "Show"}
        </button>
        <button
          type="button"
          onClick={() => void copy()}
          disabled={!shown}
          title={shown ? undefined : "Show the key first"}
          className={`${button} disabled:cursor-not-allowed disabled:opacity-50`}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <KeySaveOptions network={network} privateKey={privateKey} address={address} revealed={shown} />
    </section>
  );
}
