// What a search's pattern and text can match on each network, from the validated query alone (no SQL): read by
// the planner (search-plan.ts) to choose a plan and by search-sql.ts to build its statement.
import { NETWORKS, type Network } from "../../schema/db";
import type { SearchQuery } from "./search-params";

export const networksOf = (q: Pick<SearchQuery, "network">): readonly Network[] => (q.network ? [q.network] : NETWORKS);

const HEX = /^[0-9a-f]*$/;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]*$/;

/** One network's form of a pattern value, as search_key holds it (Ethereum: lower-case hex after 0x; Solana: exact). */
export type KeyBranch = { network: Network; value: string };

/**
 * The pattern value per network, or nothing for a network whose addresses cannot contain it (so "%", "_",
 * quotes or a "0" in a Solana pattern simply match nothing). An Ethereum prefix may be written with its "0x".
 */
export function keyBranches(q: SearchQuery, end: "prefix" | "suffix"): KeyBranch[] {
  if (!q.pattern) return [];
  const raw = q.pattern.value;
  const branches: KeyBranch[] = [];
  for (const network of networksOf(q)) {
    if (network === "ethereum") {
      let value = raw.toLowerCase();
      if (end === "prefix" && value.startsWith("0x")) value = value.slice(2);
      if (HEX.test(value) && (value !== "" || end === "prefix")) branches.push({ network, value });
    } else if (BASE58.test(raw) && raw !== "") {
      branches.push({ network, value: raw });
    }
  }
  return branches;
}

/** Pattern ends to search: prefix, suffix or both. */
export const patternEnds = (q: SearchQuery): ("prefix" | "suffix")[] =>
  !q.pattern ? [] : q.pattern.mode === "either" ? ["prefix", "suffix"] : [q.pattern.mode];

/** Free text as each network can contain it: Ethereum case-insensitive (checksum case is not identity), Solana exact. */
export function textBranches(q: SearchQuery): KeyBranch[] {
  if (!q.text) return [];
  return networksOf(q).flatMap((network): KeyBranch[] => {
    if (network === "ethereum") {
      const value = q.text!.toLowerCase();
      // "0x" + 40 hex digits: any other character cannot occur.
      return /^[0-9a-fx]+$/.test(value) ? [{ network, value }] : [];
    }
    return BASE58.test(q.text!) ? [{ network, value: q.text! }] : [];
  });
}
