// Verifying a reported (or scanned) payment and carrying out what it means: read the facts from the chain
// (through the payment verifier, whatever the network) and from D1, let domain/payment-decision.ts decide,
// then write the outcome. Every write is conditional on the state it was decided from and the database refuses
// what would break an invariant (ledger.ts), so a second run (the confirm call and the cron job at once, or two
// cron runs) changes nothing twice; a write that loses such a race is decided again from the fresh state, so
// money seen on the chain is never left unrecorded because another run got there first.
import { and, eq, ne, or, isNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { blockchainTransactionAudit, transactions } from "../../schema/db";
import { SOLD, transitionTo } from "../../schema/purchase-lifecycle";
import { paymentVerifier } from "../chain/payment-verifier";
import type { Deployment } from "../deployment/deployment";
import { columnList, type Db, writeBatch } from "../db/database";
import { decidePayment, firstPaymentBlock, type PaymentDecision, type PaymentObservation, type PurchaseFacts } from "../domain/payment-decision";
import { recordDisagreements } from "../operations/node-disagreements";
import { escrow, isIntegrityError, ledgerState } from "./ledger";
import type { PaymentContext } from "./payment-context";
import { findPurchase, type PurchaseRow } from "./purchase-row";
import { settlePurchase } from "./settle";
import { canMove, statusIn } from "./status-sql";
import { ledgerTo } from "../../schema/ledger-lifecycle";

const t = transactions;
const bta = blockchainTransactionAudit;

export type VerifyOutcome = { decision: PaymentDecision; observation: PaymentObservation; requiredConfirmations: number };

type Found = Extract<PaymentObservation, { kind: "found" }>;

/** The decision's facts about the context's purchase and hash, read now. */
export async function purchaseFacts({ db, verifier, purchase: p, hash, now }: PaymentContext): Promise<PurchaseFacts> {
  const [ledger, sold] = await Promise.all([
    ledgerState(db, p.network, hash, p.id),
    db
      .select({ n: sql<number>`count(*)` })
      .from(t)
      .where(and(eq(t.addressId, p.addressId), statusIn(t.status, SOLD), ne(t.id, p.id)))
      .get(),
  ]);
  return {
    status: p.status,
    expected: BigInt(p.amountBaseUnits ?? "0"),
    requiredConfirmations: verifier.requiredConfirmations,
    expiresAt: p.expiresAt ?? p.createdAt,
    now,
    hashIsCurrent: p.txHash === hash,
    lastSeenBlock: p.paymentBlock,
    createdAt: p.createdAt,
    firstPaymentBlock: firstPaymentBlock(p.network, p.reservedBlock),
    ledger,
    listingSold: (sold?.n ?? 0) > 0,
  };
}

export async function verifyPayment(db: Db, deployment: Deployment, purchase: PurchaseRow, hash: string, now = Date.now()): Promise<VerifyOutcome> {
  const verifier = paymentVerifier(deployment, purchase.network, recordDisagreements(db));
  const observation = await verifier.inspect(hash, { buyer: purchase.buyerWallet ?? "", reference: purchase.paymentReference });
  let ctx: PaymentContext = { db, deployment, verifier, purchase, hash, now };
  let decision = decidePayment(await purchaseFacts(ctx), observation);
  if (!(await apply(ctx, observation, decision))) {
    // The write lost a race (another run settled this purchase, or recorded or settled this hash, first): the
    // same chain facts, decided again against the database as it is now.
    ctx = { ...ctx, purchase: (await findPurchase(db, purchase.id)) ?? purchase };
    decision = decidePayment(await purchaseFacts(ctx), observation);
    if (!(await apply(ctx, observation, decision))) {
      console.error(`payment ${hash} for purchase ${purchase.id}: lost the race twice; the next run decides again`);
    }
  }
  return { decision, observation, requiredConfirmations: verifier.requiredConfirmations };
}

/** Carries out the decision; false when the database refused the write because the state moved on meanwhile. */
async function apply(ctx: PaymentContext, seen: PaymentObservation, decision: PaymentDecision): Promise<boolean> {
  const { db, verifier, purchase: p, hash, now } = ctx;
  const found = seen.kind === "found" ? seen : null;
  const explorer = JSON.stringify([verifier.explorerUrl(hash)].filter(Boolean));
  // One chain-audit row per change, not per run (docs/payments.md#deadlines): a row is written only when the
  // purchase's latest row for this hash says something else (another outcome, what the node said, the depth, the
  // block), so a purchase waiting on a node that does not answer is recorded once, not every minute.
  const audit = (status: string, error: string | null) => {
    const blockHash = found?.block || null;
    const confirmations = found?.confirmations ?? null;
    return sql`
      INSERT INTO ${bta} ${columnList(
        bta.transactionId,
        bta.txHash,
        bta.blockNumber,
        bta.blockHash,
        bta.confirmations,
        bta.toAddress,
        bta.value,
        bta.status,
        bta.networkStatus,
        bta.errorMessage,
        bta.network,
        bta.currency,
        bta.createdAt,
        bta.updatedAt,
        bta.explorerUrls,
      )}
      SELECT ${p.id}, ${hash}, ${found?.blockNumber ?? null}, ${blockHash}, ${confirmations}, ${verifier.recipient},
             ${found ? found.amount.toString() : null}, ${status}, ${seen.kind}, ${error}, ${p.network}, ${p.currency}, ${now}, ${now}, ${explorer}
      WHERE NOT EXISTS (
        SELECT 1 FROM ${bta} WHERE ${bta.id} = (SELECT max(${bta.id}) FROM ${bta} WHERE ${bta.transactionId} = ${p.id} AND ${bta.txHash} = ${hash})
          AND ${bta.status} = ${status} AND ${bta.networkStatus} = ${seen.kind}
          AND ${bta.confirmations} IS ${confirmations} AND ${bta.blockHash} IS ${blockHash})`;
  };
  const batch = async (statements: SQLWrapper[]) => {
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
      // The hash becomes the purchase's payment only if it is the buyer's: a transfer the chain shows the buyer
      // sent, or already the purchase's report (rule 5 of the decision, held here too against a report that
      // changed meanwhile).
      const theBuyers = found?.fromBuyer ? sql`1 = 1` : eq(t.txHash, hash);
      const statements = [
        db
          .update(t)
          .set({
            status: transitionTo("wait"),
            txHash: hash,
            confirmations: decision.confirmations,
            paymentBlock: sql`coalesce(${found?.block || null}, ${t.paymentBlock})`,
            // When this payment was first reported or found (the purchase page's "taking longer than usual").
            reportedAt: sql`CASE WHEN ${t.txHash} = ${hash} THEN coalesce(${t.reportedAt}, ${now}) ELSE ${now} END`,
            updatedAt: now,
            failureReason: null,
          })
          .where(and(eq(t.id, p.id), canMove(t.status, "wait"), theBuyers)),
        audit(decision.note, decision.note === "reorged" ? "payment left the canonical chain before the required depth" : null),
      ];
      if (decision.holdEscrow && found) statements.push(escrow(ctx, found.amount, { status: ledgerTo("hold"), reason: null, refund: null }));
      return batch(statements);
    }
    case "settle":
      return settlePurchase(ctx, found!, decision.excess);
    case "reject":
      return batch(rejectStatements(ctx, found, decision, audit));
    case "refund":
      return batch([
        escrow(ctx, found!.amount, { status: ledgerTo("refuse"), reason: decision.reason, refund: found!.amount }),
        audit(`refund-${decision.reason}`, `payment received for a purchase that is ${p.status}; listed for refund`),
      ]);
  }
}

/** What a rejection writes: the purchase reopened, closed or kept as the decision says, its audit row, and any refund listed. */
function rejectStatements(
  ctx: PaymentContext,
  found: Found | null,
  { reason, purchase, refund }: Extract<PaymentDecision, { outcome: "reject" }>,
  audit: (status: string, error: string | null) => SQL,
): SQLWrapper[] {
  const { db, purchase: p, hash, now } = ctx;
  // Only the purchase's own report (or none) is undone: a pending purchase waiting on another hash keeps it. A
  // decision made on the purchase's report holds only while it still is the report.
  const reported = p.txHash === hash ? eq(t.txHash, hash) : or(isNull(t.txHash), eq(t.txHash, hash));
  const own = (transition: "reopen" | "reject") => and(eq(t.id, p.id), canMove(t.status, transition), reported);
  const statements: SQLWrapper[] = [];
  if (purchase === "reopen") {
    statements.push(
      db
        .update(t)
        .set({ status: transitionTo("reopen"), txHash: null, failureReason: reason, confirmations: 0, paymentBlock: null, updatedAt: now })
        .where(own("reopen")),
    );
  } else if (purchase === "close") {
    statements.push(
      db
        .update(t)
        .set({
          status: transitionTo("reject"),
          txHash: sql`coalesce(${t.txHash}, ${hash})`,
          failureReason: reason,
          confirmations: 0,
          paymentBlock: null,
          updatedAt: now,
        })
        .where(own("reject")),
    );
  }
  statements.push(audit(`rejected-${reason}`, reason));
  if (refund && found) statements.push(escrow(ctx, found.amount, { status: ledgerTo("refuse"), reason: refund, refund: found.amount }));
  return statements;
}
