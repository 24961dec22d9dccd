// Custom orders, mounted on /api/custom-orders; the calls are listed in schema/custom-orders.ts.
// Buyers place and follow their orders; the grinders (admin sessions, `npm run grind -- --orders`) claim them,
// report progress and submit offsets, which the server checks against the stored public key.
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import {
  CUSTOM_ORDER_GRIND_HOURS,
  type ClaimAnswer,
  claimBody,
  claimHolderBody,
  createOrderBody,
  GRINDER_LEASE_MS,
  type CustomOrderList,
  type CustomOrderQuote,
  type CustomOrderView,
  type OrderQueue,
  progressBody,
  queueQuery,
  quoteQuery,
  submitBody,
} from "../../schema/custom-orders";
import { orderPatternProblems } from "../../schema/custom-order-pattern";
import type { CreateTransactionResponse } from "../../schema/purchases";
import { requireAdmin, requireSession } from "../auth/middleware";
import { requireSecrets } from "../deployment/middleware";
import { requirePaymentSettings } from "../deployment/payment-readiness";
import { quoteOrder } from "../domain/custom-orders/quote";
import { quoteSettingsInForce } from "../operations/settings";
import { ApiError } from "../http/errors";
import { limitReservations, limitSignedIn } from "../http/rate-limit";
import { validId } from "../http/params";
import { validate } from "../http/validate";
import { type ClaimHolder, claimNext, recordProgress, releaseOrder, submitOffset, takeOrder } from "../orders/fulfil";
import { grinderIdle, grinderRows, grindersSeen, heartbeat, recordGrinderRate } from "../orders/grinders";
import { toQueuedOrder } from "../orders/order-view";
import { buyerViews, cancelOrder, orderForViewer, orderQueue, ordersOfBuyer } from "../orders/orders";
import { payOrder } from "../orders/pay";
import { placeOrder } from "../orders/place";
import type { AppEnv } from "../types";

const noStore = { "Cache-Control": "no-store" };

/** The claim holder a grinder call speaks for: its grinder id if it sent one, else the admin session itself. */
const holder = (adminId: number, grinder: string | undefined): ClaimHolder => (grinder === undefined ? { adminId } : { adminId, grinder });

/** POST /:id/pay reads nothing from its body: it may be absent or `{}`, anything else is refused before any write. */
const emptyBody = createMiddleware<AppEnv>(async (c, next) => {
  const text = (await c.req.text()).trim();
  if (text !== "") {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ApiError(400, "body: must be empty or {}");
    }
    if (typeof body !== "object" || body === null || Array.isArray(body) || Object.keys(body).length > 0) throw new ApiError(400, "body: must be empty or {}");
  }
  await next();
});

/** Orders placed per wallet per minute (a session is required), counted after validation. */
export const PLACING_LIMIT = 20;
/** Orders placed per client network per minute, all its wallets together: a wallet costs nothing. */
export const PLACING_LIMIT_PER_NETWORK = 60;
const placingLimit = limitSignedIn("custom-order", { perWallet: PLACING_LIMIT, perClient: PLACING_LIMIT_PER_NETWORK, windowMs: 60_000, what: "orders" });

export const customOrderRoutes = new Hono<AppEnv>()
  .get("/quote", validate("query", quoteQuery), async (c) => {
    const q = c.req.valid("query");
    const pattern = { prefix: q.prefix, suffix: q.suffix, caseSensitive: q.caseSensitive === "true" };
    const problems = orderPatternProblems(pattern);
    if (problems.length) throw new ApiError(400, `pattern: ${problems.join("; ")}`);
    const [config, grinders] = await Promise.all([quoteSettingsInForce(c.var.db), grindersSeen(c.var.db, Date.now())]);
    const quote = quoteOrder(pattern, config);
    // The time is at the rate of the grinder that would take the order: the fastest one running now, as it measures
    // itself, else the configured rate; so the quote's time and the page's note on the grinders never disagree.
    const running = grinders.online > 0 && grinders.fastestRate !== null && grinders.fastestRate > 0 ? grinders.fastestRate : null;
    const rate = running ?? config.grindRate;
    return c.json({
      ...pattern,
      difficultyBits: quote.difficultyBits,
      expectedAttempts: quote.expectedAttempts.toString(),
      estimatedSeconds: Number(quote.expectedAttempts) / rate,
      grindRate: rate,
      rateSource: running === null ? "configured" : "running",
      price: quote.price,
      currency: "ETH",
      maxDifficultyBits: config.maxDifficultyBits,
      refusal: quote.refusal,
      grinders,
      grindHours: CUSTOM_ORDER_GRIND_HOURS,
    } satisfies CustomOrderQuote);
  })
  .post("/", requireSession, validate("json", createOrderBody), placingLimit, async (c) => {
    const body = c.req.valid("json");
    const now = Date.now();
    const id = await placeOrder(c.var.db, c.var.session, body, await quoteSettingsInForce(c.var.db), now);
    const row = await orderForViewer(c.var.db, id, c.var.session);
    const [view] = await buyerViews(c.var.db, [row], now);
    return c.json(view satisfies CustomOrderView, 201, noStore);
  })
  .get("/mine", requireSession, async (c) => {
    const rows = await ordersOfBuyer(c.var.db, c.var.session.userId);
    return c.json({ orders: await buyerViews(c.var.db, rows, Date.now()) } satisfies CustomOrderList, 200, noStore);
  })
  .get("/admin/queue", requireAdmin, validate("query", queueQuery), async (c) => {
    const now = Date.now();
    const [rows, grinders] = await Promise.all([orderQueue(c.var.db, c.req.valid("query").status), grinderRows(c.var.db, now)]);
    return c.json({ orders: rows.map((r) => toQueuedOrder(r, now)), grinders } satisfies OrderQueue, 200, noStore);
  })
  // A grinder's poll: it is alive (its row), and it gets the oldest waiting order under its claim, or none.
  .post("/admin/claim", requireAdmin, validate("json", claimBody), async (c) => {
    const { grinder, label } = c.req.valid("json");
    const now = Date.now();
    const adminId = c.var.session.userId;
    await heartbeat(c.var.db, { id: grinder, label }, adminId, null, now);
    const row = await claimNext(c.var.db, { adminId, grinder }, now);
    if (row) await heartbeat(c.var.db, { id: grinder }, adminId, row.id, now);
    const body = { order: row ? toQueuedOrder(row, now) : null, leaseSeconds: GRINDER_LEASE_MS / 1000 } satisfies ClaimAnswer;
    return c.json(body, 200, noStore);
  })
  .post("/admin/:id/take", validId("order"), requireAdmin, validate("json", claimHolderBody), async (c) => {
    const { grinder } = c.req.valid("json");
    const now = Date.now();
    const id = c.req.valid("param").id;
    if (grinder !== undefined) await heartbeat(c.var.db, { id: grinder }, c.var.session.userId, null, now);
    const row = await takeOrder(c.var.db, id, holder(c.var.session.userId, grinder), now);
    if (grinder !== undefined) await heartbeat(c.var.db, { id: grinder }, c.var.session.userId, id, now);
    return c.json(toQueuedOrder(row, now), 200, noStore);
  })
  .post("/admin/:id/progress", validId("order"), requireAdmin, validate("json", progressBody), async (c) => {
    const { attempts, rate, grinder } = c.req.valid("json");
    const now = Date.now();
    const id = c.req.valid("param").id;
    await recordProgress(c.var.db, id, holder(c.var.session.userId, grinder), attempts, rate, now);
    if (grinder !== undefined) await recordGrinderRate(c.var.db, grinder, c.var.session.userId, id, rate, now);
    return c.json({ success: true, leaseSeconds: GRINDER_LEASE_MS / 1000 });
  })
  .post("/admin/:id/release", validId("order"), requireAdmin, validate("json", claimHolderBody), async (c) => {
    const { grinder } = c.req.valid("json");
    const now = Date.now();
    await releaseOrder(c.var.db, c.req.valid("param").id, holder(c.var.session.userId, grinder), now);
    if (grinder !== undefined) await grinderIdle(c.var.db, grinder, c.var.session.userId, now);
    return c.json({ success: true });
  })
  .post("/admin/:id/submit", validId("order"), requireAdmin, validate("json", submitBody), async (c) => {
    const { offset, variant, grinder } = c.req.valid("json");
    const now = Date.now();
    const row = await submitOffset(c.var.db, c.req.valid("param").id, holder(c.var.session.userId, grinder), offset, variant, now);
    if (grinder !== undefined) await grinderIdle(c.var.db, grinder, c.var.session.userId, now);
    return c.json(toQueuedOrder(row, now), 200, noStore);
  })
  .get("/:id", validId("order"), requireSession, async (c) => {
    const row = await orderForViewer(c.var.db, c.req.valid("param").id, c.var.session);
    const [view] = await buyerViews(c.var.db, [row], Date.now());
    return c.json(view satisfies CustomOrderView, 200, noStore);
  })
  .post("/:id/pay", validId("order"), requireSecrets, requireSession, requirePaymentSettings, emptyBody, async (c) => {
    const session = c.var.session;
    // Counted with the purchase page's reservations: paying an order is reserving a listing.
    await limitReservations(c.env, session.userId, c.var.requestInfo.ip);
    const r = await payOrder(c.var.db, c.var.deployment, session, c.req.valid("param").id, c.var.requestInfo);
    const body = {
      id: r.id,
      transactionId: r.id,
      expiresAt: new Date(r.expiresAt).toISOString(),
      feeCalculation: r.feeCalculation,
    } satisfies CreateTransactionResponse;
    return c.json(body, r.reused ? 200 : 201, noStore);
  })
  .post("/:id/cancel", validId("order"), requireSession, async (c) => {
    const row = await cancelOrder(c.var.db, c.req.valid("param").id, c.var.session.userId, Date.now());
    const [view] = await buyerViews(c.var.db, [row], Date.now());
    return c.json(view satisfies CustomOrderView, 200, noStore);
  });
