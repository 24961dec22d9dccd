// Ethereum behind the payment-verifier interface: a payment is a native transfer from the buyer to
// PLATFORM_ETH_ADDRESS, final at ETH_CONFIRMATIONS blocks while its block is still canonical. A node that is
// not on ETH_CHAIN_ID is not asked anything else.
import {
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
import { MAX_CONFIRMATIONS, readConfirmations } from "../domain/payment-settings";
import type { PaymentObservation } from "../domain/payment-decision";
import { matchTransferToPurchase } from "../domain/payment-decision";
import { ethereumWindow, unexplainedByBlock } from "../domain/reconciliation";
import { ethereumChain } from "./ethereum";
import type { PaymentVerifier, ReceivedTransfer, ScanTarget, TransferReceipt, VerifierEnv } from "./payment-types";

/** A verification call gives up quickly: the purchase stays pending and the cron job asks again. */
export const VERIFY_TIMEOUT_MS = 4_000;
/** Blocks one scan examines at most (one cron run); the next run continues from there. */
export const MAX_SCAN_BLOCKS = 100;

function verificationClient(env: VerifierEnv): PublicClient {
  return createPublicClient({ chain: ethereumChain(env), transport: http(env.ETH_RPC_URL, { timeout: VERIFY_TIMEOUT_MS, retryCount: 1, retryDelay: 150 }) });
}

const same = (a: string | null | undefined, b: string) => typeof a === "string" && a.toLowerCase() === b.toLowerCase();

/** How long the node's chain id, once read, is taken as known. */
const CHAIN_ID_TTL_MS = 60_000;
const nodeChainIds = new Map<string, { id: number; at: number }>();

/** Forgets the chain ids read (tests). */
export function resetNodeChainIds() {
  nodeChainIds.clear();
}

export function ethereumVerifier(env: VerifierEnv): PaymentVerifier {
  const recipient = env.PLATFORM_ETH_ADDRESS;
  const chainId = Number(env.ETH_CHAIN_ID);
  const client = verificationClient(env);
  // An unreadable setting is refused before any payment route or cron check runs (payment-config.ts); a verifier
  // made anyway (a purchase page's view) reads it as the deepest allowed, never as a shallow default.
  const required = readConfirmations(env.ETH_CONFIRMATIONS) ?? MAX_CONFIRMATIONS;

  /** Nothing a node says is trusted before it says it is on ETH_CHAIN_ID (a mainnet setting pointed at a testnet node, say). */
  async function onConfiguredChain(): Promise<boolean> {
    const known = nodeChainIds.get(env.ETH_RPC_URL);
    let id = known && Date.now() - known.at < CHAIN_ID_TTL_MS ? known.id : null;
    if (id === null) {
      id = await client.getChainId();
      nodeChainIds.set(env.ETH_RPC_URL, { id, at: Date.now() });
    }
    if (id !== chainId) console.error(`the Ethereum node at ETH_RPC_URL is on chain ${id}, not ETH_CHAIN_ID ${chainId}: nothing it says is trusted`);
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

  const unavailable = (what: string, err: unknown) => {
    console.warn(`ethereum node unavailable for ${what}:`, err instanceof Error ? err.message.split("\n")[0] : String(err));
    return { kind: "unavailable" as const };
  };

  return {
    network: "ethereum",
    recipient,
    requiredConfirmations: required,

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

    async reconcile(cursor, { limit, upTo }) {
      try {
        if (!(await onConfiguredChain())) return null;
        const head = Number(await client.getBlockNumber());
        const window = ethereumWindow(cursor.nextBlock, head, required, limit, upTo);
        if (window === null) return { transfers: [], unexplained: [], cursor, through: cursor.nextBlock === null ? null : String(cursor.nextBlock - 1) };
        if ("start" in window) return { transfers: [], unexplained: [], cursor: { ...cursor, nextBlock: window.start }, through: String(window.start - 1) };
        const { from, to } = window;
        const transfers: ReceivedTransfer[] = [];
        const explained: bigint[] = [];
        for (let n = from; n <= to; n++) {
          const block = await client.getBlock({ blockNumber: BigInt(n), includeTransactions: true });
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
        const balanceAt = (n: number) => (n < 0 ? Promise.resolve(0n) : client.getBalance({ address: recipient as Hex, blockNumber: BigInt(n) }));
        const [before, after] = await Promise.all([balanceAt(from - 1), balanceAt(to)]);
        let unexplained: { block: number; amount: bigint }[] = [];
        if (after - before !== explained.reduce((a, b) => a + b, 0n)) {
          // Value arrived (or left) by a way no transaction to or from the platform shows: internal calls from
          // contract wallets, ERC-4337 accounts, self-destructs. Find the blocks, one balance each.
          const balances = [before];
          for (let n = from; n < to; n++) balances.push(await balanceAt(n));
          balances.push(after);
          unexplained = unexplainedByBlock(from, balances, explained);
        }
        return { transfers, unexplained, cursor: { ...cursor, nextBlock: to + 1 }, through: String(to) };
      } catch (err) {
        unavailable("the reconciliation", err);
        return null;
      }
    },

    async scan(targets, knownHashes) {
      const starts = targets.map((t) => t.fromBlock).filter((b): b is number => b !== null);
      if (starts.length === 0) return { found: [], scannedThrough: null };
      try {
        if (!(await onConfiguredChain())) return { found: null, scannedThrough: null };
        const head = await client.getBlockNumber();
        const from = BigInt(Math.min(...starts));
        if (from > head) return { found: [], scannedThrough: null };
        const to = from + BigInt(MAX_SCAN_BLOCKS - 1) < head ? from + BigInt(MAX_SCAN_BLOCKS - 1) : head;
        const found: { targetId: string; hash: string }[] = [];
        const claimed = new Set<string>();
        for (let n = from; n <= to; n++) {
          const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
          for (const tx of block.transactions) {
            if (!same(tx.to, recipient) || knownHashes.has(tx.hash.toLowerCase())) continue;
            const mine = (t: ScanTarget) => same(tx.from, t.buyer) && (t.fromBlock ?? 0) <= Number(n) && !claimed.has(t.id);
            const open = targets.filter((t) => t.open && mine(t)).sort((a, b) => a.createdAt - b.createdAt);
            // Rule for two open reservations by one buyer: exact amount, else the oldest it covers, else the oldest.
            const target = matchTransferToPurchase(open, tx.value) ?? latest(targets.filter((t) => !t.open && mine(t)));
            if (!target) continue;
            if (target.open) claimed.add(target.id);
            found.push({ targetId: target.id, hash: tx.hash });
          }
        }
        // Blocks above the required depth are read again next run: a transfer there may be listed for refund (a late
        // one) only once it is final, so the scan must still see it then.
        const final = Number(head) - required + 1;
        return { found, scannedThrough: Math.min(Number(to), final) >= Number(from) ? Math.min(Number(to), final) : null };
      } catch (err) {
        console.warn("ethereum node unavailable for the payment scan:", err instanceof Error ? err.message.split("\n")[0] : String(err));
        return { found: null, scannedThrough: null };
      }
    },

    // A scan for a reservation made now starts at the head, the block recorded as its position.
    scanStart: chainPosition,
    chainPosition,

    explorerUrl(hash) {
      if (chainId === 1) return `https://etherscan.io/tx/${hash}`;
      if (chainId === 11155111) return `https://sepolia.etherscan.io/tx/${hash}`;
      return null;
    },

    formatAmount: (wei) => formatEther(wei),
  };
}

/** A closed purchase a stray payment is most likely for: the newest. */
function latest(targets: ScanTarget[]): ScanTarget | null {
  return targets.reduce<ScanTarget | null>((best, t) => (best === null || t.createdAt > best.createdAt ? t : best), null);
}
