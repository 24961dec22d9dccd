// Buying (schema/purchases.ts is the contract): reserving, the purchase page's reads and actions, the
// buyer's purchases and the admin's payments needing attention. Purchase keys start with
// "/api/transactions", so the spec's "after a purchase starts, refresh /api/addresses and /api/transactions"
// reaches the recent list, the purchases and every open purchase page with two invalidations.
import { mutationOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import { type AnswerOf, api, HttpError, idParam, read, type RefusalOf } from "./http";
import { ADDRESSES_KEY } from "./listings";

export const TRANSACTIONS_KEY = "/api/transactions";
const purchase = api.transactions[":id"];

/** POST /api/transactions/initiate: the card and table buy buttons (membership is always basic). */
export const initiatePurchase = (body: { addressId: number; buyerId: string; price: string; currency: "ETH" | "SOL" }) =>
  read(api.transactions.initiate.$post({ json: { ...body, membershipTier: "basic" } }));

/** POST /api/transactions: the listing page's buy button. */
export const createPurchase = (body: { addressId: number; buyerId: string }) => read(api.transactions.$post({ json: body }));

export type StartPurchase = { via: "initiate" | "create"; addressId: number; buyerId: string; price: string; currency: "ETH" | "SOL" };

/**
 * Reserving a listing from a buy button, answering the new purchase's id. Settled either way the listings
 * and purchases are refreshed: on success the listing is reserved, on failure (a changed price, a listing
 * taken meanwhile) the buyer should see the fresh listing behind the message.
 */
export const startPurchaseMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: async ({ via, addressId, buyerId, price, currency }: StartPurchase) =>
      via === "create"
        ? (await createPurchase({ addressId, buyerId })).transactionId
        : (await initiatePurchase({ addressId, buyerId, price, currency })).transactionId,
    // In the background: the buyer moves on to the purchase page without waiting for the lists to reload.
    onSettled: () => {
      void refreshAfterPurchase(queryClient);
    },
  });

/**
 * GET /api/transactions/:id (buyer, seller or admin; anyone else gets 404). The signed-in wallet is part of
 * the key: signing in on the page reads the purchase again.
 */
export const purchaseQuery = (id: string, viewer: string | null = null) =>
  queryOptions({
    queryKey: [TRANSACTIONS_KEY, "one", id, viewer],
    queryFn: () => read(purchase.$get(idParam(id))),
  });

export const confirmPayment = (id: string, body: { txHash: string; buyerWallet: string }) => read(purchase.confirm.$post({ ...idParam(id), json: body }));

export const cancelPurchase = (id: string) => read(purchase.cancel.$post(idParam(id)));

/** The unsigned Solana transfer the Worker builds for this purchase (Solana Pay transaction request). */
export const solanaPaymentTransaction = (id: string, account: string) => read(purchase["solana-transaction"].$post({ ...idParam(id), json: { account } }));

type RevealCall = (typeof purchase)["reveal-private-key"]["$post"];
/** The reveal's answer: the key, or the route's refusal (`success: false`, the server's words, any supportInfo). */
export type RevealAnswer = AnswerOf<RevealCall> | RefusalOf<RevealCall>;

/**
 * POST /api/transactions/:id/reveal-private-key with the page's one-time public key: the key comes back sealed to
 * it (web/src/routes/-purchase/sealed-reveal.ts opens it). Refusals come back as `{success: false, ...}` whatever
 * the status code, so the page can show the server's words and any supportInfo.
 */
export async function revealPrivateKey(id: string, publicKey: string): Promise<RevealAnswer> {
  try {
    return await read(purchase["reveal-private-key"].$post({ ...idParam(id), json: { publicKey } }));
  } catch (err) {
    // The refusal's own fields (the route's type), read from the error's body.
    const body = err instanceof HttpError ? (err.body as Partial<RefusalOf<RevealCall>> | null) : null;
    if (typeof body?.message === "string") return { success: false, error: body.error ?? "Error", message: body.message, supportInfo: body.supportInfo };
    throw err;
  }
}

export const destroyPrivateKey = (id: string) => read(purchase["private-key"].$delete(idParam(id)));

/**
 * GET /api/transactions/open: the signed-in buyer's own open purchases, so listings can say
 * "Reserved by you" and lead back to the purchase. Uncached on the server; keyed by the wallet here.
 */
export const openPurchasesQuery = (wallet: string) =>
  queryOptions({
    queryKey: [TRANSACTIONS_KEY, "open", wallet],
    queryFn: () => read(api.transactions.open.$get()),
    staleTime: 15_000,
  });

/** GET /api/transactions/purchases: the signed-in buyer's own purchases, paged. */
export const myPurchasesQuery = (wallet: string, page: number, limit: number) =>
  queryOptions({
    queryKey: [TRANSACTIONS_KEY, "purchases", wallet, page, limit],
    queryFn: () => read(api.transactions.purchases.$get({ query: { page: String(page), limit: String(limit) } })),
  });

const payments = api.admin.payments;
export const ATTENTION_KEY = "/api/admin/payments/attention";

/** GET /api/admin/payments/attention: received payments that need a refund or a look. */
export const paymentsAttentionQuery = () => queryOptions({ queryKey: [ATTENTION_KEY], queryFn: () => read(payments.attention.$get()) });

export const markPaymentRefunded = (id: string, refundTxHash: string) => read(payments[":id"].refund.$post({ ...idParam(id), json: { refundTxHash } }));

/** POST /api/admin/payments/:id/dismiss: no refund will be sent; the note says why. */
export const dismissPaymentRefund = (id: string, note: string) => read(payments[":id"].dismiss.$post({ ...idParam(id), json: { note } }));

export const DIFFERENCES_KEY = "/api/admin/payments/differences";

/** GET /api/admin/payments/differences: what the reconciliation found that nothing accounts for, and how far it has read. */
export const paymentDifferencesQuery = () => queryOptions({ queryKey: [DIFFERENCES_KEY], queryFn: () => read(payments.differences.$get()) });

export const resolvePaymentDifference = (id: string, note: string) => read(payments.differences[":id"].resolve.$post({ ...idParam(id), json: { note } }));

/** The spec's cache rule after a purchase starts: refresh the listings and the transaction lists. */
export async function refreshAfterPurchase(queryClient: QueryClient) {
  await Promise.all([queryClient.invalidateQueries({ queryKey: [ADDRESSES_KEY] }), queryClient.invalidateQueries({ queryKey: [TRANSACTIONS_KEY] })]);
}
