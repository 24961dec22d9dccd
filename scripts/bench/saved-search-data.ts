// Generated saved searches and new listings for `npm run bench:saved-searches` (scripts/bench/saved-searches.ts),
// seeded so every run measures the same data. The searches are the kinds a vanity collector saves: mostly a
// pattern at one end (a word, a run of zeros), some free text, some filters alone, a few very broad; the listings
// carry patterns from the same pool often enough that a realistic share of them match something.
import * as v from "valibot";
import { canonicalFilters, storedCriteria } from "../../worker/collectors/saved-searches.ts";
import { type SearchKey, searchKeys } from "../../worker/collectors/search-keys.ts";
import { plannedQuery } from "../../worker/listings/search-match.ts";
import { searchQuerySchema } from "../../worker/listings/search-params.ts";

/** mulberry32. */
export function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEX = "0123456789abcdef";
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const CATEGORIES = ["leading-zeros", "trailing-zeros", "word-like", "palindrome", "sequential", "custom"];
/** Words collectors look for (hex-spellable, runs, years; base58 names), the generated listings use the same pool. */
const ETH_WORDS = [
  "dead",
  "beef",
  "cafe",
  "c0de",
  "face",
  "babe",
  "0000",
  "00000",
  "000000",
  "1337",
  "abcd",
  "f00d",
  "bad",
  "ace",
  "add",
  "fee",
  "decaf",
  "b00b5",
  "c0ffee",
  "deadbeef",
  "facade",
  "decade",
  "accede",
  "befa11",
  "5eed",
  "0ff1ce",
  "ca11",
  "ba5e",
  "b0ss",
  "d00d",
  "feed",
  "fade",
  "bead",
  "deaf",
  "dab",
  "cab",
  "ebb",
  "a11",
  "5a1e",
  "ab1e",
  "1ce",
  "f1a5c0",
  "c0c0a",
  "d1ce",
  "be5t",
  "10ad",
  "50da",
  "ba11",
  "fab",
  "1234",
  "12345",
  "abcdef",
  "111111",
  "222222",
  "777777",
  "888888",
  "999999",
  "2024",
  "2025",
  "2026",
  "69",
  "420",
  "cafebabe",
  "baadf00d",
  "defaced",
  "effaced",
  "0b5e55ed",
  "5ca1ab1e",
  "c0de1e55",
  "acce55",
  "b1e55ed",
  "a55e7",
  "de1e7e",
  "d15ea5e",
  "0ddba11",
  "f005ba11",
];
const SOL_WORDS = [
  "Moon",
  "Sun",
  "AAA",
  "So1",
  "Pump",
  "DAO",
  "NFT",
  "Cat",
  "Dog",
  "King",
  "Bonk",
  "JUP",
  "zzz",
  "Hodl",
  "Degen",
  "Wen",
  "Gm",
  "Ape",
  "Whale",
  "Bull",
  "Bear",
  "Rich",
  "Magic",
  "Star",
  "Punk",
  "Gem",
  "Based",
  "Chad",
  "Frog",
  "Pepe",
  "Doge",
  "Shib",
  "Luna",
  "Mars",
  "Sky",
  "Zen",
  "Yolo",
  "Ninja",
  "Pixel",
  "Vault",
];

const pick = <T>(r: () => number, xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
const randomText = (r: () => number, alphabet: string, n: number) => Array.from({ length: n }, () => pick(r, [...alphabet])).join("");

export type GeneratedSearch = { userId: number; name: string; query: string; criteria: string; keys: SearchKey[] };

/**
 * One saved search's filters, as the marketplace URL would hold them: 72% a pattern at one end (a pool word or a
 * random run of 3-6 characters; most with a network, some with a category or a length), 20% free text, 2% one or
 * two characters, 5% filters alone (a network, a category and a long minimum length: the rare listings), 1% nothing
 * at all (every new listing matches it).
 */
function filtersFor(r: () => number): Record<string, string> {
  const f: Record<string, string> = {};
  const kind = r();
  const eth = r() < 0.65;
  const word = () => (r() < 0.5 ? pick(r, eth ? ETH_WORDS : SOL_WORDS) : randomText(r, eth ? HEX : BASE58, 3 + Math.floor(r() * 4)));
  if (kind < 0.72) {
    f.patternValue = word();
    f.patternFilter = pick(r, ["prefix", "prefix", "suffix", "either"]);
    if (r() < 0.6) f.network = eth ? "ethereum" : "solana";
    if (r() < 0.2) f.category = pick(r, CATEGORIES);
    if (r() < 0.15) f.minCharLength = String(3 + Math.floor(r() * 4));
  } else if (kind < 0.92) {
    f.search = word();
    if (r() < 0.5) f.network = eth ? "ethereum" : "solana";
  } else if (kind < 0.94) {
    if (r() < 0.5) f.search = randomText(r, eth ? HEX : BASE58, 1 + Math.floor(r() * 2));
    else f.patternValue = randomText(r, eth ? HEX : BASE58, 1 + Math.floor(r() * 2));
  } else if (kind < 0.99) {
    f.network = eth ? "ethereum" : "solana";
    f.category = pick(r, CATEGORIES);
    f.minCharLength = String(7 + Math.floor(r() * 4));
  }
  // else: nothing at all, the broadest search there is
  if (r() < 0.3) f.sortBy = pick(r, ["price", "rarity"]);
  return f;
}

/** `count` saved searches over `users` users (ids firstUser..), each user's searches distinct, as the Worker stores them. */
export function generateSearches(count: number, firstUser: number, users: number, seed: number): GeneratedSearch[] {
  const r = rng(seed);
  const out: GeneratedSearch[] = [];
  const seen = new Set<string>();
  while (out.length < count) {
    const userId = firstUser + (out.length % users);
    const { filters, query } = canonicalFilters(filtersFor(r));
    if (seen.has(`${userId} ${query}`)) continue;
    const parsed = v.safeParse(searchQuerySchema, filters);
    if (!parsed.success) continue;
    const planned = plannedQuery(parsed.output);
    if (!planned) continue;
    seen.add(`${userId} ${query}`);
    out.push({ userId, name: `search ${out.length}`, query, criteria: storedCriteria(parsed.output), keys: searchKeys(planned) });
  }
  return out;
}

/** `n` written with `digits` characters of `alphabet`. */
function inAlphabet(n: number, alphabet: string, digits: number): string {
  let out = "";
  for (let i = 0, rest = n; i < digits; i++, rest = Math.floor(rest / alphabet.length)) out = alphabet[rest % alphabet.length] + out;
  return out;
}

export type GeneratedListing = { address: string; network: "ethereum" | "solana"; category: string; patternLength: number; price: string };

/** `count` new listings; about a third carry a pool word at one end; pattern lengths mostly 0-5, a few 6-8. */
export function generateListings(count: number, seed: number): GeneratedListing[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const eth = r() < 0.6;
    const word = r() < 0.35 ? pick(r, eth ? ETH_WORDS : SOL_WORDS) : "";
    const atStart = r() < 0.6;
    const length = eth ? 40 : 44;
    const body = randomText(r, eth ? HEX : BASE58, length - word.length - 6) + randomText(r, eth ? HEX : BASE58, 6);
    const key = atStart ? word + body : body + word;
    // Unique: the listing's index in the last characters of the body, away from the word.
    const tag = inAlphabet(i, eth ? HEX : BASE58, 5);
    const unique = atStart ? `${key.slice(0, length - 5)}${tag}` : `${tag}${key.slice(5)}`;
    const address = eth ? `0x${unique}` : unique;
    return {
      address,
      network: eth ? "ethereum" : "solana",
      category: pick(r, CATEGORIES),
      patternLength: word ? word.length : Math.floor(r() * 4),
      price: `0.${1 + (i % 9)}`,
    };
  });
}
