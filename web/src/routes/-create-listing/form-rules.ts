// The create-listing form's pure rules: when the address is checked, and the fee preview's "seller receives". The
// price's message is lib/price-input.ts's priceError, shared with the owner's price edit.
import { detectNetworkForForm } from "../../../../schema/address";
import type { Network } from "../../../../schema/db";

/** Address validation starts at this many characters. */
export const VALIDATE_MIN_LENGTH = 10;
/** The fee preview waits this long after the price changes. */
export const FEE_PREVIEW_DELAY_MS = 800;
/** Price minus every fee, never below 0, to 8 decimals. */
export function sellerReceives(price: string, fees: (string | number)[]): string {
  const total = fees.reduce<number>((sum, f) => sum + Number(f || 0), 0);
  const left = Number(price) - total;
  return (Number.isFinite(left) && left > 0 ? left : 0).toFixed(8);
}

/** A fee as a percentage of the price ("0%", "2.5%"). */
export function feePercent(fee: string | number, price: string | number): string {
  const p = Number(price);
  const f = Number(fee);
  if (!(p > 0) || !Number.isFinite(f)) return "0%";
  return `${Number(((f / p) * 100).toFixed(2))}%`;
}

/**
 * The listing's network: the one the address shows, as soon as it shows one (a 0x address is Ethereum, whatever
 * the select said before), else the seller's choice. `locked` says the select follows the address.
 */
export function formNetwork(address: string, chosen: Network): { network: Network; locked: boolean } {
  const detected = detectNetworkForForm(address.trim());
  return detected ? { network: detected.network, locked: true } : { network: chosen, locked: false };
}
