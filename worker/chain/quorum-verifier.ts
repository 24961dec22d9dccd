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
import type { PaymentVerifier, ReceivedTransfer, ReconcileWindow, ScanWindow, TransferReceipt } from "./payment-types";

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

export function quorumVerifier(network: Network, nodes: QuorumNode[], quorum: number, report: DisagreementReport): PaymentVerifier {
  const first = nodes[0].verifier;
  const required = first.requiredConfirmations;
  const k = Math.max(1, Math.min(quorum, nodes.length));

  async function disagree(indexes: number[], hash: string | null, detail: string) {
    const named = [...new Set(indexes)].map((i) => nodes[i].name);
    console.error(`${network} nodes disagree (${named.join(", ")})${hash ? ` about ${hash}` : ""}: ${detail}`);
    try {
      await report({ network, nodes: named, hash, detail });
    } catch (err) {
      console.error("a node disagreement could not be recorded:", err instanceof Error ? err.message : String(err));
    }
  }

  /** The newest block or confirmed slot that `quorum` nodes have reached (a node far ahead or behind moves nothing). */
  async function chainPosition(): Promise<number | null> {
    const heads = await Promise.all(nodes.map((n) => n.verifier.chainPosition()));
    return kthHighest(
      heads.filter((h): h is number => h !== null),
      k,
    );
  }

  /**
   * One answer about one transaction from every node: the agreed one, or "unavailable". `key` is what must be equal;
   * the depth is the quorum's (the k-th deepest), so a node far ahead cannot deepen a payment.
   */
  async function agree<T extends Answer>(hash: string, answers: T[], key: (found: Found<T>) => string, what: string): Promise<T | typeof UNAVAILABLE> {
    const found = answers.map((a) => (a.kind === "found" ? key(a as Found<T>) : null));
    const groups = groupBy(found);
    if (groups.length > 1) {
      // Shallow blocks differ between honest nodes during a reorganisation: only a node that calls its version
      // final contradicts the others. Either way, nothing counts until they agree.
      if (groups.flat().some((i) => (answers[i].confirmations ?? 0) >= required))
        await disagree(dissenters(groups), hash, `they report ${what} differently (block, amount, sender or outcome)`);
      return UNAVAILABLE;
    }
    const agreeing = groups[0] ?? [];
    const missing = answers.flatMap((a, i) => (a.kind === "missing" ? [i] : []));
    if (agreeing.length > 0) {
      const depths = agreeing.map((i) => answers[i].confirmations ?? 0);
      const depth = kthHighest(depths, Math.min(k, depths.length)) ?? 0;
      const ahead = agreeing.filter((i) => (answers[i].confirmations ?? 0) > depth + HEAD_AHEAD_BLOCKS);
      if (ahead.length > 0) {
        await disagree(ahead, hash, `a node reports ${what} far deeper than the others (a head the others do not have)`);
        return UNAVAILABLE;
      }
      const sample = answers[agreeing[0]];
      if (missing.length > 0 && Math.max(...depths) >= required) {
        // Shown as final by some, unknown to others: a contradiction once those others' chains are past its block.
        const heads = await Promise.all(missing.map((i) => nodes[i].verifier.chainPosition()));
        const block = sample.blockNumber ?? null;
        const margin = network === "ethereum" ? required - 1 : SOLANA_LAG_SLOTS;
        const contradicting = missing.filter((_, j) => block !== null && heads[j] !== null && heads[j]! >= block + margin);
        if (contradicting.length > 0) {
          // The smaller side is named; on a tie, both (nothing tells which one lies).
          const named =
            contradicting.length > agreeing.length ? agreeing : contradicting.length < agreeing.length ? contradicting : [...contradicting, ...agreeing];
          await disagree(named, hash, `some nodes show ${what} as final in block ${block}; others, past that block, do not hold it`);
          return UNAVAILABLE;
        }
      }
      if (agreeing.length < k) return UNAVAILABLE;
      return { ...sample, confirmations: depth };
    }
    return missing.length >= k ? answers[missing[0]] : UNAVAILABLE;
  }

  /**
   * Transfers of the windows that read the same part of the chain, when they all list the same ones; null (and a
   * disagreement) otherwise.
   */
  async function sameTransfers(indexes: number[], lists: ReceivedTransfer[][], extra: string[] = []): Promise<ReceivedTransfer[] | null> {
    const keys = lists.map((l, j) => JSON.stringify([[...l.map(transferKey)].sort(), extra[j] ?? null]));
    const groups = groupBy(keys);
    if (groups.length > 1) {
      const other = lists.flat().find((t) => !lists.every((l) => l.some((x) => transferKey(x) === transferKey(t))));
      await disagree(
        dissenters(groups).map((j) => indexes[j]),
        other?.hash ?? null,
        "they list different transfers to the platform in the same blocks",
      );
      return null;
    }
    return lists[0] ?? [];
  }

  /** Transfers reported identically by `quorum` of the windows (those not yet final on all of them: candidates only). */
  function reportedByQuorum(lists: ReceivedTransfer[][]): ReceivedTransfer[] {
    const counts = new Map<string, { t: ReceivedTransfer; n: number }>();
    for (const list of lists)
      for (const t of new Map(list.map((x) => [transferKey(x), x])).values()) {
        const entry = counts.get(transferKey(t)) ?? { t, n: 0 };
        entry.n += 1;
        counts.set(transferKey(t), entry);
      }
    return [...counts.values()].filter((e) => e.n >= k).map((e) => e.t);
  }

  async function ethereumScan(windows: (ScanWindow | null)[], cursor: ScanWindow["cursor"]): Promise<ScanWindow | null> {
    const answered = windows.flatMap((w, i) => (w === null || w.cursor.nextBlock === null ? [] : [{ w, i, next: w.cursor.nextBlock }]));
    const next = kthHighest(
      answered.map((a) => a.next),
      k,
    );
    if (next === null) return null;
    // Every node that passed `next` read all the blocks before it: there, they must list the same transfers.
    const vouchers = answered.filter((a) => a.next >= next);
    const final = await sameTransfers(
      vouchers.map((a) => a.i),
      vouchers.map((a) => a.w.transfers.filter((t) => t.blockNumber !== null && t.blockNumber < next)),
    );
    if (final === null) return null;
    const recent = reportedByQuorum(answered.map((a) => a.w.transfers.filter((t) => t.blockNumber === null || t.blockNumber >= next)));
    return { transfers: [...final, ...recent], cursor: { ...cursor, nextBlock: next } };
  }

  async function ethereumReconcile(windows: (ReconcileWindow | null)[]): Promise<ReconcileWindow | null> {
    const answered = windows.flatMap((w, i) => (w === null || w.throughBlock === null ? [] : [{ w, i, through: w.throughBlock }]));
    const through = kthHighest(
      answered.map((a) => a.through),
      k,
    );
    if (through === null) return null;
    const vouchers = answered.filter((a) => a.through >= through);
    const transfers = await sameTransfers(
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
  async function solanaWindows<W extends ScanWindow | ReconcileWindow>(windows: (W | null)[]): Promise<{ window: W; group: W[] } | "split" | null> {
    const groups = groupBy(windows.map((w) => (w === null ? null : JSON.stringify(w.cursor))));
    const group = groups[0];
    if (!group || group.length < k) return "split";
    const transfers = await sameTransfers(
      group,
      group.map((i) => windows[i]!.transfers),
    );
    if (transfers === null) return null;
    return { window: windows[group[0]]!, group: group.map((i) => windows[i]!) };
  }

  /**
   * Solana: the nodes' newest signatures differ whenever one is a slot ahead (steady traffic makes that the rule),
   * so the window is compared on what a quorum of them hold: every node stops at the slot `quorum` of them have
   * reached, and the signatures up to it that `quorum` of them read (domain/reconciliation.ts solanaQuorumWindow)
   * must be the same, with the same transfers, on every node that read them.
   */
  async function solanaReconcile(cursor: ReconcileCursor, opts: { limit: number }): Promise<ReconcileWindow | null> {
    const throughSlot = await chainPosition();
    if (throughSlot === null) return null;
    const windows = await Promise.all(nodes.map((n) => n.verifier.reconcile(cursor, { ...opts, throughSlot })));
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
      k,
    );
    if (agreed === null) return null;
    if ("contradicting" in agreed) {
      await disagree(agreed.contradicting, null, "they list different signatures or transfers to the platform up to a slot they all hold");
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

  return {
    network,
    recipient: first.recipient,
    requiredConfirmations: required,
    dustBelow: first.dustBelow,

    async inspect(hash, expect): Promise<PaymentObservation> {
      const answers = await Promise.all(nodes.map((n) => n.verifier.inspect(hash, expect)));
      return agree(hash, answers, observationKey, "the payment");
    },

    async received(hash): Promise<TransferReceipt> {
      const answers = await Promise.all(nodes.map((n) => n.verifier.received(hash)));
      return agree(hash, answers, receiptKey, "the transfer");
    },

    async scanTransfers(cursor, opts) {
      let from = cursor;
      if (network === "ethereum" && cursor.nextBlock === null) {
        // The first run: every node reads from the same block, the one the quorum's head makes final.
        const head = await chainPosition();
        if (head === null) return null;
        const final = head - required + 1;
        from = { ...cursor, nextBlock: Math.max(0, Math.min(opts.startAt ?? final, final)) };
      }
      const windows = await Promise.all(nodes.map((n) => n.verifier.scanTransfers(from, opts)));
      if (network === "ethereum") return ethereumScan(windows, from);
      const agreed = await solanaWindows(windows);
      if (agreed === null) return null;
      // The nodes' newest signatures differ (one is a transaction ahead): what the quorum lists, read again next run.
      if (agreed === "split") return { transfers: reportedByQuorum(windows.flatMap((w) => (w ? [w.transfers] : []))), cursor };
      return agreed.window;
    },

    async reconcile(cursor, opts) {
      if (network === "ethereum") return ethereumReconcile(await Promise.all(nodes.map((n) => n.verifier.reconcile(cursor, opts))));
      return solanaReconcile(cursor, opts);
    },

    chainPosition,
    explorerUrl: (hash) => first.explorerUrl(hash),
    formatAmount: (units) => first.formatAmount(units),
  };
}
