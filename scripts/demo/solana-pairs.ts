// The demo's rare Solana listings: Solana addresses with a notable start AND end, e.g. sol…cat,
// Jup…ape, 111…dog. A single fixed Solana pattern worth rarity 7 (2^28 attempts) takes about 2 hours on one
// core at ~35,000 keys/s; accepting any notable word, run, sequence or zero-byte start together with any
// such end makes a pair worth 2^28 to 2^34 turn up every couple of minutes. The score is still the difficulty
// of producing *that* string (docs/rarity.md). The twin of word-pairs.ts (Ethereum).
// Measured for the committed rows: 50.9 M candidates in 2,400 s on one niced thread at load average 6-7
// (21,000/s), 24 hits at 7.1 to 8.3; the 8 kept score 8.3 (4) and 7.6 to 7.8 (4). HOT (8.5+, 2^34) needs
// both ends deliberately cased or a longer word: about one hit in 25, none in that run.
//
//   node --import tsx scripts/demo/solana-pairs.ts [--seconds 1800] [--out scripts/demo/listings.csv]
//
// Appends the hits at rarity >= 7 (a spread over the tiers, rarest first) to the demo CSV. One thread; each
// key is re-derived with @noble/curves before a row is written. Public keys by construction: demo only.
import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import { parseArgs } from "node:util";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { formatBulkCsv } from "../../schema/bulk-csv";
import { analyzeAddress, SOLANA_WORDS } from "../../worker/domain/rarity";
import { base58Digits32 } from "../grind/base58";
import { BASE58_ALPHABET } from "../../schema/grind-pattern";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "1800" },
    out: { type: "string", default: "scripts/demo/listings.csv" },
    min: { type: "string", default: "7" },
  },
});
const seconds = Number(values.seconds);
const minScore = Number(values.min);

// A cheap first test on three characters at each end (case folded), a superset of every notable shape the
// rarity engine scores there: a word's first or last three letters, a run of three, three in alphabet order
// (sequences need four), and zeros ("11"). Only candidates passing at both ends are analysed in full.
const fold = (c: string) => c.toLowerCase();
const starts = new Set(SOLANA_WORDS.map((w) => w.slice(0, 3)));
const ends = new Set(SOLANA_WORDS.map((w) => w.slice(-3)));
const ordered = (t: string) => {
  const i = [...t].map((c) => BASE58_ALPHABET.indexOf(c));
  return (i[1] === i[0] + 1 && i[2] === i[1] + 1) || (i[1] === i[0] - 1 && i[2] === i[1] - 1);
};
const run = (t: string) => fold(t[0]) === fold(t[1]) && fold(t[1]) === fold(t[2]);
const HEAD = new Uint8Array(58 ** 3);
const TAIL = new Uint8Array(58 ** 3);
for (let k = 0; k < 58 ** 3; k++) {
  const t = BASE58_ALPHABET[Math.floor(k / 3364)] + BASE58_ALPHABET[Math.floor(k / 58) % 58] + BASE58_ALPHABET[k % 58];
  const common = run(t) || ordered(t);
  HEAD[k] = common || t.startsWith("11") || starts.has(fold(t)) ? 1 : 0;
  TAIL[k] = common || t.endsWith("11") || ends.has(fold(t)) ? 1 : 0;
}

type Hit = { address: string; privateKey: string; score: number; pattern: string; log2: number };
const hits: Hit[] = [];
const pub = Buffer.alloc(32);
const digits = new Uint8Array(45);
const limbs = new Float64Array(16);
const JWK = { publicKeyEncoding: { format: "jwk" }, privateKeyEncoding: { format: "jwk" } } as const;
const deadline = Date.now() + seconds * 1000;
let attempts = 0;
while (Date.now() < deadline) {
  for (let n = 0; n < 1024; n++) {
    attempts++;
    const { privateKey } = generateKeyPairSync("ed25519", JWK) as unknown as { privateKey: { d: string; x: string } };
    pub.write(privateKey.x, 0, "base64url");
    const len = base58Digits32(pub, digits, limbs);
    if (HEAD[digits[0] * 3364 + digits[1] * 58 + digits[2]] === 0) continue;
    if (TAIL[digits[len - 3] * 3364 + digits[len - 2] * 58 + digits[len - 1]] === 0) continue;
    const address = base58.encode(pub);
    const a = analyzeAddress(address, "solana");
    if (a.rarityScore < minScore || a.patternPosition !== "prefix+suffix") continue;
    const seed = Buffer.from(privateKey.d, "base64url");
    if (base58.encode(ed25519.getPublicKey(seed)) !== address) throw new Error(`verification failed for ${address}`);
    hits.push({ address, privateKey: base58.encode(new Uint8Array([...seed, ...pub])), score: a.rarityScore, pattern: a.pattern, log2: a.difficulty.log2 });
    console.log(`  ${a.pattern} ${a.rarityScore} after ${attempts.toLocaleString("en-US")}`);
  }
}
console.log(
  `${attempts.toLocaleString("en-US")} candidates in ${seconds} s (${Math.round(attempts / seconds).toLocaleString("en-US")}/s), ${hits.length} hits at >= ${minScore}`,
);

// At most four per score band, the rarest first.
const chosen: Hit[] = [];
for (const band of [10, 9, 8, 7]) {
  const inBand = hits.filter((h) => Math.floor(h.score) === band || (band === 10 && h.score >= 10)).sort((x, y) => y.log2 - x.log2);
  chosen.push(...inBand.slice(0, 4));
}
const rows = chosen.map((h) => ({
  address: h.address,
  private_key: h.privateKey,
  platform: "solana",
  pattern_type: "prefix+suffix",
  pattern_matched: h.pattern.replace("...", ""),
}));
if (rows.length > 0) {
  const csv = formatBulkCsv(rows).split("\n").slice(1).join("\n");
  const existing = fs.readFileSync(values.out!, "utf8");
  fs.writeFileSync(values.out!, (existing.endsWith("\n") ? existing : `${existing}\n`) + csv + (csv.endsWith("\n") ? "" : "\n"));
}
console.log(`appended ${rows.length} rows to ${values.out}`);
