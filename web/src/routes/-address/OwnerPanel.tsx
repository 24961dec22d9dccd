// What the seller who owns a listing sees on its page in place of Buy Now: that it is theirs, and, while the
// listing is listed and no purchase holds it, "Edit price" (the card's price editor: the create form's price check,
// PATCH /api/addresses/{id}). A reserved listing says why its price cannot change now; a sold one what it sold for.
// An admin who does not own the listing sees the buyer's view (admins change prices in Admin > Listings).
import type { ListingView } from "../../../../schema/browse";
import { PriceEditor } from "../../components/listing/OwnerControls";
import type { ReservationState } from "../../lib/reservation";
import { SoldNotice } from "./SoldNotice";

type OwnerPriceState = "editable" | "reserved" | "sold" | "unlisted";

/** Whether the owner may change the price now: only an active, listed listing that no purchase holds. */
export function ownerPriceState(listing: Pick<ListingView, "status" | "isListed">, reservation: ReservationState): OwnerPriceState {
  if (listing.status === "sold") return "sold";
  if (listing.status !== "active" || !listing.isListed) return "unlisted";
  return reservation.kind === "free" ? "editable" : "reserved";
}

export function OwnerPanel({ listing, reservation }: { listing: ListingView; reservation: ReservationState }) {
  // isOwner is the server's word for the signed-in seller (never an admin looking at another's listing).
  if (!listing.isOwner) return null;
  const state = ownerPriceState(listing, reservation);
  return (
    <div className="space-y-3" data-testid="owner-panel">
      <p className="text-sm text-slate-400">You own this listing.</p>
      {state === "editable" && <PriceEditor listing={listing} label="Edit price" />}
      {state === "reserved" && (
        <p className="text-sm text-amber-300">A purchase of this listing is in progress: its price cannot change until the purchase completes or expires.</p>
      )}
      {state === "sold" && <SoldNotice listing={listing} />}
      {state === "unlisted" && <p className="text-sm text-slate-400">This listing is not listed, so it cannot be bought.</p>}
    </div>
  );
}
