// The payment's hash or signature with copy and a link to the explorer of the configured chain.
import { useQuery } from "@tanstack/react-query";
import type { Network } from "../../../../schema/db";
import { chainConfigQuery } from "../../api/market";
import { useCopy } from "../../components/use-copy";
import { explorerName, explorerTxUrl } from "../../../../schema/explorer";

export function PaymentHashCard({ hash, network }: { hash: string; network: Network }) {
  const config = useQuery(chainConfigQuery());
  const { copied, copy } = useCopy(hash, "Transaction hash");
  const url = config.data ? explorerTxUrl(network, hash, config.data) : null;
  const button =
    "rounded-lg border border-slate-700 px-3 py-1.5 text-sm font-semibold text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400";
  return (
    <section aria-labelledby="hash-title" className="rounded-2xl border border-slate-800 bg-slate-900/60 p-5">
      <h2 id="hash-title" className="text-xs font-semibold tracking-wide text-slate-400 uppercase">
        {network === "ethereum" ? "Transaction Hash" : "Transaction Signature"}
      </h2>
      <p className="mt-2 font-mono text-sm break-all text-slate-100" data-testid="payment-hash">
        {hash}
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <button type="button" onClick={() => void copy()} className={button}>
          {copied ? "Copied!" : "Copy"}
        </button>
        {url ? (
          <a href={url} target="_blank" rel="noopener noreferrer" className={button}>
            View on {explorerName(network)} <span aria-hidden>↗</span>
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : (
          config.data && <span className="text-xs text-slate-500">Local development chain: no public explorer shows it.</span>
        )}
      </div>
    </section>
  );
}
