// The notification kinds (docs/collectors.md#notifications): what each says and where it leads, from the data
// stored with it. A new kind (offers: offer_received, offer_accepted, offer_declined, offer_expired) is one entry
// here, with its group, and one call of worker/collectors/notify.ts where it happens; the routes, the bell and the
// page show every kind through `describeNotification`.
import { changePercentage, decimalToUnits } from "./money";

/**
 * Unread notifications of one group and one subject are one notification, brought up to date: a listing reserved
 * and freed five times while its watcher was away is one line saying where it stands now, and a saved search that
 * matched in ten runs says how many listings matched in all. How the stored data merges is the group's
 * (worker/collectors/notify.ts).
 */
export const NOTIFICATION_GROUPS = ["price", "watch-state", "search", "purchase", "order", "offer"] as const;
export type NotificationGroup = (typeof NOTIFICATION_GROUPS)[number];

type Data = Record<string, unknown>;
export type NotificationText = { title: string; body: string; href: string | null };

const text = (data: Data, key: string): string => (typeof data[key] === "string" ? (data[key] as string) : "");
const whole = (data: Data, key: string): number | null => (typeof data[key] === "number" && Number.isSafeInteger(data[key]) ? (data[key] as number) : null);
const short = (address: string) => (address.length > 14 ? `${address.slice(0, 8)}…${address.slice(-6)}` : address);
const listingHref = (data: Data) => (whole(data, "listingId") ? `/address/${whole(data, "listingId")}` : null);
const amount = (data: Data, key: string) => `${text(data, key)} ${text(data, "currency")}`.trim();

/** "-20%" or "-12.5%", from two decimal prices; "" when either is not one. */
function percentChange(from: string, to: string): string {
  try {
    const pct = changePercentage(decimalToUnits(from), decimalToUnits(to));
    return pct === null ? "" : `${pct.replace(/\.?0+$/, "")}%`;
  } catch {
    return "";
  }
}

/** "until 14:05 UTC" for an ISO time, "" otherwise. */
function untilText(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return "";
  const d = new Date(t);
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return ` until ${hh}:${mm} UTC`;
}

/** The marketplace URL of a saved search's filters. */
export function marketplaceHref(filters: unknown): string {
  const params = new URLSearchParams();
  if (filters && typeof filters === "object" && !Array.isArray(filters)) {
    for (const [key, value] of Object.entries(filters)) if (typeof value === "string" && value !== "") params.set(key, value);
  }
  const query = params.toString();
  return query ? `/marketplace?${query}` : "/marketplace";
}

/** How an offer_expired notification says why (schema/offers.ts OFFER_END_REASONS). */
const OFFER_EXPIRY_WORDS: Record<string, string> = {
  clock: "ran out of time",
  price_changed: "ended: the seller changed the price",
  sold: "ended: the address was sold",
  unlisted: "ended: the address is no longer for sale",
  payment_lapsed: "ended: its reservation ran out unpaid, and the address is for sale again",
};

type KindSpec = { group: NotificationGroup; describe: (data: Data) => NotificationText };

export const NOTIFICATION_KINDS = {
  watch_price_drop: {
    group: "price",
    describe: (d) => {
      const pct = percentChange(text(d, "previousPrice"), text(d, "price"));
      return {
        title: "Price drop on a watched address",
        body: `${short(text(d, "address"))} is now ${amount(d, "price")} (was ${amount(d, "previousPrice")}${pct ? `, ${pct}` : ""}).`,
        href: listingHref(d),
      };
    },
  },
  watch_reserved: {
    group: "watch-state",
    describe: (d) => ({
      title: "A watched address was reserved",
      body: `${short(text(d, "address"))} is reserved by a buyer${untilText(text(d, "until"))}. If they do not pay, it is for sale again.`,
      href: listingHref(d),
    }),
  },
  watch_freed: {
    group: "watch-state",
    describe: (d) => ({
      title: "A watched address is for sale again",
      body: `The reservation of ${short(text(d, "address"))} ended without a sale; it is for sale at ${amount(d, "price")}.`,
      href: listingHref(d),
    }),
  },
  watch_sold: {
    group: "watch-state",
    describe: (d) => ({
      title: "A watched address was sold",
      body: `${short(text(d, "address"))} was sold for ${amount(d, "price")}.`,
      href: listingHref(d),
    }),
  },
  saved_search_match: {
    group: "search",
    describe: (d) => {
      const count = whole(d, "count") ?? 1;
      const name = text(d, "name");
      return {
        title: `New match${count === 1 ? "" : "es"} for “${name}”`,
        body:
          count === 1
            ? `${short(text(d, "address"))} matches your saved search (${text(d, "reason") === "cheaper" ? "its price dropped" : "newly listed"}).`
            : `${count} listings, new or cheaper, match your saved search; the latest is ${short(text(d, "address"))}.`,
        href: count === 1 ? listingHref(d) : marketplaceHref(d.filters),
      };
    },
  },
  purchase_completed: {
    group: "purchase",
    // A custom order's key was made in the buyer's browser and never held by the store: nothing to reveal here,
    // the order page completes it from the buyer's saved key file.
    describe: (d) => {
      const orderId = whole(d, "customOrderId");
      const paid = `Your payment for ${short(text(d, "address"))} (${amount(d, "price")}) is confirmed`;
      if (orderId !== null)
        return {
          title: "Custom order delivered",
          body: `${paid}. You hold this key (made in your browser): open the order page with your saved key file to complete it.`,
          href: `/custom-orders/${orderId}`,
        };
      return {
        title: "Purchase completed",
        body: `${paid}: its private key is yours to reveal.`,
        href: text(d, "transactionId") ? `/secure-transaction/${encodeURIComponent(text(d, "transactionId"))}` : null,
      };
    },
  },
  custom_order_found: {
    group: "order",
    describe: (d) => ({
      title: "Your custom order was found",
      body: `${text(d, "address") ? `${short(text(d, "address"))} matches your pattern. ` : ""}Pay ${amount(d, "price")} before the deadline to receive it.`,
      href: whole(d, "orderId") ? `/custom-orders/${whole(d, "orderId")}` : null,
    }),
  },
  // Offers (docs/offers.md#notifications): the seller hears of new offers per listing (one unread line, the newest
  // offer), the buyer of what became of each of theirs.
  offer_received: {
    group: "offer",
    describe: (d) => ({
      title: "New offer on your listing",
      body: `${amount(d, "amount")} offered for ${short(text(d, "address"))} (asking ${amount(d, "ask")}).`,
      href: listingHref(d),
    }),
  },
  offer_accepted: {
    group: "offer",
    describe: (d) => ({
      title: "Your offer was accepted",
      body: `Your offer of ${amount(d, "amount")} for ${short(text(d, "address"))} was accepted: it is reserved for you${untilText(text(d, "until"))}. Pay to receive its key.`,
      href: text(d, "transactionId") ? `/secure-transaction/${encodeURIComponent(text(d, "transactionId"))}` : listingHref(d),
    }),
  },
  offer_declined: {
    group: "offer",
    describe: (d) => ({
      title: "Your offer was declined",
      body: `Your offer of ${amount(d, "amount")} for ${short(text(d, "address"))} was declined${text(d, "reason") === "other_accepted" ? ": the seller accepted another offer" : ""}.`,
      href: listingHref(d),
    }),
  },
  offer_expired: {
    group: "offer",
    describe: (d) => ({
      title: text(d, "reason") === "payment_lapsed" ? "Your accepted offer was not paid in time" : "Your offer expired",
      body: `Your offer of ${amount(d, "amount")} for ${short(text(d, "address"))} ${OFFER_EXPIRY_WORDS[text(d, "reason")] ?? "has ended"}.`,
      href: listingHref(d),
    }),
  },
} satisfies Record<string, KindSpec>;

export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

export const isNotificationKind = (kind: string): kind is NotificationKind => Object.hasOwn(NOTIFICATION_KINDS, kind);

/** What a stored notification says; a kind this version does not know reads as a plain notice. */
export function describeNotification(kind: string, data: unknown): NotificationText {
  const d = data && typeof data === "object" && !Array.isArray(data) ? (data as Data) : {};
  return isNotificationKind(kind) ? NOTIFICATION_KINDS[kind].describe(d) : { title: "Notification", body: "", href: null };
}
