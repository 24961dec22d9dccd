// Every /api/transactions call in one router: the public recent list, the fee preview, reserving, the
// purchase page's calls (view, confirm, cancel, Solana transfer request, key reveal and destruction), the
// buyer's purchases and the admin's transaction history. The buyer is always the session's wallet.
import { type Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import * as v from "valibot";
import { type PublicSale, type RecentTransaction, SALES_PAGE_DEFAULT, SALES_PAGE_MAX, type SalesResponse } from "../../schema/browse";
import { NETWORKS } from "../../schema/db";
import { PROFILE_LIST_DEFAULT, PROFILE_LIST_MAX, type UserTransaction } from "../../schema/listings";
import {
  type CancelResponse,
  ConfirmRequest,
  CreateTransactionRequest,
  type CreateTransactionResponse,
  type DestroyKeyResponse,
  CONFIRM_RATE_LIMIT,
  InitiateRequest,
  KEY_ACCESS_RATE_LIMIT,
  type InitiateResponse,
  type OpenPurchasesResponse,
  PURCHASES_PAGE_DEFAULT,
  PURCHASES_PAGE_MAX,
  type PurchasesResponse,
  type PurchaseView,
  type RevealResponse,
  SOLANA_TRANSFER_RATE_LIMIT,
  SolanaTransactionRequest,
  type SolanaTransactionResponse,
} from "../../schema/purchases";
import { type DeliverySealer, deliverySealer, RELOAD_FOR_SEALED_REVEAL, RevealRequest } from "../../schema/sealed-delivery";
import { type AuthSession, requireAdmin, requireSession } from "../auth/middleware";
import { requireSecrets } from "../deployment/middleware";
import { ignoredWalletQuery, queryInt, validId } from "../http/params";
import { limitReservations, limitSignedIn } from "../http/rate-limit";
import { validate } from "../http/validate";
import { requirePaymentSettings } from "../deployment/payment-readiness";
import { cancelPurchase, confirmPayment, solanaTransferRequest } from "../purchases/buyer-actions";
import { listPurchases, purchaseView } from "../purchases/purchase-view";
import { openPurchasesOf, type ReserveInput, reserveOrReuse } from "../purchases/reserve";
import { publicSaleById, publicSales, recentTransactions, userTransactions } from "../purchases/transaction-list";
import { ApiError } from "../http/errors";
import type { AppEnv } from "../types";
import { destroyKey, revealKey } from "../vault/delivery";
import { feeRoutes } from "./fees";

const PUBLIC_30S = "public, max-age=30";
const historyQuery = v.object({
  walletAddress: ignoredWalletQuery,
  limit: v.optional(queryInt("limit", 1, PROFILE_LIST_MAX)),
  offset: v.optional(queryInt("offset", 0, 1_000_000)),
});
const purchasesQuery = v.object({
  walletAddress: ignoredWalletQuery,
  page: v.optional(queryInt("page", 1, 100_000)),
  limit: v.optional(queryInt("limit", 1, PURCHASES_PAGE_MAX)),
});

const salesQuery = v.object({
  network: v.optional(v.picklist(NETWORKS, "network must be ethereum or solana")),
  page: v.optional(queryInt("page", 1, 100_000)),
  limit: v.optional(queryInt("limit", 1, SALES_PAGE_MAX)),
});

// biome-ignore lint/suspicious/noExplicitAny: any route's context, whatever its validated input
type AnyContext = Context<any>;

async function reserve(c: Context<AppEnv & { Variables: { session: AuthSession } }>, input: ReserveInput) {
  const session = c.var.session;
  await limitReservations(c.env, session.userId, c.var.requestInfo.ip);
  return reserveOrReuse(c.var.db, c.var.deployment, session, input, c.var.requestInfo);
}

const noStore = (c: AnyContext) => c.header("Cache-Control", "no-store");

// What a signed-in wallet may repeat is counted per wallet and per client network, after the
// session and the input are checked (so neither a visitor nor a malformed call writes a counter row).
// Reveal and destroy share one count: both write an audit row on every attempt.
const confirmLimit = limitSignedIn("confirm", CONFIRM_RATE_LIMIT);
const solanaTransferLimit = limitSignedIn("solana-transfer", SOLANA_TRANSFER_RATE_LIMIT);
const keyAccessLimit = limitSignedIn("key-access", KEY_ACCESS_RATE_LIMIT);

// The reveal answers only sealed (docs/key-custody.md#sealed-delivery). A call with no public key comes from a
// page older than sealed delivery, which would wait for a plain key: it is told to reload (426). Before the
// rate limit and before the purchase is read, like any malformed call, so it writes nothing.
const sealedRevealOnly = createMiddleware<AppEnv>(async (c, next) => {
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  let body: unknown = null;
  if (type === "application/json") {
    try {
      body = await c.req.json();
    } catch {
      return next(); // malformed JSON: the body's validation refuses it as such (400)
    }
  }
  if (typeof body !== "object" || body === null || !("publicKey" in body)) throw new ApiError(426, RELOAD_FOR_SEALED_REVEAL);
  await next();
});

// HPKE's key agreement with the page's public key runs before anything is read: a key that is not a usable
// X25519 point is refused here (400), and the handler gets a sealer bound to this purchase.
const sealerForPage = createMiddleware<AppEnv & { Variables: { seal: DeliverySealer } }>(async (c, next) => {
  const { publicKey } = (await c.req.json()) as RevealRequest;
  try {
    c.set("seal", await deliverySealer(publicKey, c.req.param("id") ?? ""));
  } catch {
    throw new ApiError(400, "publicKey: not a usable X25519 public key (it must be a point of the curve's large subgroup); reload the page for a new one");
  }
  await next();
});

// Every route that touches keys or money carries requireSecrets (503 without KEY_ENCRYPTION_SECRET and
// SESSION_SECRET); the public recent-transactions list and the fee preview (feeRoutes) go without. Those that
// take, report or build a payment also carry requirePaymentSettings (503 while a payment setting is unsafe,
// docs/production-settings.md); reading a purchase, cancelling it and the key calls do not.
export const transactionRoutes = new Hono<AppEnv>()
  .get("/recent", async (c) => {
    const rows = await recentTransactions(c.var.db);
    c.header("Cache-Control", PUBLIC_30S);
    return c.json(rows satisfies RecentTransaction[]);
  })
  // Public activity: completed sales, paged and by network, and one sale's page. Public facts, the
  // same for everyone: cacheable, and never the buyer.
  .get("/sales", validate("query", salesQuery), async (c) => {
    const { network, page = 1, limit = SALES_PAGE_DEFAULT } = c.req.valid("query");
    c.header("Cache-Control", PUBLIC_30S);
    return c.json((await publicSales(c.var.db, page, limit, network)) satisfies SalesResponse);
  })
  .get("/sales/:id", validId("sale"), async (c) => {
    const sale = await publicSaleById(c.var.db, c.req.valid("param").id);
    if (!sale) throw new ApiError(404, "Sale not found");
    c.header("Cache-Control", PUBLIC_30S);
    return c.json(sale satisfies PublicSale);
  })
  .route("/", feeRoutes)
  .get("/user", requireSecrets, requireAdmin, validate("query", historyQuery), async (c) => {
    const { limit = PROFILE_LIST_DEFAULT, offset = 0 } = c.req.valid("query");
    const rows = await userTransactions(c.var.db, c.var.session.userId, limit, offset);
    return c.json(rows satisfies UserTransaction[]);
  })
  .get("/purchases", requireSecrets, requireSession, validate("query", purchasesQuery), async (c) => {
    const { page = 1, limit = PURCHASES_PAGE_DEFAULT } = c.req.valid("query");
    noStore(c);
    return c.json((await listPurchases(c.var.db, c.var.session.userId, page, limit)) satisfies PurchasesResponse);
  })
  // The session's own open purchases: viewer-specific, so never in a cached listing answer.
  .get("/open", requireSecrets, requireSession, async (c) => {
    noStore(c);
    return c.json({ purchases: await openPurchasesOf(c.var.db, c.var.session.userId) } satisfies OpenPurchasesResponse);
  })
  .post("/initiate", requireSecrets, requireSession, requirePaymentSettings, validate("json", InitiateRequest), async (c) => {
    const r = await reserve(c, c.req.valid("json"));
    const body = {
      success: true,
      transactionId: r.id,
      expiresAt: new Date(r.expiresAt).toISOString(),
      feeCalculation: r.feeCalculation,
    } satisfies InitiateResponse;
    // 200: the buyer's own open purchase of this listing, answered again; 201: a new reservation.
    return c.json(body, r.reused ? 200 : 201);
  })
  .post("/", requireSecrets, requireSession, requirePaymentSettings, validate("json", CreateTransactionRequest), async (c) => {
    const r = await reserve(c, c.req.valid("json"));
    const body = {
      id: r.id,
      transactionId: r.id,
      expiresAt: new Date(r.expiresAt).toISOString(),
      feeCalculation: r.feeCalculation,
    } satisfies CreateTransactionResponse;
    return c.json(body, r.reused ? 200 : 201);
  })
  .get("/:id", validId("transaction"), requireSecrets, requireSession, async (c) => {
    noStore(c);
    return c.json((await purchaseView(c.var.db, c.var.deployment, c.var.session, c.req.valid("param").id)) satisfies PurchaseView);
  })
  .post(
    "/:id/confirm",
    validId("transaction"),
    requireSecrets,
    requireSession,
    requirePaymentSettings,
    validate("json", ConfirmRequest),
    confirmLimit,
    async (c) => {
      noStore(c);
      return c.json(await confirmPayment(c.var.db, c.var.deployment, c.var.session, c.req.valid("param").id, c.req.valid("json")));
    },
  )
  .post("/:id/cancel", validId("transaction"), requireSecrets, requireSession, async (c) => {
    await cancelPurchase(c.var.db, c.var.session, c.req.valid("param").id, c.var.requestInfo);
    return c.json({ success: true, status: "cancelled" } satisfies CancelResponse);
  })
  .post(
    "/:id/solana-transaction",
    validId("transaction"),
    requireSecrets,
    requireSession,
    requirePaymentSettings,
    validate("json", SolanaTransactionRequest),
    solanaTransferLimit,
    async (c) => {
      noStore(c);
      const body = await solanaTransferRequest(c.var.db, c.var.deployment.solana, c.var.session, c.req.valid("param").id, c.req.valid("json").account);
      return c.json(body satisfies SolanaTransactionResponse);
    },
  )
  // No requireSession here: a visitor gets the purchase page's refusal body (401), and writes nothing.
  .post(
    "/:id/reveal-private-key",
    validId("transaction"),
    requireSecrets,
    sealedRevealOnly,
    validate("json", RevealRequest),
    sealerForPage,
    keyAccessLimit,
    async (c) => {
      noStore(c);
      const result = await revealKey(c.var.db, c.env, c.req.valid("param").id, c.var.seal, { session: c.var.session ?? null, ...c.var.requestInfo });
      if (result.ok) return c.json({ success: true, sealed: result.sealed, address: result.address, network: result.network } satisfies RevealResponse);
      const { status, error, message, supportInfo } = result;
      return c.json({ success: false, error, message, ...(supportInfo ? { supportInfo } : {}) } satisfies RevealResponse, status);
    },
  )
  .delete("/:id/private-key", validId("transaction"), requireSecrets, keyAccessLimit, async (c) => {
    noStore(c);
    const result = await destroyKey(c.var.db, c.req.valid("param").id, { session: c.var.session ?? null, ...c.var.requestInfo });
    if (result.ok) return c.json({ success: true, message: "The private key has been permanently removed from our database." } satisfies DestroyKeyResponse);
    return c.json({ success: false, error: result.error, message: result.message }, result.status);
  });
