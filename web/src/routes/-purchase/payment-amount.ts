// Amounts to pay, in integers only: wei (1 ETH = 10^18) and lamports (1 SOL = 10^9). The wallet is asked to
// send exactly `amountBaseUnits`; a float never touches the figure.
import type { Network } from "../../../../schema/db";
import { decimalToUnits, unitsToBaseUnits } from "../../../../schema/money";
import { currencyOf } from "../../../../schema/network";

/** A decimal string of base units as a bigint; anything but plain digits is refused. */
export function parseBaseUnits(units: string): bigint {
  if (!/^\d{1,40}$/.test(units)) throw new Error("The amount to pay is not a whole number of base units.");
  return BigInt(units);
}

/**
 * The base units to send, after checking that they are the total shown to the buyer: the page refuses to
 * ask the wallet for an amount that differs from the one on screen.
 */
export function amountToSend(view: { network: Network; totalAmount: string; amountBaseUnits: string }): bigint {
  const units = parseBaseUnits(view.amountBaseUnits);
  if (units <= 0n) throw new Error("The amount to pay must be more than zero.");
  // The same exact conversion the server used to compute amountBaseUnits (schema/money.ts).
  if (totalInBaseUnits(view.network, view.totalAmount) !== units) {
    throw new Error("The amount to pay does not match the total shown. Reload the page and try again.");
  }
  return units;
}

/** The total shown (a decimal with at most 8 places) in wei or lamports; anything else is refused. */
export function totalInBaseUnits(network: Network, totalAmount: string): bigint {
  return unitsToBaseUnits(decimalToUnits(totalAmount), currencyOf(network));
}
