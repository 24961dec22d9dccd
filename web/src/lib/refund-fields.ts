// What Admin > Payments shows for a payment listed for refund (docs/payments.md#admin--payments): every amount
// exactly, from wei or lamports (0.000999999999999999 ETH never reads as 0.001), the difference stated in words, and
// only the fields that mean something for its reason: an unmatched transfer matches no purchase, so it has no amount
// due and no purchase; an overpayment owes back its excess, not what arrived.
import type { AttentionPayment, AttentionReason } from "../../../schema/admin-payments";
import { formatBaseUnits, paymentDifference } from "../../../schema/money";

export type RefundField = { label: string; value: string; testId: string };

/** Reasons tied to the purchase the money was for (the others match none). */
const FOR_A_PURCHASE: readonly AttentionReason[] = ["late", "partial", "duplicate", "over", "failed"];
/** Reasons where what was due explains the refund: paid late, paid short, paid too much. */
const DUE_MATTERS: readonly AttentionReason[] = ["late", "partial", "over"];
/** Reasons whose refund is the difference from what was due. */
const DIFFERENCE_MATTERS: readonly AttentionReason[] = ["partial", "over"];

export function refundFields(p: AttentionPayment): { fields: RefundField[]; showPurchase: boolean } {
  const coin = (units: string) => `${formatBaseUnits(BigInt(units), p.currency)} ${p.currency}`;
  const fields: RefundField[] = [{ label: "Received", value: coin(p.amountBaseUnits), testId: "received" }];
  if (DUE_MATTERS.includes(p.reason) && p.expectedBaseUnits !== null) {
    fields.push({ label: "Due", value: coin(p.expectedBaseUnits), testId: "due" });
    if (DIFFERENCE_MATTERS.includes(p.reason)) {
      fields.push({ label: "Difference", value: paymentDifference(BigInt(p.amountBaseUnits), BigInt(p.expectedBaseUnits), p.currency), testId: "difference" });
    }
  }
  fields.push({ label: "To refund", value: coin(p.refundBaseUnits), testId: "to-refund" });
  return { fields, showPurchase: FOR_A_PURCHASE.includes(p.reason) && p.transactionId !== null };
}
