// The demo's rarest listings: Ethereum addresses with a notable start AND end, e.g. dead…beef,
// 000…c0de, c0ded…f00d. One grinder chain accepts any of about 2,000 such pairs at once, so a pair worth
// 2^32 to 2^40 attempts (score 8 to 10 on the rarity scale) turns up every few seconds on one core; a
// single fixed pattern of that difficulty would take hours to weeks. The score is still the difficulty of
// producing *that* string (docs/rarity.md), and the letters' EIP-55 case, which the grinder does not aim
// for, lifts about one pair in five by 2 to 4 more points of difficulty.
//
//   node --import tsx scripts/demo/word-pairs.ts [--seconds 240] [--out scripts/demo/listings.csv]
//
// Appends a spread over the top tiers (7, 8, HOT 8.5, ring 9, 10) to the demo CSV. One thread; the keys
// are re-derived with @noble before a row is written. Public keys by construction: demo only.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { formatBulkCsv } from "../../schema/bulk-csv";
import { analyzeAddress, ETHEREUM_WORDS } from "../../worker/domain/rarity";
import { addressNibble, EthereumSearcher } from "../grind/ethereum";
import { ethereumAddressFromPrivateKey } from "../grind/verify";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "240" }, out: { type: "string", default: "scripts/demo/listings.csv" } } });
const seconds = Number(values.seconds);

// Tables over the first / last 4 and 5 nibbles: which values spell a dictionary word there.
const words4 = [...ETHEREUM_WORDS].filter((w) => w.length === 4);
const words5 = [...ETHEREUM_WORDS].filter((w) => w.length === 5);
const table = (words: string[], bits: number) => {
  const t = new Uint8Array(1 << bits);
  for (const w of words) t[parseInt(w, 16)] = 1;
  return t;
};
const [W4, W5] = [table(words4, 16), table(words5, 20)];

/** A notable end: a 4- or 5-character word, or at least three zeros. */
const notable = (five: number, four: number, zeros3: number) => W5[five] === 1 || W4[four] === 1 || zeros3 === 0;

const searcher = new EthereumSearcher({ network: "ethereum", prefix: "", suffix: "", caseSensitive: false });
searcher.accept = (d) => {
  const head = (addressNibble(d, 0) << 16) | (addressNibble(d, 1) << 12) | (addressNibble(d, 2) << 8) | (addressNibble(d, 3) << 4) | addressNibble(d, 4);
  if (!notable(head, head >>> 4, head >>> 8)) return false;
  const tail = (addressNibble(d, 35) << 16) | (addressNibble(d, 36) << 12) | (addressNibble(d, 37) << 8) | (addressNibble(d, 38) << 4) | addressNibble(d, 39);
  return notable(tail, tail & 0xffff, tail & 0xfff);
};

type Hit = { address: string; privateKey: string; score: number; pattern: string; log2: number };
const hits: Hit[] = [];
const deadline = Date.now() + seconds * 1000;
let attempts = 0;
while (Date.now() < deadline) {
  const { attempts: n, found } = searcher.step();
  attempts += n;
  if (!found || !("privateKey" in found)) continue;
  if (ethereumAddressFromPrivateKey(found.privateKey) !== found.address) throw new Error(`verification failed for ${found.address}`);
  const a = analyzeAddress(found.address, "ethereum");
  if (a.patternPosition === "prefix+suffix")
    hits.push({ address: found.address, privateKey: found.privateKey, score: a.rarityScore, pattern: a.pattern, log2: a.difficulty.log2 });
}
console.log(
  `${attempts.toLocaleString("en-US")} candidates in ${seconds} s (${Math.round(attempts / seconds).toLocaleString("en-US")}/s), ${hits.length} prefix+suffix hits`,
);

// A few per tier, the rarest first within each.
const tiers: [min: number, max: number, take: number][] = [
  [10, 10, 2],
  [9, 9.9, 4],
  [8.5, 8.9, 4],
  [8, 8.4, 4],
  [7, 7.9, 4],
];
const chosen: Hit[] = [];
for (const [min, max, take] of tiers) {
  const inTier = hits.filter((h) => h.score >= min && h.score <= max).sort((x, y) => y.log2 - x.log2);
  chosen.push(...inTier.slice(0, take));
  console.log(
    `  ${min}-${max}: ${inTier.length} found, ${Math.min(take, inTier.length)} kept ${inTier
      .slice(0, take)
      .map((h) => `${h.pattern} ${h.score}`)
      .join(", ")}`,
  );
}
const rows = chosen.map((h) => ({
  address: h.address,
  private_key: h.privateKey,
  platform: "ethereum",
  pattern_type: "prefix+suffix",
  pattern_matched: h.pattern.replace("...", "").toLowerCase(),
}));
const csv = formatBulkCsv(rows).split("\n").slice(1).join("\n");
const existing = fs.readFileSync(values.out!, "utf8");
fs.writeFileSync(values.out!, existing.endsWith("\n") ? existing + csv + (csv.endsWith("\n") ? "" : "\n") : `${existing}\n${csv}\n`);
console.log(`appended ${rows.length} rows to ${values.out}`);
