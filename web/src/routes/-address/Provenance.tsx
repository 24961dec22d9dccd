// Where the key comes from, in plain words: who generated it, what the marketplace checked and when, and
// what a buyer who needs certainty should do instead.
import { Link } from "@tanstack/react-router";
import { formatDay } from "../../lib/date-format";

export function Provenance({ provedAt }: { provedAt: string }) {
  return (
    <section aria-labelledby="provenance-title" className="space-y-2 rounded-2xl border border-slate-800 bg-slate-900/60 p-5 text-sm text-slate-300 sm:p-6">
      <h2 id="provenance-title" className="text-lg font-bold text-white">
        Where the key comes from
      </h2>
      <p>
        The seller generated this key. On <time dateTime={provedAt}>{formatDay(provedAt)}</time> the marketplace checked that it controls this address before
        listing it. The key is stored encrypted and is released only to the buyer, once the payment is confirmed on-chain.
      </p>
      <p>
        The seller has seen the key. If you need certainty that nobody else ever saw it,{" "}
        <Link to="/custom-order" className="font-medium text-sky-300 underline underline-offset-2 hover:text-sky-200">
          order a trustless custom address
        </Link>{" "}
        instead, generated so that only you hold the final key.
      </p>
    </section>
  );
}
