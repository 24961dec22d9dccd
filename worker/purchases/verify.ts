// Verifying a reported (or scanned) payment and carrying out what it means: read the facts from the chain
// (through the payment verifier, whatever the network) and from D1, let domain/payment-decision.ts decide,
// then write the outcome. Every write is conditional on the state it was decided from and the database refuses
// what would break an invariant (ledger.ts), so a second run (the confirm call and the cron job at once, or two
// cron runs) changes nothing twice; a write that loses such a race is decided again from the fresh state, so
// money seen on the chain is never left unrecorded because another run got there first.
import { type SQL, sql } from "drizzle-orm";
import type { AttentionReason, FailureReason } from "../../schema/purchases";
import { type PaymentVerifier, paymentVerifier, type VerifierEnv } from "../chain/payment-verifier";
import { type Db, writeBatch } from "../db";
import { decidePayment, type PaymentDecision, type PaymentObservation, type PurchaseFacts } from "../domain/payment-decision";
import { escrow, isIntegrityError, ledgerState } from "./ledger";
import { findPurchase, type PurchaseRow } from "./purchase-row";
import { settlePurchase } from "./settle";

export type VerifyOutcome = { decision: PaymentDecision; observation: PaymentObservation; requiredConfirmations: number };

type Found = Extract<PaymentObservation, { kind: "found" }>;

/** The decision's facts about `p` and `hash`, read now. */
export async function purchaseFacts(db: Db, verifier: PaymentVerifier, p: PurchaseRow, hash: string, now: number): Promise<PurchaseFacts> {
  const [ledger, sold] = await Promise.all([
    ledgerState(db, p.network, hash, p.id),
    db.get<{ n: number }>(sql`SELECT count(*) AS n FROM transactions WHERE address_id = ${p.address_id} AND status IN ('verified', 'completed') AND id != ${p.id}`),
  ]);
  return {
    status: p.status,
    expected: BigInt(p.amount_base_units ?? "0"),
    requiredConfirmations: verifier.requiredConfirmations,
    expiresAt: p.expires_at ?? p.created_at,
    now,
    hashIsCurrent: p.tx_hash === hash,
    lastSeenBlock: p.payment_block,
    reservedBlock: p.network === "ethereum" ? p.reserved_block : null,
    ledger,
    listingSold: (sold?.n ?? 0) > 0,
  };
}

export async function verifyPayment(db: Db, env: VerifierEnv, purchase: PurchaseRow, hash: string, now = Date.now()): Promise<VerifyOutcome> {
  const verifier = paymentVerifier(env, purchase.network);
  const observation = await verifier.inspect(hash, { buyer: purchase.buyer_wallet ?? "", reference: purchase.payment_reference });
  let row = purchase;
  let decision = decidePayment(await purchaseFacts(db, verifier, row, hash, now), observation);
  if (!(await apply(db, verifier, row, hash, observation, decision, now))) {
    // The write lost a race (another run settled this purchase, or recorded or settled this hash, first): the
    // same chain facts, decided again against the database as it is now.
    row = (await findPurchase(db, purchase.id)) ?? purchase;
    decision = decidePayment(await purchaseFacts(db, verifier, row, hash, now), observation);
    if (!(await apply(db, verifier, row, hash, observation, decision, now))) {
      console.error(`payment ${hash} for purchase ${purchase.id}: lost the race twice; the next run decides again`);
    }
  }
  return { decision, observation, requiredConfirmations: verifier.requiredConfirmations };
}

/** Carries out the decision; false when the database refused the write because the state moved on meanwhile. */
async function apply(db: Db, verifier: PaymentVerifier, p: PurchaseRow, hash: string, seen: PaymentObservation, decision: PaymentDecision, now: number): Promise<boolean> {
  const found = seen.kind === "found" ? seen : null;
  const audit = (status: string, error: string | null) =>
    sql`
      INSERT INTO blockchain_transaction_audit (transaction_id, tx_hash, block_number, block_hash, confirmations, to_address, value, status, network_status,
                                                error_message, network, currency, created_at, updated_at, explorer_urls)
      VALUES (${p.id}, ${hash}, ${found?.blockNumber ?? null}, ${found?.block || null}, ${found?.confirmations ?? null}, ${verifier.recipient},
              ${found ? found.amount.toString() : null}, ${status}, ${seen.kind}, ${error}, ${p.network}, ${p.currency}, ${now}, ${now},
              ${JSON.stringify([verifier.explorerUrl(hash)].filter(Boolean))})`;
  const batch = async (statements: SQL[]) => {
    try {
      await writeBatch(db, statements);
      return true;
    } catch (err) {
      if (isIntegrityError(err)) return false;
      throw err;
    }
  };

  switch (decision.outcome) {
    case "done":
      return true;
    case "later":
      return batch([audit(`later-${decision.note}`, `payment for a purchase that is ${p.status} is not final yet; nothing recorded`)]);
    case "wait": {
      const statements = [
        sql`UPDATE transactions SET status = 'pending', tx_hash = ${hash}, confirmations = ${decision.confirmations},
                   payment_block = coalesce(${found?.block || null}, payment_block), updated_at = ${now}, failure_reason = NULL
                   WHERE id = ${p.id} AND status IN ('initiated', 'pending')`,
        audit(decision.note, decision.note === "reorged" ? "payment left the canonical chain before the required depth" : null),
      ];
      if (decision.holdEscrow && found) statements.push(escrow(verifier, p, hash, found.amount, { status: "held", reason: null, refund: null }, now));
      return batch(statements);
    }
    case "settle":
      return settlePurchase(db, verifier, p, hash, found!, decision.excess, now);
    case "reject":
      return batch(rejectStatements(verifier, p, hash, found, decision.reason, decision.purchase, decision.refund, now, audit));
    case "refund":
      return batch([
        escrow(verifier, p, hash, found!.amount, { status: "refund", reason: decision.reason, refund: found!.amount }, now),
        audit(`refund-${decision.reason}`, `payment received for a purchase that is ${p.status}; listed for refund`),
      ]);
  }
}

function rejectStatements(
  verifier: PaymentVerifier,
  p: PurchaseRow,
  hash: string,
  found: Found | null,
  reason: FailureReason,
  purchase: "reopen" | "close" | "keep",
  refund: AttentionReason | null,
  now: number,
  audit: (status: string, error: string | null) => SQL,
): SQL[] {
  // Only the purchase's own report (or none) is undone: a pending purchase waiting on another hash keeps it.
  const own = sql`id = ${p.id} AND status IN ('initiated', 'pending') AND (tx_hash IS NULL OR tx_hash = ${hash})`;
  const statements: SQL[] = [];
  if (purchase === "reopen") {
    statements.push(sql`UPDATE transactions SET status = 'initiated', tx_hash = NULL, failure_reason = ${reason}, confirmations = 0, payment_block = NULL,
                               updated_at = ${now} WHERE ${own}`);
  } else if (purchase === "close") {
    statements.push(sql`UPDATE transactions SET status = 'failed', tx_hash = coalesce(tx_hash, ${hash}), failure_reason = ${reason}, confirmations = 0,
                               payment_block = NULL, updated_at = ${now} WHERE ${own}`);
  }
  statements.push(audit(`rejected-${reason}`, reason));
  if (refund && found) statements.push(escrow(verifier, p, hash, found.amount, { status: "refund", reason: refund, refund: found.amount }, now));
  return statements;
}
