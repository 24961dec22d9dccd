// Why a wallet payment did not go out, in the words the "Payment Failed" path shows (rejected in
// the wallet, insufficient funds, wrong chain), read from EIP-1193 / Wallet Standard errors and their causes.
import { isUserRejection } from "../wallet/wallet-errors";

export type PaymentFailureKind = "rejected" | "insufficient-funds" | "wrong-chain" | "other";
export type PaymentFailure = { kind: PaymentFailureKind; message: string };

/** Our own refusal before anything is sent (a wallet on another chain that would not switch, ...). */
export class PaymentError extends Error {
  constructor(
    readonly kind: PaymentFailureKind,
    message: string,
  ) {
    super(message);
    this.name = "PaymentError";
  }
}

const INSUFFICIENT = /insufficient (funds|balance|lamports)|exceeds (the )?balance|no record of a prior credit|not enough (funds|balance|sol|eth)/i;
const WRONG_CHAIN = /unrecognized chain|unsupported chain|chain (id )?mismatch|does not match the target chain|wrong (network|chain)/i;

function* chain(err: unknown) {
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) yield e as { code?: unknown; message?: unknown; name?: unknown };
}

export const PAYMENT_FAILURE_TEXT = {
  rejected: "You rejected the payment in your wallet. Nothing was sent.",
  insufficientFunds: "Insufficient funds: your wallet does not hold the total plus the network fee. Nothing was sent.",
  wrongChain: "Wrong network: your wallet is on another chain than the marketplace's. Switch networks in your wallet and try again.",
  fallback: "Failed to complete payment",
} as const;

export function describePaymentFailure(err: unknown): PaymentFailure {
  if (err instanceof PaymentError) return { kind: err.kind, message: err.message };
  if (isUserRejection(err)) return { kind: "rejected", message: PAYMENT_FAILURE_TEXT.rejected };
  for (const e of chain(err)) {
    const message = typeof e.message === "string" ? e.message : "";
    if (e.name === "InsufficientFundsError" || INSUFFICIENT.test(message))
      return { kind: "insufficient-funds", message: PAYMENT_FAILURE_TEXT.insufficientFunds };
    if (e.code === 4902 || e.code === 4901 || e.name === "ChainMismatchError" || WRONG_CHAIN.test(message))
      return { kind: "wrong-chain", message: PAYMENT_FAILURE_TEXT.wrongChain };
  }
  const first = chain(err).next().value;
  const text = first && typeof first.message === "string" && first.message.trim() ? first.message.trim().slice(0, 300) : PAYMENT_FAILURE_TEXT.fallback;
  return { kind: "other", message: text };
}
