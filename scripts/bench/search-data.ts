// Generated listings for `npm run bench:search`: a seeded, realistic spread of networks, vanity patterns and
// categories, rarity, prices, dates, statuses and promotions, written as multi-row INSERT statements.
// Deterministic (same seed, same rows), so two runs measure the same data.
import { currencyOf } from "../../schema/network";

/** mulberry32: a small, fast, seedable PRNG (quality is plenty for test data). */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const HEX = "0123456789abcdef";
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const ETH_WORDS = [
  "dead",
  "beef",
  "cafe",
  "babe",
  "face",
  "fade",
  "feed",
  "c0ffee",
  "deadbeef",
  "b00b",
  "1337",
  "abba",
  "decade",
  "facade",
  "c0de",
  "f00d",
  "ba5e",
  "bad",
  "add",
  "0ff1ce",
  "5eed",
  "d00d",
  "a11ce",
  "b0b",
  "ace",
];
// Base58 has no 0, O, I or l, so Solana words avoid them.
const SOL_WORDS = ["So1", "SoL", "Moon", "pump", "Pump", "Jup", "BoNK", "Doge", "King", "Luck", "Bank", "Yeti", "Sun", "Gem", "Hype", "Mint"];
const SEQUENCES = ["0123456789", "123456789", "abcdef", "fedcba", "9876543210"];
export const CATEGORY_WEIGHTS: [string, number][] = [
  ["custom", 0.34],
  ["leading-zeros", 0.2],
  ["word-like", 0.2],
  ["trailing-zeros", 0.12],
  ["sequential", 0.08],
  ["palindrome", 0.06],
];

const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)];
function weighted(r: Rand, weights: [string, number][]): string {
  let x = r();
  for (const [value, w] of weights) {
    if ((x -= w) < 0) return value;
  }
  return weights[weights.length - 1][0];
}
const chars = (r: Rand, alphabet: string, n: number) => {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(r() * alphabet.length)];
  return s;
};
/** Small lengths are common, long ones rare (each extra character is 16x or 58x harder to grind). */
const vanityLength = (r: Rand, min: number, max: number) => Math.min(max, min + Math.floor(-Math.log(1 - r()) * 1.6));

export type BenchListing = {
  address: string;
  network: "ethereum" | "solana";
  price: string;
  priceUnits: number;
  currency: "ETH" | "SOL";
  rarity: number;
  difficultyLog2: number;
  category: string;
  pattern: string;
  patternLength: number;
  status: string;
  isListed: number;
  isFeatured: number;
  promotionType: string;
  createdAt: number;
};

function shape(r: Rand, network: "ethereum" | "solana", category: string): { address: string; pattern: string; length: number } {
  const alphabet = network === "ethereum" ? HEX : BASE58;
  const body = network === "ethereum" ? 40 : r() < 0.9 ? 44 : 43;
  const zero = network === "ethereum" ? "0" : "1";
  let prefix = "";
  let suffix = "";
  let pattern = "custom";
  switch (category) {
    case "leading-zeros":
      prefix = zero.repeat(vanityLength(r, 4, 12));
      pattern = prefix;
      break;
    case "trailing-zeros":
      suffix = zero.repeat(vanityLength(r, 4, 12));
      pattern = suffix;
      break;
    case "word-like": {
      const word = pick(r, network === "ethereum" ? ETH_WORDS : SOL_WORDS);
      if (r() < 0.7) prefix = word;
      else suffix = word;
      pattern = word;
      break;
    }
    case "sequential": {
      const seq = pick(r, SEQUENCES).slice(0, vanityLength(r, 5, 10));
      prefix = network === "ethereum" ? seq : seq.replace(/0/g, "1");
      pattern = prefix;
      break;
    }
    case "palindrome": {
      const half = chars(r, alphabet, vanityLength(r, 3, 5));
      prefix = half + [...half].reverse().join("");
      pattern = prefix;
      break;
    }
  }
  const middle = chars(r, alphabet, body - prefix.length - suffix.length);
  const core = prefix + middle + suffix;
  return { address: network === "ethereum" ? `0x${core}` : core, pattern, length: pattern === "custom" ? 0 : pattern.length };
}

function units(r: Rand, rarity: number, currency: "ETH" | "SOL"): number {
  // Rarer is pricier: about 0.0003 ETH at rarity 2, 3 ETH at rarity 10, with a 4x spread; SOL ~20x the number.
  const eth = 10 ** (rarity / 2 - 4.5) * (0.5 + r() * 1.5);
  const amount = currency === "ETH" ? eth : eth * 20 * (0.7 + r() * 0.6);
  return Math.max(1000, Math.round(amount * 1e8));
}

const priceString = (u: number) => {
  const whole = Math.floor(u / 1e8);
  const frac = String(u % 1e8)
    .padStart(8, "0")
    .replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : String(whole);
};

export function listing(r: Rand, now: number): BenchListing {
  const network = r() < 0.55 ? "ethereum" : "solana";
  const category = weighted(r, CATEGORY_WEIGHTS);
  const { address, pattern, length } = shape(r, network, category);
  const bits = network === "ethereum" ? 4 : Math.log2(58);
  const log2 = Math.max(0, length * bits + (r() - 0.5) * 4);
  const rarity = Math.min(10, Math.round(((10 * log2) / 64) * 10) / 10);
  const currency = currencyOf(network);
  const priceUnits = units(r, rarity, currency);
  const s = r();
  const [status, isListed] =
    s < 0.88 ? ["active", 1] : s < 0.94 ? ["sold", 0] : s < 0.96 ? ["deleted", 1] : s < 0.98 ? ["inactive", 1] : s < 0.99 ? ["pending", 1] : ["active", 0];
  const promo = r();
  const promotionType = status === "active" && promo < 0.002 ? "featured" : status === "active" && promo < 0.005 ? "promoted" : "standard";
  // Two years of listings, a little busier lately.
  const age = r() < 0.03 ? r() * 7 * 86_400_000 : r() * 730 * 86_400_000;
  return {
    address,
    network,
    price: priceString(priceUnits),
    priceUnits,
    currency,
    rarity,
    difficultyLog2: Math.round(log2 * 100) / 100,
    category,
    pattern,
    patternLength: length,
    status,
    isListed: isListed as number,
    isFeatured: promotionType === "featured" ? 1 : 0,
    promotionType,
    createdAt: Math.floor(now - age),
  };
}

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

export const INSERT_COLUMNS =
  "address, network, price, price_units, currency, rarity_score, difficulty_log2, category, pattern, pattern_length, status, is_listed, is_featured, promotion_type, created_at, updated_at";

export function valuesRow(l: BenchListing): string {
  return `(${q(l.address)},${q(l.network)},${q(l.price)},${l.priceUnits},${q(l.currency)},${l.rarity},${l.difficultyLog2},${q(l.category)},${q(l.pattern)},${l.patternLength},${q(l.status)},${l.isListed},${l.isFeatured},${q(l.promotionType)},${l.createdAt},${l.createdAt})`;
}

/** `count` listings as INSERT statements of `perStatement` rows each. */
export function* insertStatements(count: number, seed: number, now: number, perStatement = 500): Generator<string> {
  const r = prng(seed);
  for (let done = 0; done < count; done += perStatement) {
    const rows: string[] = [];
    for (let i = 0; i < Math.min(perStatement, count - done); i++) rows.push(valuesRow(listing(r, now)));
    yield `INSERT INTO addresses (${INSERT_COLUMNS}) VALUES ${rows.join(",")};`;
  }
}
