// The reconciliation's rules (docs/payments.md "Reconciliation"), as plain functions: which part of
// the chain one run reads, what counts as accounted for, where a balance moved without a transfer we saw, and
// whether a refund may be marked done. No I/O, so they are unit- and mutation-tested; worker/chain reads the
// chain and worker/purchases/reconcile.ts writes what these decide.
import { sameAddress } from "../../schema/address";
import type { Network } from "../../schema/db";
import { networkName } from "../../schema/network";

/** How far one network's platform address has been reconciled (one row of reconcile_cursors). */
export type ReconcileCursor = {
  /** Ethereum: the next block to read; null before the first run. */
  nextBlock: number | null;
  /** Solana: the newest signature read; null before the first run, "" when the address had none then. */
  lastSignature: string | null;
  /** Solana: more signatures arrived than one run reads; the walk back continues before this one ... */
  backlogBefore: string | null;
  /** ... and, once it reaches lastSignature, this one becomes lastSignature. */
  backlogNewest: string | null;
};

export const EMPTY_CURSOR: ReconcileCursor = { nextBlock: null, lastSignature: null, backlogBefore: null, backlogNewest: null };

/**
 * Ethereum: the blocks one run reads, or null when there is nothing new. Only blocks at the required depth
 * (a reorg cannot take them back), and at most `limit` of them. Nothing else holds it back: a transfer the payment
 * scan has not seen yet is offered to its purchase by the reconciliation itself. The first run starts at the current
 * depth (and after the genesis block): what came before the reconciliation existed is not read.
 */
export function ethereumWindow(
  nextBlock: number | null,
  head: number,
  required: number,
  limit: number,
): { from: number; to: number } | { start: number } | null {
  const deepest = head - required + 1;
  // Never the genesis block: its allocations are no transfers (read against a balance of 0 before it, they would be).
  if (nextBlock === null) return { start: Math.max(1, deepest + 1) };
  const to = Math.min(nextBlock + limit - 1, deepest);
  return to < nextBlock ? null : { from: nextBlock, to };
}

/**
 * Per block of a window, the change of the platform's balance that the transfers seen do not explain.
 * `balances[i]` is the balance at the end of block `from - 1 + i` (so one more entry than blocks), `explained[i]`
 * the net change block `from + i` should have made (received minus sent minus fees paid).
 */
export function unexplainedByBlock(from: number, balances: readonly bigint[], explained: readonly bigint[]): { block: number; amount: bigint }[] {
  const out: { block: number; amount: bigint }[] = [];
  for (let i = 0; i < explained.length; i++) {
    const amount = balances[i + 1] - balances[i] - explained[i];
    if (amount !== 0n) out.push({ block: from + i, amount });
  }
  return out;
}

/** Solana: the getSignaturesForAddress window of one run (the first one reads only where the address stands). */
export function solanaWindowParams(c: ReconcileCursor, limit: number): { limit: number; before?: string; until?: string } {
  const until = c.lastSignature ? { until: c.lastSignature } : {};
  return c.backlogBefore === null ? { limit, ...until } : { limit, before: c.backlogBefore, ...until };
}

/** A signature of the platform's page, with the slot its transaction is in. */
export type SolanaSignature = { signature: string; slot: number };

/**
 * Solana: the cursor after a run read `read` (newest first, without a gap, from the newest signature at or below
 * the slot the run stops at) in the window solanaWindowParams gave. `more`: older signatures of the window may be
 * left unread (the page was full, or a call failed before its end), so the walk back continues before the oldest
 * read. `caughtUp`: everything up to the run's slot is read.
 */
export function solanaProgress(c: ReconcileCursor, read: readonly string[], more: boolean): { cursor: ReconcileCursor; caughtUp: boolean } {
  const oldest = read.at(-1);
  if (c.lastSignature === null) {
    // The first run only learns where the address stands; a full page with nothing at or below the slot tells nothing.
    if (read.length > 0) return { cursor: { ...c, lastSignature: read[0], backlogBefore: null, backlogNewest: null }, caughtUp: true };
    return more ? { cursor: c, caughtUp: false } : { cursor: { ...c, lastSignature: "", backlogBefore: null, backlogNewest: null }, caughtUp: true };
  }
  if (c.backlogBefore !== null) {
    if (more) return { cursor: oldest === undefined ? c : { ...c, backlogBefore: oldest }, caughtUp: false };
    // The backlog is read: what arrived after its newest signature is the next run's.
    return { cursor: { ...c, lastSignature: c.backlogNewest, backlogBefore: null, backlogNewest: null }, caughtUp: false };
  }
  if (oldest === undefined) return { cursor: c, caughtUp: !more };
  if (more) return { cursor: { ...c, backlogBefore: oldest, backlogNewest: read[0] }, caughtUp: false };
  return { cursor: { ...c, lastSignature: read[0] }, caughtUp: true };
}

/**
 * Solana, several nodes: the part of the window that `quorum` of them vouch for. Each node's read is cut to the slot
 * `quorum` of them have reached (`through`: every node past it holds the same signatures up to it, in one order),
 * and to the length `quorum` of them read without a gap; those nodes must list the same signatures there, and any
 * node that read less must list a beginning of them. Null when fewer than `quorum` answered; `contradicting`
 * names the nodes (by index) whose lists do not fit the others' (the window then counts for nothing).
 */
export function solanaQuorumWindow(
  reads: ({ through: number; read: readonly (SolanaSignature & { key: string })[]; more: boolean } | null)[],
  quorum: number,
): { through: number; read: (SolanaSignature & { key: string })[]; more: boolean; vouchers: number[] } | { contradicting: number[] } | null {
  const kth = (values: number[]) => (values.length < quorum ? null : [...values].sort((a, b) => b - a)[quorum - 1]);
  const answered = reads.flatMap((r, i) => (r === null ? [] : [{ ...r, i }]));
  const through = kth(answered.map((r) => r.through));
  if (through === null) return null;
  const reached = answered
    .filter((r) => r.through >= through)
    .map((r) => {
      const read = r.read.filter((s) => s.slot <= through);
      return { i: r.i, read, length: r.more ? read.length : Number.POSITIVE_INFINITY };
    });
  const length = kth(reached.map((r) => r.length))!;
  const keyOf = (list: readonly { key: string }[], n: number) => JSON.stringify(list.slice(0, n).map((s) => s.key));
  const vouchers = reached.filter((r) => r.length >= length);
  const groups = new Map<string, number[]>();
  for (const v of vouchers) groups.set(keyOf(v.read, length), [...(groups.get(keyOf(v.read, length)) ?? []), v.i]);
  const sorted = [...groups.values()].sort((a, b) => b.length - a.length);
  if (sorted.length > 1) return { contradicting: sorted[0].length === sorted[1].length ? sorted.flat() : sorted.slice(1).flat() };
  const agreed = vouchers[0].read.slice(0, length);
  const short = reached.filter((r) => r.length < length && keyOf(r.read, r.read.length) !== keyOf(agreed, r.read.length));
  if (short.length > 0) return { contradicting: short.map((r) => r.i) };
  return { through, read: agreed, more: Number.isFinite(length), vouchers: vouchers.map((v) => v.i) };
}

/**
 * A transfer that reached the platform, against what the database holds for its hash: the ledger row's amount
 * (null when there is none) and whether a purchase is waiting on it (pending with that hash).
 *  - credited: a ledger row accounts for all of it;
 *  - short: a ledger row accounts for less than arrived (the rest is a difference);
 *  - in-progress: a purchase is verifying it (the cron job will settle or list it);
 *  - unknown: nothing accounts for it.
 */
export function classifyReceived(
  amount: bigint,
  known: { ledgerAmount: bigint | null; ledgerHeld: boolean; purchaseWaiting: boolean },
): "credited" | "short" | "in-progress" | "unknown" {
  if (known.ledgerAmount !== null) {
    if (known.ledgerHeld) return "in-progress";
    return known.ledgerAmount < amount ? "short" : "credited";
  }
  return known.purchaseWaiting ? "in-progress" : "unknown";
}

/** What the chain says now about a payment to the platform (a refund's re-check). */
export type TransferCheck =
  | { kind: "unavailable" }
  | { kind: "missing" }
  | { kind: "found"; succeeded: boolean; amount: bigint; senders: string[]; confirmations: number };

/**
 * Before an admin marks a refund done: the payment is still on the chain, at the required depth, succeeded, from
 * the recorded sender to the platform, for at least the recorded amount. Null when it is; otherwise why not, in
 * words the admin reads (and the row keeps).
 */
export function refundRecheck(network: Network, row: { sender: string | null; amount: bigint }, seen: TransferCheck, required: number): string | null {
  const chain = networkName(network);
  if (seen.kind === "unavailable") return `The ${chain} node is not answering, so the payment could not be re-checked; try again in a moment.`;
  if (seen.kind === "missing") return "The payment is not on the chain (never mined, or removed by a reorganisation): no money arrived to refund.";
  if (!seen.succeeded) return "The payment transaction failed on chain: no money arrived to refund.";
  if (seen.confirmations < required) return `The payment is ${seen.confirmations} of ${required} confirmations deep; mark it refunded once it is final.`;
  if (seen.amount === 0n) return "The transaction sent nothing to the platform address: no money arrived to refund.";
  if (row.sender === null) return "No sender is recorded for this payment, so there is no one to refund; resolve it from the reconciliation list.";
  const sender = row.sender;
  if (!seen.senders.some((a) => sameAddress(network, a, sender)))
    return `The payment's sender on chain is ${seen.senders.join(", ") || "unknown"}, not ${row.sender} as recorded.`;
  if (seen.amount < row.amount)
    return `The platform received ${seen.amount} base units in this transaction, less than the ${row.amount} recorded: the recorded amount is wrong.`;
  return null;
}
