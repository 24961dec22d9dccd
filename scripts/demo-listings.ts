// The demo's living look: the committed demo CSV goes through the bulk import like any
// upload, and this plan dresses its rows the way a real marketplace would look. Deterministic (everything is
// derived from each address), so every fresh clone shows the same marketplace:
// - prices spread around the checker's estimated value for the address (0.75x to 1.75x, three significant
//   digits), instead of the bulk table's few fixed prices;
// - the two rarest listings promoted and the next six featured;
// - creation dates spread over the last 60 days.
import { validateAddress } from "../schema/address";
import type { Network } from "../schema/db";
import type { BulkRow } from "../schema/listings";
import { decimalToUnits, unitsToDecimal } from "../schema/money";
import { analyzeAddress, estimateValue } from "../worker/domain/rarity";
import type { ImportOptions, RowDecoration } from "../worker/listings/import";

export const DEMO_DAYS = 60;
const DAY_MS = 24 * 60 * 60 * 1000;
const PROMOTED = 2;
const FEATURED = 6;
/** Cheapest demo price per currency, so no listing shows a dust amount. */
const FLOOR: Record<Network, bigint> = { ethereum: decimalToUnits("0.0005"), solana: decimalToUnits("0.01") };

/** FNV-1a over the text, with a salt: a stable pseudo-random 32-bit number per (address, purpose). */
function hash(text: string, salt: string): number {
  let h = 0x811c9dc5;
  for (const ch of salt + text) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** `units` rounded to three significant digits, half up. */
export function threeSignificant(units: bigint): bigint {
  const digits = units.toString().length;
  if (digits <= 3) return units;
  const step = 10n ** BigInt(digits - 3);
  return ((units + step / 2n) / step) * step;
}

export function demoPrice(address: string, network: Network, difficultyLog2: number): string {
  const base = decimalToUnits(estimateValue(difficultyLog2, network));
  const permille = 750n + BigInt(hash(address, "price") % 1001); // 0.750x .. 1.750x
  const units = threeSignificant((base * permille) / 1000n);
  return unitsToDecimal(units < FLOOR[network] ? FLOOR[network] : units);
}

/** Decorations by address (as validateAddress normalizes it) for the rows of the demo CSV. */
export function planDemoListings(rows: BulkRow[], now: number): Map<string, RowDecoration> {
  const planned: { address: string; network: Network; log2: number }[] = [];
  for (const row of rows) {
    const network = row.platform?.trim().toLowerCase() === "solana" ? "solana" : "ethereum";
    const checked = validateAddress(row.address ?? "", network);
    if (!checked.isValid) continue; // the import reports it
    const a = analyzeAddress(checked.normalized, network);
    planned.push({ address: checked.normalized, network, log2: a.difficulty.log2 });
  }
  const byRarity = [...planned].sort((x, y) => y.log2 - x.log2 || (x.address < y.address ? -1 : 1));
  const rank = new Map(byRarity.map((p, i) => [p.address, i]));
  const plan = new Map<string, RowDecoration>();
  for (const p of planned) {
    const r = rank.get(p.address)!;
    const age = hash(p.address, "age") % (DEMO_DAYS * DAY_MS);
    plan.set(p.address, {
      price: demoPrice(p.address, p.network, p.log2),
      createdAt: now - age,
      promotionType: r < PROMOTED ? "promoted" : r < PROMOTED + FEATURED ? "featured" : "standard",
      featuredUntil: null,
    });
  }
  return plan;
}

/**
 * How the seed imports the demo CSV: the engine's scores (the checker's), the 8+ character rows kept, and
 * every row dressed by planDemoListings. One definition for the seed and the test that checks what it gives.
 */
export function demoImportOptions(rows: BulkRow[], now: number): ImportOptions {
  const plan = planDemoListings(rows, now);
  // The demo shows every tier, plain addresses included, so it confirms listing those as an admin would.
  return { rarity: "engine", longPatterns: "keep", confirmNoPattern: true, now, decorate: ({ address }) => plan.get(address) };
}
