// Profile > Offers (docs/offers.md#who-sees-what): the wallet's offers, newest first, each with its state; an open one
// can be withdrawn, an accepted one paid on its purchase page.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { errorMessage } from "../../api/error-message";
import { myOffersQuery, withdrawOfferMutation } from "../../api/offers";
import { formatPriceTrimmed } from "../../lib/number-format";
import { relativeTime } from "../../lib/date-format";
import { shortAddress } from "../../lib/short-address";
import { isWaiting, offerStatusText } from "../../lib/offer-rules";
import { toast } from "../toast-store";
import { EmptyList, ListStates } from "./ListStates";
import { WithdrawOffer } from "../offers/WithdrawOffer";

export function MyOffers({ wallet }: { wallet: string }) {
  const queryClient = useQueryClient();
  const list = useQuery(myOffersQuery(wallet));
  const withdraw = useMutation({
    ...withdrawOfferMutation(queryClient),
    onError: (err) => toast({ title: "The offer could not be withdrawn", description: errorMessage(err), variant: "destructive" }),
  });
  const offers = list.data?.offers ?? [];
  const now = Date.now();
  return (
    <section id="offers" aria-labelledby="my-offers-title" className="mt-10 scroll-mt-20">
      <h2 id="my-offers-title" className="text-2xl font-semibold text-white">
        Offers
      </h2>
      <ListStates
        query={list}
        loading="Loading your offers…"
        failed="Your offers could not be loaded"
        empty={
          offers.length === 0 ? (
            <EmptyList testId="my-offers-empty" title="No offers yet">
              <p className="mt-2 text-slate-400">On an address's page, offer less than its asking price: if the seller accepts, it is reserved for you.</p>
            </EmptyList>
          ) : null
        }
      >
        <ul className="mt-6 divide-y divide-slate-800 rounded-2xl border border-slate-800" data-testid="my-offers">
          {offers.map((o) => {
            const status = offerStatusText(o.status, o.endReason);
            return (
              <li key={o.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 p-4" data-testid="my-offer-row">
                <div className="min-w-0 flex-1 basis-56">
                  <p className="text-white">
                    <Link to="/address/$id" params={{ id: String(o.listingId) }} className="font-mono text-violet-300 underline-offset-2 hover:underline">
                      {shortAddress(o.address)}
                    </Link>{" "}
                    <span className="font-semibold">
                      {formatPriceTrimmed(o.amount)} {o.currency}
                    </span>{" "}
                    <span className="text-sm text-slate-400">(ask {formatPriceTrimmed(o.ask)})</span>
                  </p>
                  <p className="mt-0.5 text-sm text-slate-300">
                    <span className={status.tone === "good" ? "text-emerald-300" : status.tone === "open" ? "text-white" : "text-slate-400"}>
                      {status.label}
                    </span>
                    {status.detail && <span className="text-slate-400">: {status.detail}</span>}
                    {isWaiting(o.status) && (
                      <span className="text-slate-400">
                        {" "}
                        · expires <time dateTime={o.expiresAt}>{relativeTime(o.expiresAt, now)}</time>
                      </span>
                    )}
                  </p>
                </div>
                {isWaiting(o.status) && (
                  <WithdrawOffer
                    amount={`${formatPriceTrimmed(o.amount)} ${o.currency}`}
                    pending={withdraw.isPending}
                    onWithdraw={(done) => withdraw.mutate(o.id, { onSettled: done })}
                    trigger={
                      <button
                        type="button"
                        disabled={withdraw.isPending}
                        aria-label={`Withdraw the offer of ${o.amount} ${o.currency} for ${o.address}`}
                        className="rounded-md border border-slate-700 px-2.5 py-1 text-xs font-semibold text-slate-300 hover:border-red-500 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-wait"
                      >
                        Withdraw
                      </button>
                    }
                  />
                )}
                {o.status === "accepted" && o.transactionId && (
                  <Link
                    to="/secure-transaction/$transactionId"
                    params={{ transactionId: o.transactionId }}
                    className="rounded-md bg-violet-600 px-2.5 py-1 text-xs font-semibold text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400"
                  >
                    Pay now
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      </ListStates>
    </section>
  );
}
