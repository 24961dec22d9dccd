// The fixed query mix of `npm run bench:search`, as the marketplace client sends it (as the specification lists them:
// excludeSold=true, limit, offset, then each non-default filter), and the latency arithmetic.

export type MixQuery = { name: string; query: string };

const page = (params: string, offset = 0) => `excludeSold=true&limit=20&offset=${offset}${params ? `&${params}` : ""}`;

export const QUERY_MIX: MixQuery[] = [
  { name: "default page", query: page("") },
  { name: "network=ethereum", query: page("network=ethereum") },
  { name: "network=solana", query: page("network=solana") },
  { name: "category=word-like", query: page("category=word-like") },
  { name: "category=palindrome", query: page("category=palindrome") },
  { name: "minCharLength=8", query: page("minCharLength=8") },
  { name: "maxCharLength=4", query: page("maxCharLength=4") },
  { name: "min 6 + max 8", query: page("minCharLength=6&maxCharLength=8") },
  { name: "excludeSold=false", query: page("").replace("excludeSold=true", "excludeSold=false") },
  { name: "prefix dead", query: page("patternFilter=prefix&patternValue=dead") },
  { name: "prefix 0000 (common)", query: page("patternFilter=prefix&patternValue=0000") },
  { name: "suffix beef", query: page("patternFilter=suffix&patternValue=beef") },
  { name: "suffix pump (Solana)", query: page("patternFilter=suffix&patternValue=pump") },
  { name: "either cafe", query: page("patternFilter=either&patternValue=cafe") },
  { name: "search c0ffee", query: page("search=c0ffee") },
  { name: "search Moon", query: page("search=Moon") },
  { name: "sort rarity desc", query: page("sortBy=rarity&sortOrder=desc") },
  { name: "sort rarity asc", query: page("sortBy=rarity&sortOrder=asc") },
  { name: "sort price desc", query: page("sortBy=price&sortOrder=desc") },
  { name: "sort price asc", query: page("sortBy=price&sortOrder=asc") },
  { name: "sort createdAt desc", query: page("sortBy=createdAt&sortOrder=desc") },
  { name: "sort createdAt asc", query: page("sortBy=createdAt&sortOrder=asc") },
  { name: "page 50", query: page("", 980) },
  { name: "page 50, price asc", query: page("sortBy=price&sortOrder=asc", 980) },
];

/**
 * Short and odd searches: one to three characters of text and pattern (the commonest patterns: an
 * address's own leading zeros, either end), the "0x" every Ethereum address starts with, characters only one
 * network's alphabet has.
 */
export const SHORT_MIX: MixQuery[] = [
  { name: "search a", query: page("search=a") },
  { name: "search x", query: page("search=x") },
  { name: "search 0x", query: page("search=0x") },
  { name: "search 0xd", query: page("search=0xd") },
  { name: "search ab", query: page("search=ab") },
  { name: "search Mo", query: page("search=Mo") },
  { name: "search zz", query: page("search=zz") },
  { name: "search dea", query: page("search=dea") },
  { name: "search So1", query: page("search=So1") },
  { name: "prefix 0x", query: page("patternFilter=prefix&patternValue=0x") },
  { name: "prefix 0", query: page("patternFilter=prefix&patternValue=0") },
  { name: "prefix 00", query: page("patternFilter=prefix&patternValue=00") },
  { name: "prefix 000", query: page("patternFilter=prefix&patternValue=000") },
  { name: "suffix 00", query: page("patternFilter=suffix&patternValue=00") },
  { name: "either 0", query: page("patternFilter=either&patternValue=0") },
  { name: "prefix de", query: page("patternFilter=prefix&patternValue=de") },
  { name: "suffix f", query: page("patternFilter=suffix&patternValue=f") },
  { name: "either 1 (Solana)", query: page("patternFilter=either&patternValue=1") },
  { name: "either ab", query: page("patternFilter=either&patternValue=ab") },
];

/** The last page of the window (offset 9,980) in every order inside filters, and common patterns' (every end, every order). */
export const DEEP_MIX: MixQuery[] = [
  { name: "deep rarity asc, leading-zeros", query: page("category=leading-zeros&sortBy=rarity&sortOrder=asc", 9980) },
  { name: "deep rarity desc, palindrome", query: page("category=palindrome&sortBy=rarity&sortOrder=desc", 9980) },
  { name: "deep price asc, word-like", query: page("category=word-like&sortBy=price&sortOrder=asc", 9980) },
  { name: "deep createdAt asc, custom", query: page("category=custom&sortBy=createdAt&sortOrder=asc", 9980) },
  { name: "deep price desc, min 8", query: page("minCharLength=8&sortBy=price&sortOrder=desc", 9980) },
  { name: "deep rarity asc, solana", query: page("network=solana&sortBy=rarity&sortOrder=asc", 9980) },
  { name: "deep price asc, prefix 0000", query: page("patternFilter=prefix&patternValue=0000&sortBy=price&sortOrder=asc", 9980) },
  { name: "deep rarity desc, suffix 0000", query: page("patternFilter=suffix&patternValue=0000&sortBy=rarity&sortOrder=desc", 9980) },
  { name: "deep createdAt asc, either 1111", query: page("patternFilter=either&patternValue=1111&sortBy=createdAt&sortOrder=asc", 9980) },
  { name: "deep price desc, prefix 00000 + min 6", query: page("minCharLength=6&patternFilter=prefix&patternValue=00000&sortBy=price&sortOrder=desc", 9980) },
  { name: "deep rarity asc, prefix 0000000", query: page("patternFilter=prefix&patternValue=0000000&sortBy=rarity&sortOrder=asc", 9980) },
  { name: "deep createdAt desc, either abcd", query: page("patternFilter=either&patternValue=abcd&sortBy=createdAt&sortOrder=desc", 9980) },
  { name: "deep price asc, prefix 000", query: page("patternFilter=prefix&patternValue=000&sortBy=price&sortOrder=asc", 9980) },
  { name: "deep rarity desc, prefix 00", query: page("patternFilter=prefix&patternValue=00&sortBy=rarity&sortOrder=desc", 9980) },
  { name: "deep createdAt asc, prefix 0", query: page("patternFilter=prefix&patternValue=0&sortBy=createdAt&sortOrder=asc", 9980) },
  // A walk against the pattern's order: ascending rarity passes the commoner keys of "0" before "000000"'s.
  { name: "deep rarity asc, prefix 000000", query: page("patternFilter=prefix&patternValue=000000&sortBy=rarity&sortOrder=asc", 9980) },
  {
    name: "deep rarity asc, suffix 000 + trailing-zeros",
    query: page("category=trailing-zeros&patternFilter=suffix&patternValue=000&sortBy=rarity&sortOrder=asc", 9980),
  },
  // "Either" of a value whose two networks' keys differ ("A": Solana's exact case, Ethereum's "a"): four ranges,
  // each counted, and the price walks per network and currency.
  { name: "deep price asc, either A", query: page("patternFilter=either&patternValue=A&sortBy=price&sortOrder=asc", 9980) },
  { name: "deep price asc, either 11", query: page("patternFilter=either&patternValue=11&sortBy=price&sortOrder=asc", 9980) },
  { name: "deep, search Moon", query: page("search=Moon&sortBy=createdAt&sortOrder=asc", 4900) },
];

/** Nearest-rank percentile of a sample, in the sample's unit. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}
