// npm run bench:grind [-- --seconds 5 --network ethereum|solana --no-alternatives]
// Runs each network's searcher on ONE core (this thread) against a pattern that will not match
// in the time given and prints candidates per second. Multiply by cores for a full grind.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { ed25519 } from "@noble/curves/ed25519.js";
import { EthereumSearcher } from "../grind/ethereum.ts";
import { expectedAttempts, type Network, type PatternSpec } from "../grind/pattern.ts";
import { SolanaSearcher } from "../grind/solana.ts";
import { publicKeyOf, randomSecret } from "../../schema/split-key.ts";
import type { Searcher } from "../grind/types.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    network: { type: "string" },
    "no-alternatives": { type: "boolean", default: false },
  },
});
const seconds = Number(values.seconds);
const networks: Network[] = values.network ? [values.network as Network] : ["ethereum", "solana"];

// practically impossible: 16^-12 and ~58^-8
const PATTERNS: Record<Network, PatternSpec> = {
  ethereum: { network: "ethereum", prefix: "fedcba987654", suffix: "", caseSensitive: false },
  solana: { network: "solana", prefix: "zzzzzzzz", suffix: "", caseSensitive: true },
};

function measure(step: () => number, secs: number): number {
  // short warm-up so the JIT has settled before the clock starts
  const warm = performance.now();
  while (performance.now() - warm < Math.min(1000, secs * 200)) step();
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while ((t = performance.now()) - t0 < secs * 1000) n += step();
  return n / ((t - t0) / 1000);
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const rates = new Map<string, number>();
console.log(`grind benchmark: one core, ${seconds}s per network (node ${process.version})`);
const VARIANTS: Record<Network, [string, () => Searcher][]> = {
  ethereum: [
    ["ethereum", () => new EthereumSearcher(PATTERNS.ethereum)],
    // custom orders search from the buyer's A; goal: within 10% of the plain search
    ["ethereum split-key (custom orders)", () => new EthereumSearcher(PATTERNS.ethereum, { publicKey: publicKeyOf(randomSecret()) })],
    ["  without endomorphism (reference)", () => new EthereumSearcher(PATTERNS.ethereum, { endomorphism: false })],
    ["  + JS keccak instead of wasm (reference)", () => new EthereumSearcher(PATTERNS.ethereum, { endomorphism: false, keccak: "js" })],
  ],
  solana: [["solana", () => new SolanaSearcher(PATTERNS.solana)]],
};
for (const network of networks) {
  const spec = PATTERNS[network];
  for (const [label, make] of VARIANTS[network]) {
    if (label.includes("reference") && values["no-alternatives"]) continue;
    const setup = performance.now();
    const searcher = make();
    const setupMs = performance.now() - setup;
    const rate = measure(() => searcher.step().attempts, label.includes("reference") ? Math.min(seconds, 2) : seconds);
    rates.set(label, rate);
    console.log(
      `${label.padEnd(42)} ${fmt(rate).padStart(10)} candidates/s per core   (prefix=${spec.prefix}, 1 in ${expectedAttempts(spec).toExponential(1)}; setup ${setupMs.toFixed(0)} ms)`,
    );
  }
}

if (rates.has("ethereum")) {
  const ratio = rates.get("ethereum split-key (custom orders)")! / rates.get("ethereum")!;
  console.log(`split-key / plain: ${(100 * ratio).toFixed(1)}% (goal: at least 90%)`);
}

if (networks.includes("solana") && !values["no-alternatives"]) {
  console.log("solana key generation alternatives (1s each, key pair + raw public key only):");
  const alt: [string, () => void][] = [
    ["node generateKeyPairSync, JWK encoding (used)", () => void generateKeyPairSync("ed25519", { publicKeyEncoding: { format: "jwk" }, privateKeyEncoding: { format: "jwk" } })],
    ["node generateKeyPairSync, DER encoding", () => void generateKeyPairSync("ed25519", { publicKeyEncoding: { format: "der", type: "spki" }, privateKeyEncoding: { format: "der", type: "pkcs8" } })],
    ["@noble/curves ed25519.getPublicKey(randomBytes)", () => void ed25519.getPublicKey(randomBytes(32))],
  ];
  for (const [name, fn] of alt) {
    const rate = measure(() => {
      for (let i = 0; i < 16; i++) fn();
      return 16;
    }, 1);
    console.log(`  ${name.padEnd(50)} ${fmt(rate).padStart(8)} /s`);
  }
}
