// A listing's reservation as the card, the table and the listing page show it: the buyer's own
// with the time left and "Continue to payment", or someone else's "Reserved until ..." in place of Buy.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ListingView } from "../../../../schema/browse";
import { openPurchasesQuery } from "../../api/purchases";
import { type ReservationState, reservationState, reservationText } from "../../lib/reservation";
import { useNow } from "../use-now";
import { useViewer } from "./use-viewer";

/** The listing's reservation as this viewer sees it, re-judged every 15 s as the time runs out. */
export function useReservation(listing: ListingView): ReservationState {
  const viewer = useViewer();
  const own = useQuery({ ...openPurchasesQuery(viewer ?? ""), enabled: viewer !== null && !listing.isOwner });
  const now = useNow(15_000);
  return reservationState(listing, viewer === null ? undefined : own.data?.purchases, now);
}

const LINK =
  "inline-flex items-center justify-center rounded-lg bg-emerald-600 px-4 py-2 text-sm font-semibold text-white hover:bg-emerald-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300";

/** In place of the buy button while the listing is reserved. `compact`: the marketplace table's cell. */
export function ReservationNotice({ state, compact = false }: { state: Exclude<ReservationState, { kind: "free" }>; compact?: boolean }) {
  const text = reservationText(state);
  if (state.kind === "other") {
    return (
      <p className={`${compact ? "text-xs" : "text-sm"} font-semibold text-amber-300`} data-testid="reservation-notice">
        {text}
      </p>
    );
  }
  return (
    <div className={compact ? "flex flex-col items-start gap-1" : "flex flex-col gap-2"} data-testid="reservation-notice">
      <p className={`${compact ? "text-xs" : "text-sm"} font-semibold text-emerald-300`}>{text}</p>
      <Link
        to="/transaction/$transactionId"
        params={{ transactionId: state.transactionId }}
        className={
          compact
            ? "rounded text-xs font-semibold text-emerald-300 underline hover:text-emerald-200 focus-visible:outline-2 focus-visible:outline-emerald-300"
            : `${LINK} w-full`
        }
      >
        {state.paymentReported ? "View purchase" : "Continue to payment"}
      </Link>
    </div>
  );
}
