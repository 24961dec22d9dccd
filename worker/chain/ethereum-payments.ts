// Ethereum behind the payment-verifier interface: a payment is a native transfer from the buyer to
// PLATFORM_ETH_ADDRESS, final at ETH_CONFIRMATIONS blocks while its block is still canonical.
import { createPublicClient, formatEther, type Hash, http, isHash, type PublicClient, TransactionNotFoundError, TransactionReceiptNotFoundError } from "viem";
import type { PaymentObservation } from "../domain/payment-decision";
import { matchTransferToPurchase } from "../domain/payment-decision";
import { ethereumChain } from "./ethereum";
import { configuredDepth, type PaymentVerifier, type ScanTarget, type VerifierEnv } from "./payment-verifier";

/** A verification call gives up quickly: the purchase stays pending and the cron job asks again. */
export const VERIFY_TIMEOUT_MS = 4_000;
/** Blocks one scan examines at most (one cron run); the next run continues from there. */
export const MAX_SCAN_BLOCKS = 100;

function verificationClient(env: VerifierEnv): PublicClient {
  return createPublicClient({ chain: ethereumChain(env), transport: http(env.ETH_RPC_URL, { timeout: VERIFY_TIMEOUT_MS, retryCount: 1, retryDelay: 150 }) });
}

const same = (a: string | null | undefined, b: string) => typeof a === "string" && a.toLowerCase() === b.toLowerCase();

export function ethereumVerifier(env: VerifierEnv): PaymentVerifier {
  const recipient = env.PLATFORM_ETH_ADDRESS;
  const chainId = Number(env.ETH_CHAIN_ID);
  const client = verificationClient(env);
  return {
    network: "ethereum",
    recipient,
    requiredConfirmations: configuredDepth(env.ETH_CONFIRMATIONS, 1),

    async inspect(hash, expect): Promise<PaymentObservation> {
      if (!isHash(hash)) return { kind: "missing" };
      try {
        let tx;
        try {
          tx = await client.getTransaction({ hash: hash as Hash });
        } catch (err) {
          if (err instanceof TransactionNotFoundError) return { kind: "missing" };
          throw err;
        }
        const base = {
          kind: "found" as const,
          onExpectedChain: tx.chainId === undefined || tx.chainId === chainId,
          fromBuyer: same(tx.from, expect.buyer),
          toPlatform: same(tx.to, recipient),
          carriesReference: true,
          amount: tx.value,
        };
        let receipt;
        try {
          receipt = await client.getTransactionReceipt({ hash: hash as Hash });
        } catch (err) {
          // In the mempool, not mined yet: found, no depth.
          if (err instanceof TransactionReceiptNotFoundError) return { ...base, succeeded: true, confirmations: 0, block: "" };
          throw err;
        }
        const [head, block] = await Promise.all([client.getBlockNumber(), client.getBlock({ blockNumber: receipt.blockNumber })]);
        // A receipt from a block that is no longer canonical has no depth at all.
        const canonical = block.hash === receipt.blockHash;
        const confirmations = canonical && head >= receipt.blockNumber ? Number(head - receipt.blockNumber + 1n) : 0;
        return { ...base, succeeded: receipt.status === "success", confirmations, block: receipt.blockHash };
      } catch (err) {
        console.warn("ethereum node unavailable for verification:", err instanceof Error ? err.message.split("\n")[0] : String(err));
        return { kind: "unavailable" };
      }
    },

    async scan(targets, knownHashes) {
      const starts = targets.map((t) => t.fromBlock).filter((b): b is number => b !== null);
      if (starts.length === 0) return { found: [], scannedThrough: null };
      try {
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
        return { found, scannedThrough: Number(to) };
      } catch (err) {
        console.warn("ethereum node unavailable for the payment scan:", err instanceof Error ? err.message.split("\n")[0] : String(err));
        return { found: null, scannedThrough: null };
      }
    },

    async scanStart() {
      try {
        return Number(await client.getBlockNumber());
      } catch {
        return null;
      }
    },

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
