// Solana behind the payment-verifier interface: a payment is a System transfer from the buyer to
// PLATFORM_SOL_ADDRESS carrying the purchase's reference key (Solana Pay), final at SOL_COMMITMENT. The
// node is asked over plain JSON-RPC with a short timeout; any failure reads as "unavailable".
import type { PaymentObservation } from "../domain/payment-decision";
import type { PaymentVerifier, VerifierEnv } from "./payment-verifier";
import { type SolanaTransactionResponse, systemTransfers, wireBytes } from "./solana-transfer";

export const SOLANA_RPC_TIMEOUT_MS = 4_000;
const LAMPORTS_PER_SOL = 1_000_000_000n;
/** Signatures read per reference key in one scan. */
const SIGNATURES_PER_REFERENCE = 20;

export type SolanaCommitment = "processed" | "confirmed" | "finalized";

export function solanaCommitment(text: string | undefined): SolanaCommitment {
  // "processed" can still be rolled back: never settle on it.
  return text?.trim() === "finalized" ? "finalized" : "confirmed";
}

export class SolanaRpcError extends Error {}

export async function solanaRpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(SOLANA_RPC_TIMEOUT_MS),
  });
  if (!res.ok) throw new SolanaRpcError(`${method}: HTTP ${res.status}`);
  const body = (await res.json()) as { result?: T; error?: { message?: string } };
  if (body.error) throw new SolanaRpcError(`${method}: ${body.error.message ?? "error"}`);
  return body.result as T;
}

export function formatLamports(lamports: bigint): string {
  const whole = lamports / LAMPORTS_PER_SOL;
  const frac = (lamports % LAMPORTS_PER_SOL).toString().padStart(9, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : `${whole}`;
}

/** What a decoded transaction says as a payment of `buyer` to `recipient` carrying `reference`. */
export function observeSolanaPayment(
  response: SolanaTransactionResponse,
  expect: { buyer: string; recipient: string; reference: string | null },
): PaymentObservation {
  const wire = wireBytes(response);
  if (!wire) return { kind: "missing" };
  const transfers = systemTransfers(wire, response.meta?.loadedAddresses ?? null);
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
  };
}

export function solanaVerifier(env: VerifierEnv): PaymentVerifier {
  const recipient = env.PLATFORM_SOL_ADDRESS;
  const commitment = solanaCommitment(env.SOL_COMMITMENT);
  const url = env.SOL_RPC_URL;
  return {
    network: "solana",
    recipient,
    requiredConfirmations: 1,

    async inspect(signature, expect) {
      try {
        const response = await solanaRpc<SolanaTransactionResponse | null>(url, "getTransaction", [
          signature,
          { encoding: "base64", commitment, maxSupportedTransactionVersion: 0 },
        ]);
        if (response === null) return { kind: "missing" };
        return observeSolanaPayment(response, { ...expect, recipient });
      } catch (err) {
        console.warn("solana node unavailable for verification:", err instanceof Error ? err.message : String(err));
        return { kind: "unavailable" };
      }
    },

    async scan(targets, knownHashes) {
      const found: { targetId: string; hash: string }[] = [];
      try {
        for (const target of targets) {
          if (!target.reference) continue;
          const signatures = await solanaRpc<{ signature: string; err: unknown }[]>(url, "getSignaturesForAddress", [
            target.reference,
            { commitment, limit: SIGNATURES_PER_REFERENCE },
          ]);
          for (const s of signatures) if (s.err === null && !knownHashes.has(s.signature.toLowerCase())) found.push({ targetId: target.id, hash: s.signature });
        }
        return { found, scannedThrough: null };
      } catch (err) {
        console.warn("solana node unavailable for the payment scan:", err instanceof Error ? err.message : String(err));
        return { found: found.length > 0 ? found : null, scannedThrough: null };
      }
    },

    scanStart: async () => null,

    explorerUrl(signature) {
      const cluster = url.includes("devnet") ? "?cluster=devnet" : url.includes("testnet") ? "?cluster=testnet" : "";
      if (/localhost|127\.0\.0\.1/.test(url)) return null;
      return `https://explorer.solana.com/tx/${signature}${cluster}`;
    },

    formatAmount: formatLamports,
  };
}
