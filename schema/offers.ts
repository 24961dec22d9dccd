// Offers below the ask (docs/offers.md): the states, the bounds, the request schemas the Worker validates and the
// answers the web reads. The contract between worker/offers + worker/routes/offers.ts and the web's offer parts.
// Nothing from ./db's index (schema/db/offers.ts builds its enums from this file: that would be a cycle).
import * as v from "valibot";
import type { Network } from "./db/columns";
import { rowIdInput } from "./ids";

// ---- states ---------------------------------------------------------------------------------------------------

/**
 * open: waiting for the seller. accepted: the seller accepted it and its buyer holds a reservation at the offered
 * price. paused: another offer on the listing was accepted; it opens again if that reservation ends unpaid, and is
 * declined when that sale completes (an unpaid accepted offer must not end the others: docs/offers.md#accepting).
 * Every other state is an end: declined (by the seller, or another offer's sale completed), withdrawn (by the
 * buyer), expired (its time ran out, or the listing's price changed, it sold or it was unlisted while open or
 * paused), lapsed (accepted, but the reservation ended unpaid), completed (accepted and paid).
 */
export const OFFER_STATUSES = ["open", "accepted", "declined", "withdrawn", "expired", "lapsed", "completed", "paused"] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/** Why an offer ended (docs/offers.md#states). */
export const OFFER_END_REASONS = ["clock", "price_changed", "sold", "unlisted", "seller", "other_accepted", "buyer", "payment_lapsed", "paid"] as const;
export type OfferEndReason = (typeof OFFER_END_REASONS)[number];

// ---- bounds (docs/offers.md#bounds) ---------------------------------------------------------------------------

/**
 * Open offers one wallet may hold; open offers all the wallets of one client network may hold together, and on one
 * listing; offers (of any state) one client network may make in a day. A wallet costs nothing, so the network's
 * bounds are the ones that hold: one client adds at most `openPerClientPerListing` lines to a seller's list, and at
 * most `perClientPerDay` rows a day to the table (ended offers are deleted after OFFER_RETENTION_DAYS).
 */
export const OFFER_LIMITS = { openPerWallet: 10, openPerClient: 30, openPerClientPerListing: 2, perClientPerDay: 100 } as const;
/** Offer writes (make, withdraw) a wallet and a client network may send per minute. */
export const OFFER_WRITE_LIMIT = { perWallet: 20, perClient: 60, windowMs: 60_000, what: "offer changes" } as const;
/** Ended offers are deleted this many days after they ended. */
export const OFFER_RETENTION_DAYS = 90;
/** Most offers one list answers (the seller's list of a listing, the admin panel's, a buyer's). */
export const OFFER_LIST_MAX = 100;

/** How long an offer may be valid, in hours: 1 hour to 30 days. */
export const OFFER_VALIDITY_HOURS = { min: 1, max: 30 * 24 } as const;
/** The choices the offer form offers (hours). */
export const OFFER_VALIDITY_CHOICES = [1, 6, 24, 72, 168, 720] as const;

// ---- requests -----------------------------------------------------------------------------------------------------

// The text is idMessage("listing")'s, written out so the pages importing this file need not carry the kinds table.
const listingId = rowIdInput("addressId must be a listing id (a whole number from 1)");

/**
 * POST /api/offers. The amount is checked by the Worker with checkOfferAmount (schema/offer-amount.ts), against the
 * listing it is for; here only that it is a number or text at all.
 */
export const MakeOfferRequest = v.object(
  {
    addressId: listingId,
    amount: v.union([v.number(), v.string()], "amount must be a number or a decimal string"),
    currency: v.picklist(["ETH", "SOL"], "currency must be ETH or SOL"),
    validForHours: v.pipe(
      v.number("validForHours must be a whole number of hours"),
      v.integer("validForHours must be a whole number of hours"),
      v.minValue(OFFER_VALIDITY_HOURS.min, `validForHours must be at least ${OFFER_VALIDITY_HOURS.min} (one hour)`),
      v.maxValue(OFFER_VALIDITY_HOURS.max, `validForHours must be at most ${OFFER_VALIDITY_HOURS.max} (30 days)`),
    ),
  },
  (issue) => (issue.expected?.startsWith('"') ? `${issue.expected.slice(1, -1)} is required` : "Request body must be a JSON object"),
);
export type MakeOfferInput = v.InferOutput<typeof MakeOfferRequest>;

// ---- answers --------------------------------------------------------------------------------------------------------

/** An offer as its buyer sees it (Profile > Offers, the listing page's own offer). */
export type OfferView = {
  id: number;
  listingId: number;
  address: string;
  network: Network;
  amount: string;
  currency: "ETH" | "SOL";
  /** The ask when the offer was made. */
  ask: string;
  /** As things are now: an open offer past its time reads "expired" before the cron job writes it so. */
  status: OfferStatus;
  endReason: OfferEndReason | null;
  expiresAt: string;
  createdAt: string;
  /** The purchase an accepted offer reserved: pay it on /secure-transaction/{id}. */
  transactionId: string | null;
};

/** An offer as the seller sees it: who offered (their wallet), how much, until when. */
export type ReceivedOfferView = OfferView & { buyerWallet: string; askNow: string };

/** GET /api/offers/listing/{id}: what anyone may know of a listing's offers, and the caller's own open or accepted one. */
export type OfferSummary = { listingId: number; count: number; best: string | null; currency: "ETH" | "SOL"; mine: OfferView | null };

export type MyOffersResponse = { offers: OfferView[] };
export type ReceivedOffersResponse = { offers: ReceivedOfferView[] };
/** POST /api/offers/{id}/accept: the offer, and the buyer's reservation at the offered price. */
export type AcceptOfferResponse = { offer: ReceivedOfferView; transactionId: string; reservedUntil: string };
