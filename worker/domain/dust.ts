// Dust (docs/payments.md#dust): a transfer to the platform, or an overpayment's excess, too small to be worth sending
// back (a refund costs more in fees than it returns). It is recorded in the ledger like any received payment, as
// ignored: never listed for refund, never alerted. Zero is always dust; anyone can send it for the fee alone.
import { type Coin, parseCoinAmount } from "../../schema/money";
import { type RefundStatus, refundTo } from "../../schema/ledger-lifecycle";

/** PAYMENT_DUST_ETH / PAYMENT_DUST_SOL when unset or unreadable: 0.00001 of the coin. */
export const DEFAULT_DUST: Readonly<Record<Coin, bigint>> = { ETH: 10_000_000_000_000n, SOL: 10_000n };
/** The largest setting taken (0.001 ETH, 0.01 SOL): a higher one would hide real refunds. */
export const MAX_DUST: Readonly<Record<Coin, bigint>> = { ETH: 1_000_000_000_000_000n, SOL: 10_000_000n };

/** The dust threshold of a setting, in base units; the default for a value that is unreadable or above MAX_DUST. */
export function readDust(text: string | undefined, coin: Coin): bigint {
  const value = text === undefined ? null : parseCoinAmount(text, coin);
  return value === null || value > MAX_DUST[coin] ? DEFAULT_DUST[coin] : value;
}

/** The ledger's refund status for an amount owed back: none owed, dust (ignored), or needed. */
export function refundStatusFor(refund: bigint | null, dustBelow: bigint): RefundStatus | null {
  if (refund === null) return null;
  return refund === 0n || refund < dustBelow ? refundTo("ignore") : refundTo("owe");
}
