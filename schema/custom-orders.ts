// The custom-order calls (docs/custom-orders.md): request schemas (valibot, used by the Worker's routes) and the answers
// the web app reads. Mounted on /api/custom-orders:
//   GET  /quote?prefix=&suffix=&caseSensitive=     public: difficulty, expected attempts and time, price, refusal
//   POST /                                         signed-in Ethereum wallet: place an order (stores A, pattern, quote)
//   GET  /mine                                     the session's orders, newest first
//   GET  /:id                                      the buyer's (or an admin's) order; the offset only once delivered
//   POST /:id/pay                                  the buyer reserves the found order's listing; answers the purchase
//                                                  (CreateTransactionResponse: 201 new, 200 the open one again)
//   POST /:id/cancel                               the buyer withdraws an order that is not paid
//   GET  /admin/queue?status=                      admin: the queue with difficulty, age, status, grinder progress
//   POST /admin/claim {grinder, label}             admin (a grinder): claim the oldest waiting order, or none
//   POST /admin/:id/take {grinder?}                admin: claim this order (open, or its claim lapsed)
//   POST /admin/:id/progress {attempts, rate, grinder?}  the claim holder: its progress; renews the claim
//   POST /admin/:id/release {grinder?}             the claim holder: gives the order back to the queue
//   POST /admin/:id/submit {offset, variant, grinder?}   the claim holder: the result; refused unless f·(A + k·G) matches
import * as v from "valibot";
import { CUSTOM_ORDER_STATUSES, type CustomOrderStatus } from "./db/custom-orders";
import { MAX_ORDER_PATTERN_CHARS } from "./custom-order-pattern";
import type { OpenStatus, SoldStatus } from "./purchase-lifecycle";

/** How long a found order waits for its payment before it expires (the address is then never offered again). */
export const CUSTOM_ORDER_PAYMENT_HOURS = 72;
/** Orders one wallet may have waiting at once (open, grinding or found-and-unpaid). */
export const MAX_UNFINISHED_ORDERS = 3;
/**
 * A grinder's claim on an order lapses this long after its last report (it reports every 10 s), and another
 * grinder may then take the order. The order page says "No grinder has reported for N minutes" past the same
 * time. docs/custom-orders.md#several-grinders
 */
export const GRINDER_LEASE_MS = 2 * 60 * 1000;
/** An order not found this long after it was placed expires unfilled; nothing was paid (docs/custom-orders.md#the-flow). */
export const CUSTOM_ORDER_GRIND_HOURS = 7 * 24;
/**
 * No grinder is believed faster than this (candidates per second): the quote settings' own ceiling. A progress
 * report claiming more attempts than this rate allows since the claim began is refused.
 */
export const MAX_GRINDER_RATE = 1_000_000_000_000;

const hexPattern = (name: string, allow0x: boolean) =>
  v.pipe(
    v.string(`${name} must be text`),
    v.maxLength(MAX_ORDER_PATTERN_CHARS + 2, `${name} may have at most ${MAX_ORDER_PATTERN_CHARS} characters`),
    v.transform((s) => (allow0x && /^0[xX]/.test(s) ? s.slice(2) : s)),
    v.regex(/^[0-9a-fA-F]*$/, `${name} may hold only 0-9 and a-f`),
  );

const booleanFlag = (name: string) => v.picklist(["true", "false"], `${name} must be true or false`);

export const quoteQuery = v.object({
  prefix: v.optional(hexPattern("prefix", true), ""),
  suffix: v.optional(hexPattern("suffix", false), ""),
  caseSensitive: v.optional(booleanFlag("caseSensitive"), "false"),
});

export const createOrderBody = v.object({
  prefix: v.optional(hexPattern("prefix", true), ""),
  suffix: v.optional(hexPattern("suffix", false), ""),
  caseSensitive: v.optional(v.boolean("caseSensitive must be true or false"), false),
  publicKey: v.pipe(
    v.string("publicKey must be text"),
    v.regex(/^0x0[23][0-9a-fA-F]{64}$/, "publicKey must be a compressed secp256k1 public key: 0x02 or 0x03 and 64 hex digits"),
  ),
  /** The price the buyer was shown; a different current quote is refused with 409 and currentPrice. */
  price: v.pipe(v.string("price must be the quoted price as text"), v.regex(/^[0-9]{1,9}(\.[0-9]{1,8})?$/, "price must be a decimal with at most 8 decimals")),
});

export const QUEUE_FILTERS = ["waiting", "all", ...CUSTOM_ORDER_STATUSES] as const;
export const queueQuery = v.object({
  status: v.optional(v.picklist(QUEUE_FILTERS, `status must be one of ${QUEUE_FILTERS.join(", ")}`), "waiting"),
});

/** A grinder names itself with a random id (a UUID) per process, so grinders sharing an admin wallet stay apart. */
const grinderId = v.pipe(v.string("grinder must be text"), v.regex(/^[A-Za-z0-9_-]{16,64}$/, "grinder must be 16 to 64 letters, digits, - or _"));
/** When omitted, the claim is the admin session's own ("admin-<user id>"), as for a take from a console. */
const optionalGrinder = { grinder: v.optional(grinderId) };

export const claimBody = v.object({
  grinder: grinderId,
  label: v.pipe(
    v.string("label must be text"),
    v.trim(),
    v.minLength(1, "label must say what the grinder runs on"),
    v.maxLength(80, "label may have at most 80 characters"),
    v.regex(/^[\x20-\x7e]*$/, "label must be printable ASCII"),
  ),
});

export const claimHolderBody = v.object(optionalGrinder);

export const progressBody = v.object({
  attempts: v.pipe(v.number("attempts must be a number"), v.safeInteger("attempts must be a whole number"), v.minValue(0, "attempts must not be negative")),
  rate: v.pipe(
    v.number("rate must be a number"),
    v.finite("rate must be finite"),
    v.minValue(0, "rate must not be negative"),
    v.maxValue(MAX_GRINDER_RATE, "rate is not believable"),
  ),
  ...optionalGrinder,
});

export const submitBody = v.object({
  ...optionalGrinder,
  offset: v.pipe(v.string("offset must be text"), v.regex(/^0x[0-9a-fA-F]{64}$/, "offset must be 0x and 64 hex digits")),
  variant: v.pipe(
    v.number("variant must be a number"),
    v.integer("variant must be a whole number"),
    v.minValue(0, "variant must be 0 to 5"),
    v.maxValue(5, "variant must be 0 to 5"),
  ),
});

export type CustomOrderQuote = {
  prefix: string;
  suffix: string;
  caseSensitive: boolean;
  difficultyBits: number;
  /** 2^difficultyBits, as a decimal string (exact) */
  expectedAttempts: string;
  /** expectedAttempts / grindRate */
  estimatedSeconds: number;
  /**
   * candidates per second the estimate assumes: the fastest grinder running now (its own measurement), else the
   * configured rate (Admin > Settings; by default this store's GPU grinder, schema/grinder-rates.ts)
   */
  grindRate: number;
  rateSource: "running" | "configured";
  price: string;
  currency: "ETH";
  maxDifficultyBits: number;
  /** null when the order may be placed; otherwise the reason it may not */
  refusal: string | null;
  /** the grinders running now, so the page can say when none is or when they are slower than the quote */
  grinders: GrindersSeen;
  /** hours an order has to be found before it expires unfilled */
  grindHours: number;
};

/** The order's grinding so far: attempts by every claim together, the current claim's rate, its last report. */
export type GrinderProgress = { attempts: number; rate: number; at: string } | null;

/**
 * The grinders as a buyer may see them: how many reported within GRINDER_LEASE_MS, the newest report's time
 * (any grinder, ever; null if none ever ran), and the fastest rate among those online (an order is ground by one
 * grinder, so that is the best an order can get).
 */
export type GrindersSeen = { online: number; lastReportAt: string | null; fastestRate: number | null };

/** The buyer's view of an order (GET /:id, /mine, POST /). */
export type CustomOrderView = {
  id: number;
  status: CustomOrderStatus;
  prefix: string;
  suffix: string;
  caseSensitive: boolean;
  difficultyBits: number;
  expectedAttempts: string;
  price: string;
  currency: "ETH";
  publicKey: string;
  /** the found address (public once found), else null */
  address: string | null;
  foundAt: string | null;
  paymentDeadline: string | null;
  /** when an order not found by then expires unfilled (null for orders placed before the rule) */
  grindDeadline: string | null;
  /** open orders: the waiting orders placed before this one; otherwise 0 */
  queueAhead: number;
  /** every grinder's latest report (GRINDER_LEASE_MS decides "online") */
  grinders: GrindersSeen;
  /** k and its variant: null until the order is delivered */
  offset: string | null;
  variant: number | null;
  progress: GrinderProgress;
  createdAt: string;
  /**
   * The order's payment (POST /:id/pay): its newest purchase that is open (initiated and not lapsed, pending,
   * verified) or completed; the purchase page is /transaction/{transactionId}. null before paying or after a
   * reservation lapsed unpaid.
   */
  payment: OrderPayment | null;
};

export type OrderPayment = { transactionId: string; status: OpenStatus | SoldStatus };

export type CustomOrderList = { orders: CustomOrderView[] };

/** The admin queue's row: everything the grinder needs, never the offset. */
export type QueuedOrder = {
  id: number;
  status: CustomOrderStatus;
  prefix: string;
  suffix: string;
  caseSensitive: boolean;
  publicKey: string;
  difficultyBits: number;
  expectedAttempts: string;
  price: string;
  buyerWallet: string;
  ageSeconds: number;
  createdAt: string;
  takenAt: string | null;
  /** the claim's holder and when it lapses unless renewed (null when not claimed) */
  claim: { grinder: string; expiresAt: string } | null;
  progress: GrinderProgress;
  address: string | null;
  paymentDeadline: string | null;
  grindDeadline: string | null;
};

/** A running grinder's last report, for the admin queue. */
export type GrinderRow = { id: string; label: string; rate: number | null; orderId: number | null; startedAt: string; lastSeenAt: string; online: boolean };

export type OrderQueue = { orders: QueuedOrder[]; grinders: GrinderRow[] };

/** POST /admin/claim: the order now held by this grinder, or null when none waits; the lease to keep. */
export type ClaimAnswer = { order: QueuedOrder | null; leaseSeconds: number };
