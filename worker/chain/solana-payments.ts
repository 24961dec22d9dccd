// Solana behind the payment-verifier interface: a payment is a System transfer from the buyer to
// PLATFORM_SOL_ADDRESS carrying the purchase's reference key (Solana Pay), final at SOL_COMMITMENT. The
// node is asked over plain JSON-RPC with a short timeout. A signature that is not 64 bytes of base58, or that the
// node refuses as such, names no transaction ("missing": it ends at the deadline like a payment never found);
// any other failure reads as "unavailable", and so does an answer about another transaction than the one asked
// for (domain/node-errors.ts, docs/payments.md#deadlines).
import { explorerTxUrl } from "../../schema/explorer";
import { isSolanaSignature } from "../../schema/payment-hash";
import type { SolanaRules } from "../deployment/deployment";
import { solanaErrorMeaning } from "../domain/node-errors";
import type { PaymentObservation } from "../domain/payment-decision";
import { type PaymentCommitment, readCommitment } from "../deployment/payment-rules";
import { solanaProgress, solanaWindowParams } from "../domain/reconciliation";
import type { PaymentVerifier, ReceivedTransfer, TransferReceipt } from "./payment-types";
import { type DecodedTransaction, decodeTransaction, type SolanaTransactionResponse, transfersOf, wireBytes } from "./solana-transfer";

export const SOLANA_RPC_TIMEOUT_MS = 4_000;
const LAMPORTS_PER_SOL = 1_000_000_000n;
/** getTransaction calls sent in one JSON-RPC batch (one HTTP request) when the scan reads many signatures. */
const TRANSACTIONS_PER_REQUEST = 25;

/**
 * The commitment payments are read at: SOL_COMMITMENT, which payment routes and the cron job refuse unless it is
 * "confirmed" or "finalized" (deployment/payment-readiness.ts); unreadable, it is read as "finalized", never weaker.
 */
export function solanaCommitment(text: string | undefined): PaymentCommitment {
  return readCommitment(text) ?? "finalized";
}

export class SolanaRpcError extends Error {
  /** The JSON-RPC error's code; null for an HTTP error. */
  readonly code: number | null;
  constructor(message: string, code: number | null = null) {
    super(message);
    this.code = code;
  }
}

/** What a failed call about one signature means: the node says there is no such transaction, or it cannot say. */
function failureMeaning(err: unknown): "missing" | "unavailable" {
  return solanaErrorMeaning(err instanceof SolanaRpcError ? err.code : null);
}

/** A read the reconciliation needs, asked a second time when the first try fails (a node's fault is often a moment's). */
async function retried<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch {
    return read();
  }
}

/** JSON numbers past 2^53 (lamport balances of more than 9 million SOL) are read exactly, as bigint. */
function exactNumbers(_key: string, value: unknown, context?: { source?: string }) {
  return typeof value === "number" && !Number.isSafeInteger(value) && context?.source && /^-?\d+$/.test(context.source) ? BigInt(context.source) : value;
}

export async function solanaRpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(SOLANA_RPC_TIMEOUT_MS),
  });
  if (!res.ok) throw new SolanaRpcError(`${method}: HTTP ${res.status}`);
  const body = JSON.parse(await res.text(), exactNumbers as (key: string, value: unknown) => unknown) as {
    result?: T;
    error?: { code?: unknown; message?: string };
  };
  if (body.error) throw new SolanaRpcError(`${method}: ${body.error.message ?? "error"}`, typeof body.error.code === "number" ? body.error.code : null);
  return body.result as T;
}

/** Several calls in one JSON-RPC batch: the answers in the order asked. Throws when any of them fails. */
export async function solanaRpcBatch<T>(url: string, calls: { method: string; params: unknown[] }[]): Promise<T[]> {
  if (calls.length === 0) return [];
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: "2.0", id, method: c.method, params: c.params }))),
    signal: AbortSignal.timeout(SOLANA_RPC_TIMEOUT_MS),
  });
  if (!res.ok) throw new SolanaRpcError(`batch of ${calls.length}: HTTP ${res.status}`);
  const body = JSON.parse(await res.text(), exactNumbers as (key: string, value: unknown) => unknown) as {
    id: number;
    result?: T;
    error?: { message?: string };
  }[];
  if (!Array.isArray(body)) throw new SolanaRpcError("batch: not an array");
  return calls.map((c, id) => {
    const answer = body.find((b) => b.id === id);
    if (!answer || answer.error) throw new SolanaRpcError(`${c.method}: ${answer?.error?.message ?? "no answer"}`);
    return answer.result as T;
  });
}

export function formatLamports(lamports: bigint): string {
  const sign = lamports < 0n ? "-" : "";
  const abs = lamports < 0n ? -lamports : lamports;
  const whole = abs / LAMPORTS_PER_SOL;
  const frac = (abs % LAMPORTS_PER_SOL).toString().padStart(9, "0").replace(/0+$/, "");
  return `${sign}${frac ? `${whole}.${frac}` : whole}`;
}

/** The transaction of a getTransaction answer, if it is the one asked for (a node must not answer for another). */
function decoded(response: SolanaTransactionResponse, signature: string): DecodedTransaction | "other" | null {
  const wire = wireBytes(response);
  if (!wire) return null;
  try {
    const tx = decodeTransaction(wire, response.meta?.loadedAddresses ?? null);
    return tx.signatures[0] === signature ? tx : "other";
  } catch {
    return null;
  }
}

/** What a decoded transaction says as a payment of `buyer` to `recipient` carrying `reference`. */
export function observeSolanaPayment(
  response: SolanaTransactionResponse,
  expect: { signature: string; buyer: string; recipient: string; reference: string | null },
): PaymentObservation {
  const tx = decoded(response, expect.signature);
  if (tx === null) return { kind: "missing" };
  if (tx === "other") return { kind: "unavailable" };
  const transfers = transfersOf(tx);
  const toPlatform = transfers.filter((t) => t.to === expect.recipient);
  const fromBuyer = toPlatform.filter((t) => t.from === expect.buyer);
  const amount = fromBuyer.reduce((sum, t) => sum + t.lamports, 0n);
  return {
    kind: "found",
    succeeded: response.meta !== null && (response.meta.err === null || response.meta.err === undefined),
    onExpectedChain: true,
    toPlatform: toPlatform.length > 0,
    fromBuyer: fromBuyer.length > 0,
    carriesReference: expect.reference !== null && fromBuyer.some((t) => t.accounts.slice(2).includes(expect.reference!)),
    amount,
    // getTransaction answers at the configured commitment only, so an answer is final enough.
    confirmations: 1,
    block: String(response.slot),
    blockNumber: response.slot,
    minedAt: typeof response.blockTime === "number" ? response.blockTime * 1000 : null,
    fee:
      typeof response.meta?.fee === "number" && Number.isSafeInteger(response.meta.fee) ? { used: null, price: null, total: BigInt(response.meta.fee) } : null,
  };
}

/**
 * What the platform received in a transaction, whatever moved it: the change of its balance (a System transfer,
 * a transfer with seed, a program's CPI). `direct` when plain System transfers to the platform explain it all.
 */
export function solanaReceipt(response: SolanaTransactionResponse, signature: string, recipient: string): TransferReceipt {
  const tx = decoded(response, signature);
  if (tx === null) return { kind: "missing" };
  if (tx === "other") return { kind: "unavailable" };
  const at = tx.keys.indexOf(recipient);
  const pre = response.meta?.preBalances?.[at];
  const post = response.meta?.postBalances?.[at];
  const delta = at >= 0 && pre !== undefined && post !== undefined ? BigInt(post) - BigInt(pre) : 0n;
  const toPlatform = transfersOf(tx).filter((t) => t.to === recipient);
  const transferred = toPlatform.reduce((sum, t) => sum + t.lamports, 0n);
  const senders = [...new Set(toPlatform.map((t) => t.from))];
  const succeeded = response.meta !== null && (response.meta.err === null || response.meta.err === undefined);
  return {
    kind: "found",
    succeeded,
    amount: succeeded && delta > 0n ? delta : 0n,
    senders: senders.length > 0 ? senders : tx.keys.slice(0, 1),
    direct: toPlatform.length > 0 && transferred === delta,
    references: [...new Set(toPlatform.flatMap((t) => t.accounts.slice(2)))],
    confirmations: 1,
    blockNumber: response.slot,
  };
}

/** One node's verifier: the node at `url`, read by the deployment's Solana rules (payment-verifier.ts makes one per node). */
export function solanaVerifier(url: string, rules: SolanaRules): PaymentVerifier {
  const recipient = rules.recipient;
  // Unreadable, "finalized", never weaker (solanaCommitment).
  const commitment = rules.commitment ?? "finalized";
  const getTransaction = (signature: string) =>
    solanaRpc<SolanaTransactionResponse | null>(url, "getTransaction", [signature, { encoding: "base64", commitment, maxSupportedTransactionVersion: 0 }]);

  async function receipt(signature: string): Promise<TransferReceipt> {
    if (!isSolanaSignature(signature)) return { kind: "missing" };
    try {
      const response = await getTransaction(signature);
      return response === null ? { kind: "missing" } : solanaReceipt(response, signature, recipient);
    } catch (err) {
      const meaning = failureMeaning(err);
      if (meaning === "unavailable") console.warn("solana node unavailable:", err instanceof Error ? err.message : String(err));
      return { kind: meaning };
    }
  }

  /** What the platform received in each signature, asked in batches; null when the node cannot say for all of them. */
  async function receiptsOf(signatures: string[]): Promise<TransferReceipt[] | null> {
    const out: TransferReceipt[] = [];
    try {
      for (let i = 0; i < signatures.length; i += TRANSACTIONS_PER_REQUEST) {
        const chunk = signatures.slice(i, i + TRANSACTIONS_PER_REQUEST);
        const answers = await solanaRpcBatch<SolanaTransactionResponse | null>(
          url,
          chunk.map((signature) => ({ method: "getTransaction", params: [signature, { encoding: "base64", commitment, maxSupportedTransactionVersion: 0 }] })),
        );
        answers.forEach((response, k) => out.push(response === null ? { kind: "missing" } : solanaReceipt(response, chunk[k], recipient)));
      }
      return out;
    } catch (err) {
      console.warn("solana node unavailable:", err instanceof Error ? err.message : String(err));
      return null;
    }
  }

  return {
    network: "solana",
    recipient,
    requiredConfirmations: 1,
    dustBelow: rules.dustBelow,

    async inspect(signature, expect) {
      // Not 64 bytes: no transaction has it, and no node need be asked (the confirm route refuses such text).
      if (!isSolanaSignature(signature)) return { kind: "missing" };
      try {
        const response = await getTransaction(signature);
        if (response === null) return { kind: "missing" };
        const seen = observeSolanaPayment(response, { ...expect, signature, recipient });
        if (seen.kind === "unavailable") console.error(`solana node answered getTransaction(${signature}) with another transaction; not trusted`);
        return seen;
      } catch (err) {
        const meaning = failureMeaning(err);
        if (meaning === "unavailable") console.warn("solana node unavailable for verification:", err instanceof Error ? err.message : String(err));
        return { kind: meaning };
      }
    },

    received: receipt,

    async scanTransfers(cursor, { limit }) {
      try {
        // The platform's newest signatures since the last run, newest first. More than `limit` in one minute (a
        // flood of transfers) leaves the older ones to the reconciliation, which reads every signature.
        const page = await solanaRpc<{ signature: string; err: unknown }[]>(url, "getSignaturesForAddress", [
          recipient,
          { commitment, limit, ...(cursor.lastSignature ? { until: cursor.lastSignature } : {}) },
        ]);
        const signatures = page.filter((s) => s.err === null).map((s) => s.signature);
        const receipts = await receiptsOf(signatures);
        if (receipts === null) return null;
        const transfers: ReceivedTransfer[] = [];
        receipts.forEach((r, i) => {
          if (r.kind === "found" && r.succeeded) {
            transfers.push({
              hash: signatures[i],
              amount: r.amount,
              senders: r.senders,
              direct: r.direct,
              references: r.references,
              blockNumber: r.blockNumber,
            });
          }
        });
        return { transfers, cursor: { ...cursor, lastSignature: page[0]?.signature ?? cursor.lastSignature } };
      } catch (err) {
        console.warn("solana node unavailable for the payment scan:", err instanceof Error ? err.message : String(err));
        return null;
      }
    },

    async reconcile(cursor, { limit, throughSlot }) {
      try {
        // The head before the page: every signature up to it is in the page or (a full page) older than its oldest.
        // A quorum stops every node at the slot they have all reached (quorum-verifier.ts).
        const head = await retried(() => solanaRpc<number>(url, "getSlot", [{ commitment }]));
        const through = Math.min(head, throughSlot ?? head);
        const page = await retried(() =>
          solanaRpc<{ signature: string; slot: number; err: unknown }[]>(url, "getSignaturesForAddress", [
            recipient,
            { ...solanaWindowParams(cursor, limit), commitment },
          ]),
        );
        const kept = page.filter((s) => s.slot <= through);
        const transfers: ReceivedTransfer[] = [];
        // The first run reads no transactions: it only learns where the address stands.
        let read = cursor.lastSignature === null ? kept.length : 0;
        while (read < kept.length) {
          // Page by page, newest first, each request tried twice: a node that still cannot say what a signature did
          // ends the window before it, and the next run starts there.
          const chunk = kept.slice(read, read + TRANSACTIONS_PER_REQUEST);
          const succeeded = chunk.filter((s) => s.err === null);
          const receipts = (await receiptsOf(succeeded.map((s) => s.signature))) ?? (await receiptsOf(succeeded.map((s) => s.signature)));
          if (receipts === null || receipts.some((r) => r.kind !== "found")) break;
          receipts.forEach((r, i) => {
            if (r.kind === "found" && r.amount > 0n)
              transfers.push({
                hash: succeeded[i].signature,
                amount: r.amount,
                senders: r.senders,
                direct: r.direct,
                references: r.references,
                blockNumber: r.blockNumber,
              });
          });
          read += chunk.length;
        }
        if (read === 0 && kept.length > 0 && cursor.lastSignature !== null) return null;
        const signatures = kept.slice(0, read).map((s) => ({ signature: s.signature, slot: s.slot }));
        const more = page.length >= limit || read < kept.length;
        const { cursor: next, caughtUp } = solanaProgress(
          cursor,
          signatures.map((s) => s.signature),
          more,
        );
        return {
          transfers,
          unexplained: [],
          cursor: next,
          through: next.lastSignature || null,
          throughBlock: caughtUp ? through : null,
          caughtUp,
          solana: { through, read: signatures, more },
        };
      } catch (err) {
        console.warn("solana node unavailable for the reconciliation:", err instanceof Error ? err.message : String(err));
        return null;
      }
    },

    async chainPosition() {
      try {
        // Confirmed, not processed: never a slot ahead of the cluster, so a payment after this read is in a later slot.
        return await solanaRpc<number>(url, "getSlot", [{ commitment: "confirmed" }]);
      } catch {
        return null;
      }
    },

    // The pinned cluster, not a guess from the node's URL; unset or unreadable, no link (payments are refused then).
    explorerUrl: (signature) => explorerTxUrl("solana", signature, { solCluster: rules.cluster ?? undefined }),

    formatAmount: formatLamports,
  };
}
