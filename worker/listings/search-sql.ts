// SQL fragments of the marketplace search (all values bound as parameters; only constant SQL is raw).
// How they are combined into fast plans is in search.ts; the indexes they target are in schema/db.ts.
import { type SQL, sql } from "drizzle-orm";
import { BROWSABLE_SQL, NETWORKS, type Network } from "../../schema/db";
import type { SearchQuery } from "./search-params";

const or = (parts: SQL[]): SQL => (parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql` OR `)})`);
export const and = (parts: SQL[]): SQL => sql.join(parts, sql` AND `);

/**
 * Which rows the search may return. Always contains BROWSABLE_SQL verbatim: that is the WHERE term of the
 * partial search indexes, and SQLite only uses a partial index when the query repeats its term.
 */
export function visibility(q: Pick<SearchQuery, "availableOnly">): SQL {
  const browsable = sql.raw(BROWSABLE_SQL);
  return q.availableOnly ? sql`${browsable} AND status = 'active' AND is_listed = 1` : sql`${browsable} AND (status = 'sold' OR is_listed = 1)`;
}

/** The filters every search index carries as columns (checked inside the index, no row reads). */
export function columnFilters(q: SearchQuery): SQL[] {
  const parts: SQL[] = [];
  if (q.network) parts.push(sql`network = ${q.network}`);
  if (q.category) parts.push(sql`category = ${q.category}`);
  if (q.minLength !== null) parts.push(sql`pattern_length >= ${q.minLength}`);
  if (q.maxLength !== null) parts.push(sql`pattern_length <= ${q.maxLength}`);
  return parts;
}

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

export const reverse = (s: string) => [...s].reverse().join("");

/** The smallest string greater than every string starting with `s` (keys are ASCII), or null for "". */
export function prefixUpperBound(s: string): string | null {
  if (s === "") return null;
  return s.slice(0, -1) + String.fromCharCode(s.charCodeAt(s.length - 1) + 1);
}

function keyRange(column: "search_key" | "search_key_rev", value: string): SQL {
  const upper = prefixUpperBound(value);
  const col = sql.raw(column);
  return upper === null ? sql`${col} >= ${value}` : sql`${col} >= ${value} AND ${col} < ${upper}`;
}

/** Pattern ends to search: prefix, suffix or both. */
export const patternEnds = (q: SearchQuery): ("prefix" | "suffix")[] =>
  !q.pattern ? [] : q.pattern.mode === "either" ? ["prefix", "suffix"] : [q.pattern.mode];

/**
 * (id, k) of browsable rows whose address matches the pattern, `k` being the sort key, read only from the
 * covering prefix/suffix indexes (every column filter and sort key is in them: no row is read). Null when
 * the pattern cannot match anything.
 */
export function patternCandidates(q: SearchQuery, key: SQL): SQL | null {
  const selects: SQL[] = [];
  for (const end of patternEnds(q)) {
    const index = sql.raw(end === "prefix" ? "addresses_search_prefix" : "addresses_search_suffix");
    for (const b of keyBranches(q, end)) {
      const range = end === "prefix" ? keyRange("search_key", b.value) : keyRange("search_key_rev", reverse(b.value));
      selects.push(sql`SELECT id, ${key} AS k FROM addresses INDEXED BY ${index} WHERE ${and([visibility(q), ...columnFilters(q), sql`network = ${b.network}`, range])}`);
    }
  }
  if (selects.length === 0) return null;
  // Branches of one end are disjoint (one network each); prefix and suffix can both match a row.
  return sql.join(selects, q.pattern?.mode === "either" ? sql` UNION ` : sql` UNION ALL `);
}

/** The pattern as a per-row condition (for plans that walk a sort index instead). Null: matches nothing. */
export function patternPredicate(q: SearchQuery): SQL | null {
  const parts: SQL[] = [];
  for (const end of patternEnds(q)) {
    for (const b of keyBranches(q, end)) {
      const n = b.value.length;
      if (n === 0) parts.push(sql`network = ${b.network}`);
      else if (end === "prefix") parts.push(sql`(network = ${b.network} AND substr(search_key, 1, ${n}) = ${b.value})`);
      else parts.push(sql`(network = ${b.network} AND substr(search_key, ${-n}) = ${b.value})`);
    }
  }
  return parts.length === 0 ? null : or(parts);
}

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

/** The free text as a per-row condition. Null: matches nothing. */
export function textPredicate(q: SearchQuery): SQL | null {
  const parts = textBranches(q).map((b) =>
    b.network === "ethereum"
      ? sql`(network = 'ethereum' AND instr(lower(address), ${b.value}) > 0)`
      : sql`(network = 'solana' AND instr(address, ${b.value}) > 0)`,
  );
  return parts.length === 0 ? null : or(parts);
}

/**
 * Ids of addresses containing the free text, from the trigram index, ignoring case (textPredicate then
 * decides Solana's case). Three characters or more is an index lookup (a phrase of trigrams); shorter text
 * has no trigram and is scanned.
 */
export function textCandidates(q: SearchQuery): SQL {
  const text = q.text ?? "";
  // textBranches admits only letters and digits, so the quoted phrase cannot carry FTS syntax.
  return text.length >= 3
    ? sql`SELECT rowid AS id FROM addresses_fts WHERE addresses_fts MATCH ${`"${text}"`}`
    : sql`SELECT rowid AS id FROM addresses_fts WHERE address LIKE ${`%${text}%`}`;
}
