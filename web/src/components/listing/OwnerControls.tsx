// What the owner of a listing sees on its card instead of Buy Now: the
// status badge, the price edit control, Make Featured / Remove Featured and Delete. Each change refreshes
// only the /api/addresses caches.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { ListingView } from "../../../../schema/browse";
import type { PromotionType } from "../../../../schema/listings";
import { errorMessage } from "../../api/error-message";
import { deleteListing, refreshListings, updateListingPrice, updateListingPromotion } from "../../api/listings";
import { ownerStatusBadge } from "../../lib/listing-state";
import { acceptPriceInput, canConfirmPrice, PRICE_INPUT_STEP, priceError } from "../../lib/price-input";
import { ConfirmDialog } from "../ConfirmDialog";
import { toast } from "../toast-store";

const BADGE_CLASSES: Record<ReturnType<typeof ownerStatusBadge>, string> = {
  Listed: "bg-emerald-500/15 text-emerald-300",
  Sold: "bg-slate-200 text-slate-900",
  Deleted: "bg-red-500/15 text-red-300",
  Unavailable: "bg-amber-500/15 text-amber-300",
};

const PROMOTION_WORDING: Record<PromotionType, string> = {
  featured: "Listing is now featured with purple highlighting.",
  promoted: "Listing is now promoted with orange highlighting.",
  standard: "Listing is now standard, without highlighting.",
};

const button = "rounded-lg border px-3 py-1.5 text-sm font-semibold disabled:cursor-not-allowed disabled:opacity-50";

export function OwnerControls({ listing }: { listing: ListingView }) {
  const badge = ownerStatusBadge(listing);
  // Sold and deleted listings are records now: the server refuses changes to them, so none are offered.
  const changeable = listing.status !== "sold" && listing.status !== "deleted";
  return (
    <div className="space-y-3" data-testid="owner-controls">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${BADGE_CLASSES[badge]}`} data-testid="owner-status">
          {badge}
        </span>
        {changeable && <PriceEditor listing={listing} />}
      </div>
      {changeable && (
        <div className="flex flex-wrap gap-2">
          <FeatureToggle listing={listing} />
          <DeleteButton listing={listing} />
        </div>
      )}
    </div>
  );
}

/**
 * View -> edit (confirm / cancel) -> pending -> view: on the owner's card, and on the listing page
 * (routes/-address/OwnerPanel.tsx). The price is checked as the create form checks it (priceError), its message
 * under the field once something is typed; the server checks it again (PATCH /api/addresses/{id}).
 */
export function PriceEditor({ listing, label = "Edit Price" }: { listing: ListingView; label?: string }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const queryClient = useQueryClient();
  const inputId = useId();
  const messageId = useId();
  const mutation = useMutation({
    mutationFn: (price: string) => updateListingPrice(listing.id, price),
    onSuccess: async (updated) => {
      toast({ title: "Price Updated", description: `Listing price updated to ${updated.price} ${updated.currency}`, variant: "success" });
      setEditing(false);
      await refreshListings(queryClient);
    },
    onError: (err) => toast({ title: "Update Failed", description: errorMessage(err) || "Failed to update price", variant: "destructive" }),
  });

  if (!editing) {
    return (
      <button
        type="button"
        className={`${button} border-slate-700 text-slate-200 hover:border-violet-500`}
        onClick={() => {
          setDraft(listing.price);
          setEditing(true);
        }}
      >
        {label}
      </button>
    );
  }
  const confirm = () => {
    if (canConfirmPrice(draft, mutation.isPending)) mutation.mutate(draft.trim());
  };
  const problem = priceError(draft);
  return (
    <form
      className="flex basis-full flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        confirm();
      }}
    >
      <label htmlFor={inputId} className="sr-only">
        New price in {listing.currency}
      </label>
      <div className="flex items-center gap-2">
        <input
          id={inputId}
          type="number"
          inputMode="decimal"
          step={PRICE_INPUT_STEP}
          min={PRICE_INPUT_STEP}
          value={draft}
          aria-invalid={problem !== null}
          aria-describedby={messageId}
          // biome-ignore lint/a11y/noAutofocus: the owner just pressed Edit price; the field they asked for takes the focus.
          autoFocus
          disabled={mutation.isPending}
          onChange={(e) => {
            if (acceptPriceInput(e.target.value)) setDraft(e.target.value);
          }}
          onKeyDown={(e) => {
            if (e.key === "Escape") setEditing(false);
          }}
          className="min-w-0 flex-1 rounded-lg border border-slate-700 bg-slate-950 px-2 py-1 text-sm text-white focus:border-violet-500 focus:outline-none"
        />
        <span className="text-sm text-slate-400">{listing.currency}</span>
      </div>
      <p id={messageId} className="min-h-5 text-sm text-red-300" data-testid="price-edit-message">
        {problem}
      </p>
      <div className="flex gap-2">
        <button
          type="submit"
          disabled={!canConfirmPrice(draft, mutation.isPending)}
          className={`${button} border-violet-500 bg-violet-600 text-white hover:bg-violet-500`}
        >
          {mutation.isPending ? "Saving..." : "Confirm"}
        </button>
        <button
          type="button"
          disabled={mutation.isPending}
          onClick={() => setEditing(false)}
          className={`${button} border-slate-700 text-slate-300 hover:bg-slate-800`}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Toggles between featured and standard (isFeatured is sent true only for featured). */
function FeatureToggle({ listing }: { listing: ListingView }) {
  const queryClient = useQueryClient();
  const featured = listing.promotionType === "featured";
  const mutation = useMutation({
    mutationFn: () => updateListingPromotion(listing.id, featured ? "standard" : "featured"),
    onSuccess: async (updated) => {
      toast({ title: "Featured Status Updated", description: PROMOTION_WORDING[updated.promotionType], variant: "success" });
      await refreshListings(queryClient);
    },
    onError: (err) => toast({ title: "Update Failed", description: errorMessage(err) || "Failed to update featured status", variant: "destructive" }),
  });
  return (
    <button
      type="button"
      disabled={mutation.isPending}
      onClick={() => mutation.mutate()}
      className={`${button} ${featured ? "border-slate-700 text-slate-200 hover:bg-slate-800" : "border-purple-500/60 text-purple-200 hover:bg-purple-500/10"}`}
    >
      {featured ? "Remove Featured" : "Make Featured"}
    </button>
  );
}

function DeleteButton({ listing }: { listing: ListingView }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => deleteListing(listing.id),
    onSuccess: async () => {
      toast({ title: "Listing Deleted", description: "The listing no longer appears in the marketplace.", variant: "success" });
      await refreshListings(queryClient);
    },
    onError: (err) => toast({ title: "Delete Failed", description: errorMessage(err) || "Failed to delete listing", variant: "destructive" }),
  });
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      title="Delete this listing?"
      confirmLabel="Delete listing"
      pendingLabel="Deleting..."
      pending={mutation.isPending}
      onConfirm={() => mutation.mutate(undefined, { onSettled: () => setOpen(false) })}
      trigger={
        <button type="button" disabled={mutation.isPending} className={`${button} border-red-600/60 text-red-300 hover:bg-red-500/10`}>
          {mutation.isPending ? "Deleting..." : "Delete"}
        </button>
      }
    >
      <p>It leaves the marketplace and cannot be bought. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
