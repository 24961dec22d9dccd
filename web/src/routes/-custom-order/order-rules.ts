// The order page's rules, kept pure so they are tested without a browser: reading what the buyer typed,
// and what still stands between the buyer and the "Place order" button.
import { normalizeOrderPrefix, orderDifficultyBits, orderPatternProblems, type OrderPattern } from "../../../../schema/custom-order-pattern";

export type PatternInput = { prefix: string; suffix: string; caseSensitive: boolean };

/** The pattern as the API reads it (spaces trimmed, an optional 0x dropped from the prefix) and its problems. */
export function readPattern(input: PatternInput): { pattern: OrderPattern; problems: string[]; bits: number } {
  const pattern = { prefix: normalizeOrderPrefix(input.prefix.trim()), suffix: input.suffix.trim(), caseSensitive: input.caseSensitive };
  const problems = orderPatternProblems(pattern);
  return { pattern, problems, bits: problems.length ? 0 : orderDifficultyBits(pattern) };
}

export type PlaceState = {
  patternOk: boolean;
  refusal: string | null;
  quoteReady: boolean;
  wallet: "none" | "ethereum" | "solana";
  keyFileSaved: boolean;
  confirmed: boolean;
};

/** Why the order cannot be placed yet (the first missing step), or null when it can. */
export function whyNotPlaceable(s: PlaceState): string | null {
  if (!s.patternOk) return "Enter a valid pattern first.";
  if (s.refusal) return "This pattern is beyond what we take (the reason is above); shorten it.";
  if (!s.quoteReady) return "Waiting for the price…";
  if (s.wallet === "none") return "Connect and sign in with an Ethereum wallet to place the order.";
  if (s.wallet === "solana") return "Custom orders are paid from an Ethereum wallet; connect one instead of a Solana wallet.";
  if (!s.keyFileSaved) return "Download your encrypted secret key file first.";
  if (!s.confirmed) return "Confirm that you saved the file and will remember its password.";
  return null;
}
