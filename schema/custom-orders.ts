// The custom-order calls (issue 14): request schemas (valibot, used by the Worker's routes) and the answers
// the web app reads. Mounted on /api/custom-orders:
//   GET  /quote?prefix=&suffix=&caseSensitive=     public: difficulty, expected attempts and time, price, refusal
//   POST /                                         signed-in Ethereum wallet: place an order (stores A, pattern, quote)
//   GET  /mine                                     the session's orders, newest first
//   GET  /:id                                      the buyer's (or an admin's) order; the offset only once delivered
//   POST /:id/pay                                  the buyer reserves the found order's listing; answers the purchase
//                                                  (CreateTransactionResponse: 201 new, 200 the open one again)
//   POST /:id/cancel                               the buyer withdraws an order that is not paid
//   GET  /admin/queue?status=                      admin: the queue with difficulty, age, status, grinder progress
//   POST /admin/:id/take                           admin (the grinder): claim an open (or stale) order
//   POST /admin/:id/progress {attempts, rate}      admin: the grinder's progress
//   POST /admin/:id/submit {offset, variant}       admin: the result; refused unless f·(A + k·G) matches
import * as v from "valibot";
import { CUSTOM_ORDER_STATUSES, type CustomOrderStatus } from "./db/custom-orders";
import { MAX_ORDER_PATTERN_CHARS } from "./custom-order-pattern";

/** How long a found order waits for its payment before it expires (the address is then never offered again). */
export const CUSTOM_ORDER_PAYMENT_HOURS = 72;
/** Orders one wallet may have waiting at once (open, grinding or found-and-unpaid). */
export const MAX_UNFINISHED_ORDERS = 3;
/** A grinder that has reported nothing for this long has stopped; another may take its order. */
export const GRINDER_STALE_MS = 10 * 60 * 1000;

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

export const orderIdParam = v.object({
  id: v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,14}$/, "must be an order id (a whole number from 1)"), v.transform(Number)),
});

export const QUEUE_FILTERS = ["waiting", "all", ...CUSTOM_ORDER_STATUSES] as const;
export const queueQuery = v.object({
  status: v.optional(v.picklist(QUEUE_FILTERS, `status must be one of ${QUEUE_FILTERS.join(", ")}`), "waiting"),
});

export const progressBody = v.object({
  attempts: v.pipe(v.number("attempts must be a number"), v.safeInteger("attempts must be a whole number"), v.minValue(0, "attempts must not be negative")),
  rate: v.pipe(
    v.number("rate must be a number"),
    v.finite("rate must be finite"),
    v.minValue(0, "rate must not be negative"),
    v.maxValue(1e13, "rate is not believable"),
  ),
});

export const submitBody = v.object({
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
  estimatedSeconds: number;
  /** candidates per second the estimate assumes (the grinder's measured rate) */
  grindRate: number;
  price: string;
  currency: "ETH";
  maxDifficultyBits: number;
  /** null when the order may be placed; otherwise the reason it may not */
  refusal: string | null;
};

export type GrinderProgress = { attempts: number; rate: number; at: string } | null;

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

export type OrderPayment = { transactionId: string; status: "initiated" | "pending" | "verified" | "completed" };

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
  progress: GrinderProgress;
  address: string | null;
  paymentDeadline: string | null;
};

export type OrderQueue = { orders: QueuedOrder[] };
