// Key delivery and destruction for a purchase (docs/key-custody.md): the only place a listing's key is decrypted,
// only for the paying buyer of a verified or completed purchase whose key still exists. Every attempt by a
// signed-in wallet — delivered, refused, failed — and every destruction writes a transaction_audit row (who,
// what, when, ip, user agent; never the key, never the session id). A caller without a session is refused
// before anything is read or written: otherwise anyone could add audit rows without end. The
// signed-in attempts are bounded by the route's rate limit (KEY_ACCESS_RATE_LIMIT). The key leaves sealed to the
// buyer page's one-time public key (docs/key-custody.md#sealed-delivery): the plain key exists here only between
// opening and sealing, and never in an answer.
import { eq } from "drizzle-orm";
import { addresses, encryptedKeys, type Network, transactions } from "../../schema/db";
import { isIn, SOLD } from "../../schema/purchase-lifecycle";
import type { SupportInfo } from "../../schema/purchases";
import type { DeliverySealer, SealedKey } from "../../schema/sealed-delivery";
import { auditRow } from "../db/audit";
import type { AuthSession } from "../auth/middleware";
import { type Db, writeBatch } from "../db/database";
import type { RequestInfo } from "../http/request-info";
import { openingSecrets, type VaultEnv } from "./keyring";
import { orderIdOfListing } from "../orders/order-listing";
import { openKey } from "./vault";

export type Requester = RequestInfo & { session: AuthSession | null };

export type DeliveryResult =
  | { ok: true; sealed: SealedKey; address: string; network: Network }
  | { ok: false; status: 401 | 403 | 404 | 409 | 500; error: string; message: string; supportInfo?: SupportInfo };

const t = transactions;
const a = addresses;

const read = (db: Db, id: string) =>
  db
    .select({
      id: t.id,
      addressId: t.addressId,
      buyerId: t.buyerId,
      sellerId: t.sellerId,
      buyerWallet: t.buyerWallet,
      status: t.status,
      txHash: t.txHash,
      privateKeyDestroyed: t.privateKeyDestroyed,
      address: a.address,
      network: a.network,
      customOrderId: orderIdOfListing,
    })
    .from(t)
    .innerJoin(a, eq(a.id, t.addressId))
    .where(eq(t.id, id))
    .get();
type Row = NonNullable<Awaited<ReturnType<typeof read>>>;

function audit(who: Requester, row: Pick<Row, "id" | "addressId"> | null, transactionId: string, action: string, detail: Record<string, unknown>) {
  return auditRow({
    transactionId,
    addressId: row?.addressId ?? null,
    action,
    performedBy: who.session?.walletAddress ?? null,
    metadata: detail,
    request: who,
    timestamp: Date.now(),
  });
}

const isBuyer = (row: Row, session: AuthSession) => row.buyerId === session.userId && row.buyerWallet === session.walletAddress;

type Refusal = Extract<DeliveryResult, { ok: false }>;

/** A visitor's answer: nothing read, nothing written. */
const signInFirst = (verb: string): Refusal => ({
  ok: false,
  status: 401,
  error: "Unauthorized",
  message: `Sign in with the buying wallet to ${verb} the private key`,
});

/** Why the signed-in `session` may not touch this purchase's key, or null when it may. Shared by reveal and destroy. */
function refusal(row: Row | undefined, session: AuthSession, verb: string): Refusal | null {
  if (!row) return { ok: false, status: 404, error: "Not Found", message: "Transaction not found" };
  if (!isBuyer(row, session)) {
    const related = row.sellerId === session.userId || session.isAdmin;
    // A stranger learns nothing about the purchase; the seller and admins are told why.
    if (!related) return { ok: false, status: 404, error: "Not Found", message: "Transaction not found" };
    return { ok: false, status: 403, error: "Forbidden", message: `Only the buyer's wallet can ${verb} this private key` };
  }
  if (row.customOrderId !== null) {
    // A custom order's key was never here: the buyer completes it in the browser from their saved secret.
    return {
      ok: false,
      status: 409,
      error: "Conflict",
      message: `This purchase paid custom order ${row.customOrderId}; its key is completed on the order page (/custom-orders/${row.customOrderId}) with your saved key file, and the marketplace never held it`,
    };
  }
  if (row.privateKeyDestroyed) return { ok: false, status: 409, error: "Conflict", message: "The private key has been permanently destroyed" };
  if (!isIn(SOLD, row.status)) {
    return { ok: false, status: 409, error: "Conflict", message: "The private key is available once the payment is confirmed" };
  }
  return null;
}

/** Where buyers reach support: the SUPPORT_CONTACT setting ([vars]), or the default address when it is unset. */
export const DEFAULT_SUPPORT_CONTACT = "support@vanity.market";
const supportContact = (env: { SUPPORT_CONTACT?: string }) => env.SUPPORT_CONTACT?.trim() || DEFAULT_SUPPORT_CONTACT;

/** The key of a purchase, sealed by `seal` (made from the page's public key for this purchase). */
export async function revealKey(
  db: Db,
  env: VaultEnv & { SUPPORT_CONTACT?: string },
  transactionId: string,
  seal: DeliverySealer,
  who: Requester,
): Promise<DeliveryResult> {
  if (!who.session) return signInFirst("reveal");
  const row = await read(db, transactionId);
  const refused = refusal(row, who.session, "reveal");
  if (refused) {
    await db.run(audit(who, row ?? null, transactionId, "key_reveal_refused", { status: refused.status, reason: refused.message }));
    return refused;
  }
  const r = row!;
  const k = encryptedKeys;
  const record = await db
    .select({ encryptedPrivateKey: k.encryptedPrivateKey, salt: k.salt, iv: k.iv, wrappedKey: k.wrappedKey, mac: k.mac, keyVersion: k.keyVersion })
    .from(k)
    .where(eq(k.addressId, r.addressId))
    .get();
  try {
    if (!record) throw new Error("no encrypted key stored for this listing");
    const sealed = await seal(await openKey({ secret: openingSecrets(env), listingId: r.addressId, address: r.address, record }));
    await db.run(audit(who, r, transactionId, "key_revealed", { keyVersion: record.keyVersion, sealed: true }));
    return { ok: true, sealed, address: r.address, network: r.network };
  } catch (err) {
    const reason = err instanceof Error ? err.message : "unknown";
    console.error("key delivery failed", transactionId, reason);
    await db.run(audit(who, r, transactionId, "key_reveal_failed", { reason }));
    return {
      ok: false,
      status: 500,
      error: "Key Delivery Failed",
      message: "Your payment is verified, but the private key could not be decrypted.",
      supportInfo: {
        message: "Your payment is confirmed and recorded. Our team will deliver the key or refund you.",
        instructions: "Contact support with the transaction id and the transaction hash below; do not pay again.",
        txHash: r.txHash,
        contactMethod: supportContact(env),
      },
    };
  }
}

export type DestroyResult = { ok: true } | Extract<DeliveryResult, { ok: false }>;

/** Deletes the ciphertext and marks the purchase, in one batch. Irreversible (docs/key-custody.md#destroying-a-key-and-the-7-day-window). */
export async function destroyKey(db: Db, transactionId: string, who: Requester): Promise<DestroyResult> {
  if (!who.session) return signInFirst("destroy");
  const row = await read(db, transactionId);
  const refused = refusal(row, who.session, "destroy");
  if (refused) {
    await db.run(audit(who, row ?? null, transactionId, "key_destroy_refused", { status: refused.status, reason: refused.message }));
    return refused;
  }
  const r = row!;
  await writeBatch(db, [
    db.delete(encryptedKeys).where(eq(encryptedKeys.addressId, r.addressId)),
    db.update(t).set({ privateKeyDestroyed: true, updatedAt: Date.now() }).where(eq(t.id, r.id)),
    audit(who, r, transactionId, "key_destroyed", {}),
  ]);
  return { ok: true };
}
