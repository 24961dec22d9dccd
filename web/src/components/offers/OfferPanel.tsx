// The listing page's offers (docs/offers.md): everyone sees how many open offers there are and the best amount; a
// buyer makes one below the ask (valid 1 hour to 30 days), sees their own, withdraws it, or pays for it once accepted;
// the seller (an admin) sees the offers best first and accepts or declines them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { type FormEvent, lazy, Suspense, useId, useState } from "react";
import type { ListingView } from "../../../../schema/browse";
import { OFFER_VALIDITY_CHOICES, type OfferView } from "../../../../schema/offers";
import { errorMessage } from "../../api/error-message";
import { makeOfferMutation, offerSummaryQuery, withdrawOfferMutation } from "../../api/offers";
import { formatPriceTrimmed } from "../../lib/number-format";
import { formatDayTime, relativeTime } from "../../lib/date-format";
import { exampleOffer, isWaiting, offerAmountProblem, offerStatusText, validityLabel } from "../../lib/offer-rules";
import { useAdminStatus } from "../../wallet/use-admin-status";
import { useConnectFirst } from "../collectors/use-connect-first";
import { useViewer } from "../listing/use-viewer";
import { toast } from "../toast-store";
import { WithdrawOffer } from "./WithdrawOffer";

// Only the seller (an admin) sees the offers to answer: a visitor's landing page does not carry their code.
const SellerOffers = lazy(() => import("./SellerOffers").then((m) => ({ default: m.SellerOffers })));

const forSale = (l: ListingView) => l.status === "active" && l.isListed;

export function OfferPanel({ listing }: { listing: ListingView }) {
  const viewer = useViewer();
  const { isAdmin } = useAdminStatus(viewer);
  const summary = useQuery(offerSummaryQuery(String(listing.id), viewer));
  const seller = listing.isOwner || isAdmin;
  const mine = summary.data?.mine ?? null;
  if (!forSale(listing) && !mine) return null;
  return (
    <section aria-labelledby="offers-title" className="rounded-2xl border border-slate-800 bg-slate-900/60 p-5 sm:p-6" data-testid="offers-panel">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="offers-title" className="text-xs font-semibold tracking-wide text-slate-400 uppercase">
          Offers
        </h2>
        <p className="text-sm text-slate-300" data-testid="offers-summary">
          {summary.isPending
            ? "Loading offers…"
            : summary.isError
              ? "Offers could not be loaded"
              : summary.data.count === 0
                ? "No open offers yet"
                : `${summary.data.count} open offer${summary.data.count === 1 ? "" : "s"} · best ${formatPriceTrimmed(summary.data.best ?? "0")} ${summary.data.currency}`}
        </p>
      </div>
      {seller && viewer ? (
        <Suspense fallback={<p className="mt-4 text-sm text-slate-400">Loading the offers…</p>}>
          <SellerOffers listingId={listing.id} wallet={viewer} />
        </Suspense>
      ) : mine ? (
        <MyOffer offer={mine} />
      ) : forSale(listing) ? (
        <OfferForm listing={listing} signedIn={viewer !== null} />
      ) : null}
    </section>
  );
}

function MyOffer({ offer }: { offer: OfferView }) {
  const queryClient = useQueryClient();
  const withdraw = useMutation({
    ...withdrawOfferMutation(queryClient),
    onSuccess: () => toast({ title: "Offer withdrawn" }),
    onError: (err) => toast({ title: "The offer could not be withdrawn", description: errorMessage(err), variant: "destructive" }),
  });
  const status = offerStatusText(offer.status, offer.endReason);
  return (
    <div className="mt-4 space-y-3" data-testid="my-offer">
      <p className="text-white">
        Your offer: <span className="font-semibold">{`${formatPriceTrimmed(offer.amount)} ${offer.currency}`}</span>{" "}
        <span className={status.tone === "good" ? "text-emerald-300" : "text-slate-300"}>({status.label})</span>
      </p>
      {isWaiting(offer.status) && (
        <>
          <p className="text-sm text-slate-400">
            Valid until <time dateTime={offer.expiresAt}>{formatDayTime(offer.expiresAt)}</time> ({relativeTime(offer.expiresAt)}). The seller accepts or
            declines it; you are told either way.
          </p>
          <WithdrawOffer
            amount={`${formatPriceTrimmed(offer.amount)} ${offer.currency}`}
            pending={withdraw.isPending}
            onWithdraw={(done) => withdraw.mutate(offer.id, { onSettled: done })}
            trigger={
              <button
                type="button"
                disabled={withdraw.isPending}
                className="rounded-lg border border-slate-700 px-3 py-1.5 text-sm font-semibold text-slate-200 hover:border-red-500 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-wait"
              >
                Withdraw offer
              </button>
            }
          />
        </>
      )}
      {offer.status === "accepted" && offer.transactionId && (
        <Link
          to="/secure-transaction/$transactionId"
          params={{ transactionId: offer.transactionId }}
          className="inline-block rounded-lg bg-violet-600 px-4 py-2 font-semibold text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400"
        >
          Pay for your accepted offer
        </Link>
      )}
    </div>
  );
}

function OfferForm({ listing, signedIn }: { listing: ListingView; signedIn: boolean }) {
  const queryClient = useQueryClient();
  const connectFirst = useConnectFirst();
  const [amount, setAmount] = useState("");
  const [hours, setHours] = useState<number>(72);
  const [touched, setTouched] = useState(false);
  const ids = { amount: useId(), validity: useId(), problem: useId() };
  const make = useMutation({
    ...makeOfferMutation(queryClient),
    onSuccess: () => {
      setAmount("");
      setTouched(false);
      toast({ title: "Offer sent", description: "The seller is told; you are told when they answer." });
    },
  });
  const problem = offerAmountProblem(amount, listing.price, listing.currency);
  const shown = touched ? problem : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!signedIn) {
      connectFirst("make an offer");
      return;
    }
    setTouched(true);
    if (problem || make.isPending) return;
    make.mutate({ addressId: listing.id, amount: amount.trim(), currency: listing.currency, validForHours: hours });
  };
  return (
    <form onSubmit={submit} noValidate className="mt-4 space-y-3" aria-label="Make an offer">
      <p className="text-sm text-slate-400">
        Offer less than the asking price ({formatPriceTrimmed(listing.price)} {listing.currency}). If the seller accepts, the address is reserved for you at
        your price and you pay as for any purchase.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 basis-40">
          <label htmlFor={ids.amount} className="block text-sm font-medium text-slate-300">
            Your offer ({listing.currency})
          </label>
          <input
            id={ids.amount}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            onBlur={() => setTouched(amount !== "")}
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? ids.problem : undefined}
            placeholder={exampleOffer(listing.price)}
            className="mt-1 w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-white focus-visible:outline-2 focus-visible:outline-violet-400"
          />
        </div>
        <div className="basis-32">
          <label htmlFor={ids.validity} className="block text-sm font-medium text-slate-300">
            Valid for
          </label>
          <select
            id={ids.validity}
            value={hours}
            onChange={(e) => setHours(Number(e.target.value))}
            className="mt-1 w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-white focus-visible:outline-2 focus-visible:outline-violet-400"
          >
            {OFFER_VALIDITY_CHOICES.map((h) => (
              <option key={h} value={h}>
                {validityLabel(h)}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          disabled={make.isPending}
          aria-busy={make.isPending}
          className="rounded-lg bg-violet-600 px-4 py-2 font-semibold text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400 disabled:cursor-wait disabled:opacity-80"
        >
          {make.isPending ? "Sending…" : signedIn ? "Make offer" : "Connect to make an offer"}
        </button>
      </div>
      {shown && (
        <p id={ids.problem} className="text-sm text-red-300" role="alert">
          {shown}
        </p>
      )}
      {make.isError && (
        <p className="text-sm text-red-300" role="alert">
          {errorMessage(make.error)}
        </p>
      )}
    </form>
  );
}
