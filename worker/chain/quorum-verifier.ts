// Several nodes behind the one payment-verifier interface (docs/payments.md#trust-no-single-node): every node is
// asked at once (each with its own timeout), and an answer counts only when `quorum` of them give it identically.
// A node that contradicts the others (another block hash, amount, sender; a transaction the others' chains do not
// hold at the depth it claims; a head far ahead) makes the answer "unavailable" (the purchase waits, nothing is
// released) and is reported to `report` (operations/node-disagreements.ts opens the node-disagreement incident).
// A node that does not answer is not counted either way: with fewer than `quorum` answers, the answer is
// "unavailable" too. Reads that decide no money (formatting, the explorer link) are the first node's.
import type { Network } from "../../schema/db";
import type { PaymentObservation } from "../domain/payment-decision";
import { type ReconcileCursor, solanaProgress, solanaQuorumWindow } from "../domain/reconciliation";
import type { PaymentVerifier, ReceivedTransfer, ReconcileWindow, ScanCursor, ScanWindow, TransferReceipt } from "./payment-types";

export type QuorumNode = { name: string; verifier: PaymentVerifier };

/** What the nodes disagreed about: the nodes named (those outside the agreeing majority; all of them on a tie). */
export type NodeDisagreement = { network: Network; nodes: string[]; hash: string | null; detail: string };

export type DisagreementReport = (d: NodeDisagreement) => Promise<void>;

/**
 * A Solana node that does not hold a transaction another node shows at the payment commitment contradicts it only
 * once its own confirmed slot is this far past the transaction's slot (finalization trails confirmation by about
 * 32 slots; a minute of slots leaves room for a node a little behind).
 */
export const SOLANA_LAG_SLOTS = 150;
/** A node whose depth for a payment exceeds the quorum's by more than this many blocks claims a head the others do not have. */
export const HEAD_AHEAD_BLOCKS = 64;

type Found<T> = Extract<T, { kind: "found" }>;
type Answer = { kind: "found" | "missing" | "unavailable"; confirmations?: number; blockNumber?: number | null };

const UNAVAILABLE = { kind: "unavailable" } as const;

/** The `k`-th highest of `values` (k nodes report at least it), or null with fewer than k values. */
export function kthHighest(values: number[], k: number): number | null {
  if (values.length < k || k < 1) return null;
  return [...values].sort((a, b) => b - a)[k - 1];
}

/** Indexes grouped by key, the largest group first. */
function groupBy(keys: (string | null)[]): number[][] {
  const groups = new Map<string, number[]>();
  keys.forEach((key, i) => {
    if (key === null) return;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  return [...groups.values()].sort((a, b) => b.length - a.length);
}

/** The nodes outside the largest group; every node in a group when the largest is not alone in its size. */
function dissenters(groups: number[][]): number[] {
  // Stryker disable next-line ConditionalExpression,BlockStatement,ArrayDeclaration: every caller has two groups or more; one group has no dissenter.
  if (groups.length < 2) return [];
  if (groups[0].length === groups[1].length) return groups.flat();
  return groups.slice(1).flat();
}

const transferKey = (t: ReceivedTransfer) => JSON.stringify([t.hash, t.amount.toString(), t.senders, t.direct, t.references, t.blockNumber]);

/** What identifies a payment observation, apart from its depth and the fee (never part of a decision). */
function observationKey(o: Found<PaymentObservation>): string {
  return JSON.stringify([
    o.succeeded,
    o.onExpectedChain,
    o.fromBuyer,
    o.toPlatform,
    o.carriesReference,
    o.amount.toString(),
    o.block,
    o.blockNumber,
    o.minedAt,
  ]);
}

function receiptKey(r: Found<TransferReceipt>): string {
  return JSON.stringify([r.succeeded, r.amount.toString(), r.senders, r.direct, r.references, r.blockNumber]);
}

/** The nodes of one network and what they must agree on: every named function below decides for them. */
type Quorum = {
  network: Network;
  nodes: QuorumNode[];
  /** How many nodes must give an answer identically (the quorum, at most the number of nodes). */
  k: number;
  /** The depth at which a payment is final (the first node's: every node reads the same deployment's rules). */
  required: number;
  report: DisagreementReport;
};

/** Records that the nodes at `indexes` contradict the others: logged, and reported (a failing report is only logged). */
async function disagree(q: Quorum, indexes: number[], hash: string | null, detail: string) {
  const named = [...new Set(indexes)].map((i) => q.nodes[i].name);
  console.error(`${q.network} nodes disagree (${named.join(", ")})${hash ? ` about ${hash}` : ""}: ${detail}`);
  try {
    await q.report({ network: q.network, nodes: named, hash, detail });
  } catch (err) {
    console.error("a node disagreement could not be recorded:", err instanceof Error ? err.message : String(err));
  }
}

/** The newest block or confirmed slot that `quorum` nodes have reached (a node far ahead or behind moves nothing). */
async function quorumPosition(q: Quorum): Promise<number | null> {
  const heads = await Promise.all(q.nodes.map((n) => n.verifier.chainPosition()));
  return kthHighest(
    heads.filter((h): h is number => h !== null),
    q.k,
  );
}

/**
 * Whether nodes report one transaction in different versions, reported as a disagreement once a node calls its
 * version final: shallow blocks differ between honest nodes during a reorganisation.
 */
async function differentVersions<T extends Answer>(q: Quorum, hash: string, answers: T[], groups: number[][], what: string): Promise<boolean> {
  if (groups.length <= 1) return false;
  if (groups.flat().some((i) => (answers[i].confirmations ?? 0) >= q.required))
    await disagree(q, dissenters(groups), hash, `they report ${what} differently (block, amount, sender or outcome)`);
  return true;
}

/** Whether an agreeing node claims a depth far past the quorum's `depth` (a head the others do not have); reported. */
async function farAhead<T extends Answer>(q: Quorum, hash: string, answers: T[], agreeing: number[], depth: number, what: string): Promise<boolean> {
  const ahead = agreeing.filter((i) => (answers[i].confirmations ?? 0) > depth + HEAD_AHEAD_BLOCKS);
  if (ahead.length === 0) return false;
  await disagree(q, ahead, hash, `a node reports ${what} far deeper than the others (a head the others do not have)`);
  return true;
}

/**
 * Whether the transaction some nodes show as final is unknown to nodes whose chains are past its block (a
 * contradiction); reported, naming the smaller side, or both on a tie (nothing tells which one lies).
 */
async function finalUnknownToOthers<T extends Answer>(
  q: Quorum,
  hash: string,
  answers: T[],
  agreeing: number[],
  depths: number[],
  what: string,
): Promise<boolean> {
  const missing = answers.flatMap((a, i) => (a.kind === "missing" ? [i] : []));
  if (missing.length === 0 || Math.max(...depths) < q.required) return false;
  const heads = await Promise.all(missing.map((i) => q.nodes[i].verifier.chainPosition()));
  const block = answers[agreeing[0]].blockNumber ?? null;
  const margin = q.network === "ethereum" ? q.required - 1 : SOLANA_LAG_SLOTS;
  const contradicting = missing.filter((_, j) => block !== null && heads[j] !== null && heads[j]! >= block + margin);
  if (contradicting.length === 0) return false;
  const named = contradicting.length > agreeing.length ? agreeing : contradicting.length < agreeing.length ? contradicting : [...contradicting, ...agreeing];
  await disagree(q, named, hash, `some nodes show ${what} as final in block ${block}; others, past that block, do not hold it`);
  return true;
}

/**
 * One answer about one transaction from every node: the agreed one, or "unavailable". `key` is what must be equal;
 * the depth is the quorum's (the k-th deepest), so a node far ahead cannot deepen a payment.
 */
async function agree<T extends Answer>(q: Quorum, hash: string, answers: T[], key: (found: Found<T>) => string, what: string): Promise<T | typeof UNAVAILABLE> {
  const groups = groupBy(answers.map((a) => (a.kind === "found" ? key(a as Found<T>) : null)));
  // Nothing counts until the nodes agree on one version.
  if (await differentVersions(q, hash, answers, groups, what)) return UNAVAILABLE;
  const agreeing = groups[0] ?? [];
  if (agreeing.length === 0) {
    const missing = answers.filter((a) => a.kind === "missing");
    return missing.length >= q.k ? missing[0] : UNAVAILABLE;
  }
  const depths = agreeing.map((i) => answers[i].confirmations ?? 0);
  const depth = kthHighest(depths, Math.min(q.k, depths.length)) ?? 0;
  if (await farAhead(q, hash, answers, agreeing, depth, what)) return UNAVAILABLE;
  if (await finalUnknownToOthers(q, hash, answers, agreeing, depths, what)) return UNAVAILABLE;
  if (agreeing.length < q.k) return UNAVAILABLE;
  return { ...answers[agreeing[0]], confirmations: depth };
}

/**
 * Transfers of the windows that read the same part of the chain, when they all list the same ones; null (and a
 * disagreement) otherwise.
 */
async function sameTransfers(q: Quorum, indexes: number[], lists: ReceivedTransfer[][], extra: string[] = []): Promise<ReceivedTransfer[] | null> {
  const keys = lists.map((l, j) => JSON.stringify([[...l.map(transferKey)].sort(), extra[j] ?? null]));
  const groups = groupBy(keys);
  if (groups.length > 1) {
    const other = lists.flat().find((t) => !lists.every((l) => l.some((x) => transferKey(x) === transferKey(t))));
    await disagree(
      q,
      dissenters(groups).map((j) => indexes[j]),
      other?.hash ?? null,
      "they list different transfers to the platform in the same blocks",
    );
    return null;
  }
  return lists[0] ?? [];
}

/** Transfers reported identically by `quorum` of the windows (those not yet final on all of them: candidates only). */
function reportedByQuorum(q: Quorum, lists: ReceivedTransfer[][]): ReceivedTransfer[] {
  const counts = new Map<string, { t: ReceivedTransfer; n: number }>();
  for (const list of lists)
    for (const t of new Map(list.map((x) => [transferKey(x), x])).values()) {
      const entry = counts.get(transferKey(t)) ?? { t, n: 0 };
      entry.n += 1;
      counts.set(transferKey(t), entry);
    }
  return [...counts.values()].filter((e) => e.n >= q.k).map((e) => e.t);
}

/** Ethereum's scan window: up to the block `quorum` nodes passed, where every node that passed it lists the same transfers. */
async function ethereumScan(q: Quorum, windows: (ScanWindow | null)[], cursor: ScanWindow["cursor"]): Promise<ScanWindow | null> {
  const answered = windows.flatMap((w, i) => (w === null || w.cursor.nextBlock === null ? [] : [{ w, i, next: w.cursor.nextBlock }]));
  const next = kthHighest(
    answered.map((a) => a.next),
    q.k,
  );
  if (next === null) return null;
  // Every node that passed `next` read all the blocks before it: there, they must list the same transfers.
  const vouchers = answered.filter((a) => a.next >= next);
  const final = await sameTransfers(
    q,
    vouchers.map((a) => a.i),
    vouchers.map((a) => a.w.transfers.filter((t) => t.blockNumber !== null && t.blockNumber < next)),
  );
  if (final === null) return null;
  const recent = reportedByQuorum(
    q,
    answered.map((a) => a.w.transfers.filter((t) => t.blockNumber === null || t.blockNumber >= next)),
  );
  return { transfers: [...final, ...recent], cursor: { ...cursor, nextBlock: next } };
}

/** Ethereum's reconciliation window: through the block `quorum` nodes read, with the same transfers and unexplained blocks on each. */
async function ethereumReconcile(q: Quorum, windows: (ReconcileWindow | null)[]): Promise<ReconcileWindow | null> {
  const answered = windows.flatMap((w, i) => (w === null || w.throughBlock === null ? [] : [{ w, i, through: w.throughBlock }]));
  const through = kthHighest(
    answered.map((a) => a.through),
    q.k,
  );
  if (through === null) return null;
  const vouchers = answered.filter((a) => a.through >= through);
  const transfers = await sameTransfers(
    q,
    vouchers.map((a) => a.i),
    vouchers.map((a) => a.w.transfers.filter((t) => t.blockNumber !== null && t.blockNumber <= through)),
    vouchers.map((a) => JSON.stringify(a.w.unexplained.filter((u) => u.block <= through).map((u) => [u.block, u.amount.toString()]))),
  );
  if (transfers === null) return null;
  const sample = vouchers[0].w;
  return {
    transfers,
    unexplained: sample.unexplained.filter((u) => u.block <= through),
    cursor: { ...sample.cursor, nextBlock: through + 1 },
    through: String(through),
    throughBlock: through,
    caughtUp: vouchers.filter((a) => a.through === through).every((a) => a.w.caughtUp),
  };
}

/** Solana windows are cursors of signatures: those of the nodes that moved to the same cursor must list the same transfers. */
async function solanaWindows<W extends ScanWindow | ReconcileWindow>(q: Quorum, windows: (W | null)[]): Promise<W | "split" | null> {
  const groups = groupBy(windows.map((w) => (w === null ? null : JSON.stringify(w.cursor))));
  const group = groups[0];
  if (!group || group.length < q.k) return "split";
  const transfers = await sameTransfers(
    q,
    group,
    group.map((i) => windows[i]!.transfers),
  );
  if (transfers === null) return null;
  return windows[group[0]]!;
}

/**
 * Solana: the nodes' newest signatures differ whenever one is a slot ahead (steady traffic makes that the rule),
 * so the window is compared on what a quorum of them hold: every node stops at the slot `quorum` of them have
 * reached, and the signatures up to it that `quorum` of them read (domain/reconciliation.ts solanaQuorumWindow)
 * must be the same, with the same transfers, on every node that read them.
 */
async function solanaReconcile(q: Quorum, cursor: ReconcileCursor, opts: { limit: number }): Promise<ReconcileWindow | null> {
  const throughSlot = await quorumPosition(q);
  if (throughSlot === null) return null;
  const windows = await Promise.all(q.nodes.map((n) => n.verifier.reconcile(cursor, { ...opts, throughSlot })));
  const byHash = windows.map((w) => new Map((w?.transfers ?? []).map((t) => [t.hash, t])));
  const agreed = solanaQuorumWindow(
    windows.map((w, i) =>
      w?.solana
        ? {
            ...w.solana,
            read: w.solana.read.map((s) => {
              const t = byHash[i].get(s.signature);
              return { ...s, key: JSON.stringify([s.signature, s.slot, t ? transferKey(t) : null]) };
            }),
          }
        : null,
    ),
    q.k,
  );
  if (agreed === null) return null;
  if ("contradicting" in agreed) {
    await disagree(q, agreed.contradicting, null, "they list different signatures or transfers to the platform up to a slot they all hold");
    return null;
  }
  const signatures = new Set(agreed.read.map((s) => s.signature));
  const transfers = [...byHash[agreed.vouchers[0]].values()].filter((t) => signatures.has(t.hash));
  const { cursor: next, caughtUp } = solanaProgress(
    cursor,
    agreed.read.map((s) => s.signature),
    agreed.more,
  );
  return {
    transfers,
    unexplained: [],
    cursor: next,
    through: next.lastSignature || null,
    throughBlock: caughtUp ? agreed.through : null,
    caughtUp,
    solana: { through: agreed.through, read: agreed.read.map(({ signature, slot }) => ({ signature, slot })), more: agreed.more },
  };
}

/** Where every node's scan starts: on Ethereum's first run, the block the quorum's head makes final; null when no quorum answers. */
async function scanStart(q: Quorum, cursor: ScanCursor, startAt: number | null): Promise<ScanCursor | null> {
  if (q.network !== "ethereum" || cursor.nextBlock !== null) return cursor;
  const head = await quorumPosition(q);
  if (head === null) return null;
  const final = head - q.required + 1;
  return { ...cursor, nextBlock: Math.max(0, Math.min(startAt ?? final, final)) };
}

/** The payment scan over every node: Ethereum's window by block, Solana's by cursor (what the quorum lists, when the nodes' newest differ). */
async function quorumScan(q: Quorum, cursor: ScanCursor, opts: { limit: number; startAt: number | null }): Promise<ScanWindow | null> {
  const from = await scanStart(q, cursor, opts.startAt);
  if (from === null) return null;
  const windows = await Promise.all(q.nodes.map((n) => n.verifier.scanTransfers(from, opts)));
  if (q.network === "ethereum") return ethereumScan(q, windows, from);
  const agreed = await solanaWindows(q, windows);
  if (agreed === null) return null;
  // The nodes' newest signatures differ (one is a transaction ahead): what the quorum lists, read again next run.
  if (agreed === "split")
    return {
      transfers: reportedByQuorum(
        q,
        windows.flatMap((w) => (w ? [w.transfers] : [])),
      ),
      cursor,
    };
  return agreed;
}

/** The reconciliation over every node. */
async function quorumReconcile(q: Quorum, cursor: ReconcileCursor, opts: { limit: number }): Promise<ReconcileWindow | null> {
  if (q.network === "ethereum") return ethereumReconcile(q, await Promise.all(q.nodes.map((n) => n.verifier.reconcile(cursor, opts))));
  return solanaReconcile(q, cursor, opts);
}

export function quorumVerifier(network: Network, nodes: QuorumNode[], quorum: number, report: DisagreementReport): PaymentVerifier {
  const first = nodes[0].verifier;
  const q: Quorum = { network, nodes, k: Math.max(1, Math.min(quorum, nodes.length)), required: first.requiredConfirmations, report };
  return {
    network,
    recipient: first.recipient,
    requiredConfirmations: q.required,
    dustBelow: first.dustBelow,
    inspect: async (hash, expect): Promise<PaymentObservation> =>
      agree(q, hash, await Promise.all(nodes.map((n) => n.verifier.inspect(hash, expect))), observationKey, "the payment"),
    received: async (hash): Promise<TransferReceipt> =>
      agree(q, hash, await Promise.all(nodes.map((n) => n.verifier.received(hash))), receiptKey, "the transfer"),
    scanTransfers: (cursor, opts) => quorumScan(q, cursor, opts),
    reconcile: (cursor, opts) => quorumReconcile(q, cursor, opts),
    chainPosition: () => quorumPosition(q),
    explorerUrl: (hash) => first.explorerUrl(hash),
    formatAmount: (units) => first.formatAmount(units),
  };
}
