// Benchmark of the rarity engine on one core: `npx tsx scripts/bench/rarity.ts [count]`.
// Builds the addresses first (half Ethereum, half Solana; about 1 in 8 given a pattern, some of them
// checksummed so the EIP-55 path runs), then times analyzeAddress alone.
import { base58 } from "@scure/base";
import { randomBytes } from "node:crypto";
import { toChecksumAddress } from "../../schema/address";
import { analyzeAddress } from "../../worker/domain/rarity";

const COUNT = Number(process.argv[2] ?? 200_000);
const ROUNDS = 3;

const ETH_PATTERNS: Array<(body: string) => string> = [
  (b) => "0000" + b.slice(4),
  (b) => "dead" + b.slice(4, 36) + "beef",
  (b) => "7777" + b.slice(4),
  (b) => b.slice(0, 34) + "c0ffee",
  (b) => "abcd" + b.slice(4, 36) + "dcba",
  (b) => b.slice(0, 35) + "00000",
];
const SOL_SUFFIXES = ["pump", "Bonk", "111", "zzzz", "ABCD", "moon"];

function ethereumAddress(i: number): string {
  let body = Buffer.from(randomBytes(20)).toString("hex");
  if (i % 8 === 0) body = ETH_PATTERNS[(i >> 3) % ETH_PATTERNS.length](body);
  // Every other address checksummed, so mixed case (and the lazy keccak) is exercised.
  return i % 2 === 0 ? toChecksumAddress("0x" + body) : "0x" + body;
}

function solanaAddress(i: number): string {
  const s = base58.encode(randomBytes(32));
  if (i % 8 !== 1) return s;
  const suffix = SOL_SUFFIXES[(i >> 3) % SOL_SUFFIXES.length];
  return s.slice(0, s.length - suffix.length) + suffix;
}

const built = performance.now();
const addresses: string[] = new Array(COUNT);
const networks: Array<"ethereum" | "solana"> = new Array(COUNT);
for (let i = 0; i < COUNT; i++) {
  const eth = i % 2 === 0;
  networks[i] = eth ? "ethereum" : "solana";
  addresses[i] = eth ? ethereumAddress(i >> 1) : solanaAddress(i >> 1);
}
console.log(`built ${COUNT.toLocaleString("en-US")} addresses in ${((performance.now() - built) / 1000).toFixed(1)} s`);

let sink = 0;
for (let i = 0; i < Math.min(COUNT, 20_000); i++) sink += analyzeAddress(addresses[i], networks[i]).rarityScore;

const rates: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const t0 = performance.now();
  for (let i = 0; i < COUNT; i++) sink += analyzeAddress(addresses[i], networks[i]).rarityScore;
  const seconds = (performance.now() - t0) / 1000;
  rates.push(COUNT / seconds);
  console.log(`round ${round + 1}: ${Math.round(COUNT / seconds).toLocaleString("en-US")} addresses/s`);
}
rates.sort((x, y) => x - y);
console.log(`median: ${Math.round(rates[ROUNDS >> 1]).toLocaleString("en-US")} addresses/s on one core (goal 200,000)`);
if (sink < 0) console.log(sink);
