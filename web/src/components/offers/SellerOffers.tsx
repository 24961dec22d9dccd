// The seller's view of offers (docs/offers.md#accepting), on the listing page (one listing) and in Admin > Offers
// (every listing): best first, each with where it stands in words (open, paused, accepted, lapsed) and, while open,
// Accept and Decline. Accepting reserves the address for that buyer at their price; the other open offers on it are
// paused until that sale completes (then declined) or lapses (then open again), so it asks first (ConfirmDialog);
// declining ends the offer for good, so it asks too.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { decimalToUnits } from "../../../../schema/money";
import type { ReceivedOfferView } from "../../../../schema/offers";
import { RESERVATION_MINUTES } from "../../../../schema/reservation";
import { errorMessage } from "../../api/error-message";
import { answerOfferMutation, listingOffersQuery } from "../../api/offers";
import { formatPriceTrimmed } from "../../lib/number-format";
import { relativeTime } from "../../lib/date-format";
import { shortAddress } from "../../lib/short-address";
import { sellerStanding } from "../../lib/offer-rules";
import { ConfirmDialog } from "../ConfirmDialog";
import { toast } from "../toast-store";

export function SellerOffers({ listingId, wallet }: { listingId: number; wallet: string }) {
  const list = useQuery(listingOffersQuery(String(listingId), wallet));
  if (list.isPending)
    return (
      <p className="mt-4 text-sm text-slate-400" role="status">
        Loading the offers…
      </p>
    );
  if (list.isError)
    return (
      <p className="mt-4 text-sm text-red-300" role="alert">
        The offers could not be loaded: {errorMessage(list.error)}
      </p>
    );
  if (list.data.offers.length === 0) return <p className="mt-4 text-sm text-slate-400">No offers on this address.</p>;
  return <OfferRows offers={list.data.offers} showListing={false} />;
}

/** The rows with their answers; `showListing`: name each offer's address (the admin panel's list of every listing). */
export function OfferRows({ offers, showListing }: { offers: ReceivedOfferView[]; showListing: boolean }) {
  const queryClient = useQueryClient();
  const answer = useMutation({
    ...answerOfferMutation(queryClient),
    onSuccess: (_data, { accept }) =>
      toast({ title: accept ? "Offer accepted" : "Offer declined", description: accept ? "The address is reserved for the buyer at their price." : undefined }),
    onError: (err, { accept }) =>
      toast({ title: accept ? "The offer could not be accepted" : "The offer could not be declined", description: errorMessage(err), variant: "destructive" }),
  });
  const now = Date.now();
  // Accepting reserves the address for this buyer at once and pauses every other offer; declining ends the offer for
  // good and tells its buyer: both asked first.
  const [answering, setAnswering] = useState<{ offer: ReceivedOfferView; accept: boolean } | null>(null);
  return (
    <>
      <ConfirmDialog
        open={answering !== null}
        onOpenChange={(open) => !open && setAnswering(null)}
        title={answering?.accept === false ? "Decline this offer?" : "Accept this offer?"}
        confirmLabel={answering?.accept === false ? "Decline offer" : "Accept offer"}
        pendingLabel={answering?.accept === false ? "Declining..." : "Accepting..."}
        pending={answer.isPending}
        tone={answering?.accept === false ? "danger" : "primary"}
        onConfirm={() => answering && answer.mutate({ id: answering.offer.id, accept: answering.accept }, { onSettled: () => setAnswering(null) })}
      >
        {answering?.accept === true && <AcceptTerms offer={answering.offer} />}
        {answering?.accept === false && <DeclineTerms offer={answering.offer} />}
      </ConfirmDialog>
      <ul className="mt-4 divide-y divide-slate-800 rounded-xl border border-slate-800" data-testid="seller-offers">
        {offers.map((o) => {
          const standing = sellerStanding(o.status, o.endReason);
          const pct = percentOfAsk(o.amount, o.ask);
          return (
            <li key={o.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3" data-testid="seller-offer">
              <div className="min-w-0 flex-1 basis-52">
                <p className="font-semibold text-white">
                  {formatPriceTrimmed(o.amount)} {o.currency}
                  <span className="ml-2 text-sm font-normal text-slate-400">
                    {pct}% of the {formatPriceTrimmed(o.ask)} ask
                  </span>
                </p>
                <p className="mt-0.5 text-xs break-all text-slate-400">
                  {showListing && (
                    <>
                      <Link to="/address/$id" params={{ id: String(o.listingId) }} className="font-mono text-violet-300 underline-offset-2 hover:underline">
                        {shortAddress(o.address)}
                      </Link>
                      {" · "}
                    </>
                  )}
                  from <span className="font-mono">{shortAddress(o.buyerWallet)}</span>
                  {(o.status === "open" || o.status === "paused") && (
                    <>
                      {" "}
                      · expires <time dateTime={o.expiresAt}>{relativeTime(o.expiresAt, now)}</time>
                    </>
                  )}
                </p>
                <p className="mt-0.5 text-xs text-slate-300" data-testid="offer-standing">
                  <span
                    className={
                      o.status === "open"
                        ? "font-semibold text-white"
                        : o.status === "accepted"
                          ? "font-semibold text-emerald-300"
                          : "font-semibold text-slate-300"
                    }
                  >
                    {standing.label}
                  </span>
                  {standing.detail && <span className="text-slate-400">: {standing.detail}</span>}
                </p>
              </div>
              {o.status === "open" ? (
                <div className="flex gap-2">
                  <button
                    type="button"
                    onClick={() => setAnswering({ offer: o, accept: true })}
                    disabled={answer.isPending}
                    aria-label={`Accept the offer of ${o.amount} ${o.currency}`}
                    className="rounded-md bg-emerald-700 px-2.5 py-1 text-xs font-semibold text-white hover:bg-emerald-600 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-wait"
                  >
                    Accept
                  </button>
                  <button
                    type="button"
                    onClick={() => setAnswering({ offer: o, accept: false })}
                    disabled={answer.isPending}
                    aria-label={`Decline the offer of ${o.amount} ${o.currency}`}
                    className="rounded-md border border-slate-700 px-2.5 py-1 text-xs font-semibold text-slate-300 hover:border-red-500 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-wait"
                  >
                    Decline
                  </button>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** What accepting does, in the confirmation: the price, the buyer's payment window, the other offers paused. */
export function AcceptTerms({ offer }: { offer: Pick<ReceivedOfferView, "amount" | "ask" | "currency" | "buyerWallet"> }) {
  return (
    <>
      <p>
        The address is reserved at once for <span className="font-mono">{shortAddress(offer.buyerWallet)}</span> at{" "}
        <strong className="text-white">
          {formatPriceTrimmed(offer.amount)} {offer.currency}
        </strong>{" "}
        ({percentOfAsk(offer.amount, offer.ask)}% of your {formatPriceTrimmed(offer.ask)} {offer.currency} ask). They then have {RESERVATION_MINUTES} minutes to
        pay; if they do not, the address is for sale again.
      </p>
      <p>Every other open offer on this address is paused: declined if this sale completes, open again if it does not. Their buyers are told.</p>
    </>
  );
}

/** What declining does, in the confirmation: the offer ends for good and its buyer is told. */
export function DeclineTerms({ offer }: { offer: Pick<ReceivedOfferView, "amount" | "currency" | "buyerWallet"> }) {
  return (
    <p>
      The offer of{" "}
      <strong className="text-white">
        {formatPriceTrimmed(offer.amount)} {offer.currency}
      </strong>{" "}
      from <span className="font-mono">{shortAddress(offer.buyerWallet)}</span> ends and cannot be accepted later; its buyer is told. They may make a new offer.
    </p>
  );
}

/** The amount as a whole percentage of the ask, rounded down ("80"), in exact units (schema/money.ts). */
function percentOfAsk(amount: string, ask: string): string {
  const askUnits = decimalToUnits(ask);
  return askUnits > 0n ? String((decimalToUnits(amount) * 100n) / askUnits) : "–";
}
