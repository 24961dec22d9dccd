// Admin > Supply's words for a target (SupplyTab.tsx): what it keeps in stock and how long it has to go.
import type { SupplyCategory, SupplyTargetView } from "../../../../schema/supply";
import { aboutDuration } from "../../lib/duration";

type Network = "ethereum" | "solana";
const NETWORK_NAME: Record<Network, string> = { ethereum: "Ethereum", solana: "Solana" };
export const CATEGORY_NAME: Record<SupplyCategory, string> = { "leading-zeros": "leading zeros", "trailing-zeros": "trailing zeros" };

/** "7 or more leading zeros" in words, with the characters ground for them. */
export function targetWords(t: Pick<SupplyTargetView, "network" | "category" | "patternLength">): string {
  const zero = t.network === "ethereum" ? "0" : "1";
  return `${NETWORK_NAME[t.network]}, ${t.patternLength} or more ${CATEGORY_NAME[t.category]} (${t.category === "leading-zeros" ? `${zero.repeat(t.patternLength)}…` : `…${zero.repeat(t.patternLength)}`})`;
}

/** How long until the target is full, in words. */
export function fillWords(t: Pick<SupplyTargetView, "status" | "stock" | "wanted" | "secondsToFill" | "openClaims">): string {
  if (t.stock >= t.wanted) return "Full";
  if (t.status === "paused") return "Paused: no grinder takes it";
  if (t.secondsToFill === null) return t.openClaims > 0 ? "A grinder has claimed it and not reported yet" : "No grinder is working on it";
  return `Full in ${aboutDuration(t.secondsToFill)} at the current rate`;
}
