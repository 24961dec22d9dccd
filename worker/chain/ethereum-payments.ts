// Ethereum behind the payment-verifier interface: a payment is a native transfer from the buyer to
// PLATFORM_ETH_ADDRESS, final at ETH_CONFIRMATIONS blocks while its block is still canonical. A node that is
// not on ETH_CHAIN_ID is not asked anything else.
import { sameAddress } from "../../schema/address";
import { explorerTxUrl } from "../../schema/explorer";
import {
  type Chain,
  createPublicClient,
  formatEther,
  type Hash,
  type Hex,
  http,
  isHash,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import type { EthereumRules } from "../deployment/deployment";
import { MAX_CONFIRMATIONS } from "../deployment/payment-rules";
import type { PaymentObservation } from "../domain/payment-decision";
import { ethereumWindow, unexplainedByBlock } from "../domain/reconciliation";
import { nodeName } from "../deployment/rpc-nodes";
import { chainOf } from "./ethereum";
import type { PaymentVerifier, ReceivedTransfer, TransferReceipt } from "./payment-types";

/** A verification call gives up quickly: the purchase stays pending and the cron job asks again. */
export const VERIFY_TIMEOUT_MS = 4_000;
/** Blocks asked for in one JSON-RPC batch (an HTTP request) when the scan or the reconciliation reads a range. */
const BLOCKS_PER_REQUEST = 10;

function verificationClient(url: string, chain: Chain): PublicClient {
  return createPublicClient({ chain, transport: http(url, { timeout: VERIFY_TIMEOUT_MS, retryCount: 1, retryDelay: 150 }) });
}

/** For reading ranges of blocks: the calls made together go out as JSON-RPC batches. */
function rangeClient(url: string, chain: Chain): PublicClient {
  return createPublicClient({
    chain,
    transport: http(url, { timeout: VERIFY_TIMEOUT_MS, retryCount: 1, retryDelay: 150, batch: { batchSize: BLOCKS_PER_REQUEST } }),
  });
}

const same = (a: string | null | undefined, b: string) => typeof a === "string" && sameAddress("ethereum", a, b);

/** How long the node's chain id, once read, is taken as known. */
const CHAIN_ID_TTL_MS = 60_000;
const nodeChainIds = new Map<string, { id: number; at: number }>();

/** Forgets the chain ids read (tests). */
export function resetNodeChainIds() {
  nodeChainIds.clear();
}

/** One node's verifier: the node at `url`, read by the deployment's Ethereum rules (payment-verifier.ts makes one per node). */
export function ethereumVerifier(url: string, rules: EthereumRules): PaymentVerifier {
  const recipient = rules.recipient;
  // Unreadable, no node's chain id equals it: nothing is trusted (and the payment check refuses the setting).
  const chainId = rules.chainId ?? Number.NaN;
  const chain = chainOf(chainId, [url]);
  const client = verificationClient(url, chain);
  const ranges = rangeClient(url, chain);
  /** Blocks `from`..`to` with their transactions, asked for together. */
  const blocksWithTransactions = (from: number, to: number) =>
    Promise.all(Array.from({ length: to - from + 1 }, (_, i) => ranges.getBlock({ blockNumber: BigInt(from + i), includeTransactions: true })));
  // An unreadable setting is refused before any payment route or cron check runs (deployment/payment-readiness.ts); a verifier
  // made anyway (a purchase page's view) reads it as the deepest allowed, never as a shallow default.
  const required = rules.confirmations ?? MAX_CONFIRMATIONS;

  /** Nothing a node says is trusted before it says it is on ETH_CHAIN_ID (a mainnet setting pointed at a testnet node, say). */
  async function onConfiguredChain(): Promise<boolean> {
    const known = nodeChainIds.get(url);
    let id = known && Date.now() - known.at < CHAIN_ID_TTL_MS ? known.id : null;
    if (id === null) {
      id = await client.getChainId();
      nodeChainIds.set(url, { id, at: Date.now() });
    }
    if (id !== chainId) console.error(`the Ethereum node at ${nodeName(url)} is on chain ${id}, not ETH_CHAIN_ID ${chainId}: nothing it says is trusted`);
    return id === chainId;
  }

  /** The transaction, its receipt and its depth; null when the node does not know the hash. */
  async function lookUp(hash: Hash) {
    let tx;
    try {
      tx = await client.getTransaction({ hash });
    } catch (err) {
      if (err instanceof TransactionNotFoundError) return null;
      throw err;
    }
    let receipt;
    try {
      receipt = await client.getTransactionReceipt({ hash });
    } catch (err) {
      // In the pool, not mined yet: no block, no depth.
      if (err instanceof TransactionReceiptNotFoundError) return { tx, receipt: null, confirmations: 0, minedAt: null };
      throw err;
    }
    const [head, block] = await Promise.all([client.getBlockNumber(), client.getBlock({ blockNumber: receipt.blockNumber })]);
    // A receipt from a block that is no longer canonical has no depth at all.
    const canonical = block.hash === receipt.blockHash;
    const confirmations = canonical && head >= receipt.blockNumber ? Number(head - receipt.blockNumber + 1n) : 0;
    return { tx, receipt, confirmations, minedAt: canonical ? Number(block.timestamp) * 1000 : null };
  }

  /** The head block, or null when the node does not answer or is on another chain. */
  async function chainPosition(): Promise<number | null> {
    try {
      if (!(await onConfiguredChain())) return null;
      return Number(await client.getBlockNumber());
    } catch {
      return null;
    }
  }

  /**
   * Blocks `from`..`to` of the reconciliation: the transfers to the platform, and the blocks where its balance
   * moved by more (or less) than its transactions explain, from `before` (its balance at the end of block from - 1).
   */
  async function readPage(from: number, to: number, before: bigint, balanceAt: (n: number) => Promise<bigint>) {
    const transfers: ReceivedTransfer[] = [];
    const explained: bigint[] = [];
    for (const block of await blocksWithTransactions(from, to)) {
      const n = Number(block.number);
      let net = 0n;
      for (const tx of block.transactions) {
        const inbound = same(tx.to, recipient);
        const outbound = same(tx.from, recipient);
        if (!inbound && !outbound) continue;
        const receipt = await client.getTransactionReceipt({ hash: tx.hash });
        const ok = receipt.status === "success";
        if (inbound && ok) {
          net += tx.value;
          transfers.push({ hash: tx.hash.toLowerCase(), amount: tx.value, senders: [tx.from.toLowerCase()], direct: true, references: [], blockNumber: n });
        }
        if (outbound) {
          if (ok) net -= tx.value;
          net -= receipt.gasUsed * receipt.effectiveGasPrice + (receipt.blobGasUsed ?? 0n) * (receipt.blobGasPrice ?? 0n);
        }
      }
      explained.push(net);
    }
    const after = await balanceAt(to);
    let unexplained: { block: number; amount: bigint }[] = [];
    if (after - before !== explained.reduce((a, b) => a + b, 0n)) {
      // Value arrived (or left) by a way no transaction to or from the platform shows: internal calls from
      // contract wallets, ERC-4337 accounts, self-destructs. Find the blocks, one balance each.
      const balances = [before];
      for (let n = from; n < to; n++) balances.push(await balanceAt(n));
      balances.push(after);
      unexplained = unexplainedByBlock(from, balances, explained);
    }
    return { transfers, unexplained, balance: after };
  }

  const unavailable = (what: string, err: unknown) => {
    console.warn(`ethereum node unavailable for ${what}:`, err instanceof Error ? err.message.split("\n")[0] : String(err));
    return { kind: "unavailable" as const };
  };

  return {
    network: "ethereum",
    recipient,
    requiredConfirmations: required,
    dustBelow: rules.dustBelow,

    async inspect(hash, expect): Promise<PaymentObservation> {
      if (!isHash(hash)) return { kind: "missing" };
      try {
        if (!(await onConfiguredChain())) return { kind: "unavailable" };
        const seen = await lookUp(hash as Hash);
        if (seen === null) return { kind: "missing" };
        const { tx, receipt, confirmations, minedAt } = seen;
        return {
          kind: "found",
          onExpectedChain: tx.chainId === undefined || tx.chainId === chainId,
          fromBuyer: same(tx.from, expect.buyer),
          toPlatform: same(tx.to, recipient),
          carriesReference: true,
          amount: tx.value,
          succeeded: receipt === null || receipt.status === "success",
          confirmations,
          block: receipt?.blockHash ?? "",
          blockNumber: receipt === null ? null : Number(receipt.blockNumber),
          minedAt,
          fee: receipt === null ? null : { used: receipt.gasUsed, price: receipt.effectiveGasPrice, total: receipt.gasUsed * receipt.effectiveGasPrice },
        };
      } catch (err) {
        return unavailable("verification", err);
      }
    },

    async received(hash): Promise<TransferReceipt> {
      if (!isHash(hash)) return { kind: "missing" };
      try {
        if (!(await onConfiguredChain())) return { kind: "unavailable" };
        const seen = await lookUp(hash as Hash);
        if (seen === null) return { kind: "missing" };
        const { tx, receipt, confirmations } = seen;
        const direct = same(tx.to, recipient);
        const succeeded = receipt === null || receipt.status === "success";
        return {
          kind: "found",
          succeeded,
          amount: direct && succeeded ? tx.value : 0n,
          senders: [tx.from.toLowerCase()],
          direct,
          references: [],
          confirmations,
          blockNumber: receipt === null ? null : Number(receipt.blockNumber),
        };
      } catch (err) {
        return unavailable("a refund check", err);
      }
    },

    async reconcile(cursor, { limit }) {
      try {
        if (!(await onConfiguredChain())) return null;
        const head = Number(await client.getBlockNumber());
        const window = ethereumWindow(cursor.nextBlock, head, required, limit);
        const deepest = head - required + 1;
        if (window === null) {
          const through = cursor.nextBlock === null ? null : cursor.nextBlock - 1;
          return { transfers: [], unexplained: [], cursor, through: through === null ? null : String(through), throughBlock: through, caughtUp: true };
        }
        if ("start" in window)
          return {
            transfers: [],
            unexplained: [],
            cursor: { ...cursor, nextBlock: window.start },
            through: String(window.start - 1),
            throughBlock: window.start - 1,
            caughtUp: true,
          };
        const { from, to } = window;
        const balanceAt = (n: number) => (n < 0 ? Promise.resolve(0n) : client.getBalance({ address: recipient as Hex, blockNumber: BigInt(n) }));
        const transfers: ReceivedTransfer[] = [];
        const unexplained: { block: number; amount: bigint }[] = [];
        let done = from - 1;
        let balance = await balanceAt(done);
        // Page by page (one JSON-RPC batch of blocks each, every call tried twice by the client): a node that fails
        // mid-window costs the rest of the window, never what was read before; the next run starts there.
        for (let start = from; start <= to; start += BLOCKS_PER_REQUEST) {
          const end = Math.min(to, start + BLOCKS_PER_REQUEST - 1);
          try {
            const page = await readPage(start, end, balance, balanceAt);
            transfers.push(...page.transfers);
            unexplained.push(...page.unexplained);
            balance = page.balance;
            done = end;
          } catch (err) {
            if (done < from) throw err;
            unavailable(`the reconciliation after block ${done}`, err);
            break;
          }
        }
        return { transfers, unexplained, cursor: { ...cursor, nextBlock: done + 1 }, through: String(done), throughBlock: done, caughtUp: done >= deepest };
      } catch (err) {
        unavailable("the reconciliation", err);
        return null;
      }
    },

    async scanTransfers(cursor, { limit, startAt }) {
      try {
        if (!(await onConfiguredChain())) return null;
        const head = Number(await client.getBlockNumber());
        const final = head - required + 1;
        // The first run starts at the oldest open reservation's block, else at the blocks not yet final.
        const from = cursor.nextBlock ?? Math.max(0, Math.min(startAt ?? final, final));
        if (from > head) return { transfers: [], cursor: { ...cursor, nextBlock: from } };
        const to = Math.min(head, from + limit - 1);
        const transfers: ReceivedTransfer[] = [];
        for (const block of await blocksWithTransactions(from, to)) {
          for (const tx of block.transactions) {
            if (!same(tx.to, recipient)) continue;
            transfers.push({
              hash: tx.hash.toLowerCase(),
              amount: tx.value,
              senders: [tx.from.toLowerCase()],
              direct: true,
              references: [],
              blockNumber: Number(block.number),
            });
          }
        }
        // Only final blocks are passed: a transfer above the required depth is read again next run, so one that
        // cannot pay its purchase (a late one, listed for refund only once final) is still seen when it is.
        return { transfers, cursor: { ...cursor, nextBlock: Math.max(from, Math.min(to, final) + 1) } };
      } catch (err) {
        unavailable("the payment scan", err);
        return null;
      }
    },

    chainPosition,

    explorerUrl: (hash) => explorerTxUrl("ethereum", hash, { ethChainId: chainId }),

    formatAmount: (wei) => formatEther(wei),
  };
}
