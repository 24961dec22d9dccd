// Regenerates scripts/demo/listings.csv with the real grinder: a spread of vanity addresses over
// the rarity engine's categories (docs/rarity.md). The keys are public by construction: demo only.
//
//   node --import tsx scripts/demo/generate.ts [--threads 1] [--out FILE] [--only ethereum|solana] [--dry-run]
//   node --import tsx scripts/demo/generate.ts --summary   # categories of the existing file (rarity engine)
//
// One grinder run per pattern (--append into a temporary file, moved into place at the end), one
// thread by default so the machine stays usable. Every pattern_matched is at most 7 characters
// except the mirror rows (a mirror of k characters matches 2k of them; see the report below).
import { spawnSync } from "node:child_process";
import { chmodSync, renameSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { readRows } from "../grind/csv.ts";
import { expectedAttempts, type Network, type PatternSpec } from "../../schema/grind-pattern.ts";

type Category = "leading-zeros" | "trailing-zeros" | "word-like" | "sequential" | "palindrome" | "custom";

interface Job {
  network: Network;
  category: Category;
  prefix?: string;
  suffix?: string;
  mirror?: number;
  cs?: boolean; // --case-sensitive
  count: number;
}

const e = (category: Category, j: Omit<Job, "network" | "category" | "count">, count = 1): Job => ({ network: "ethereum", category, count, ...j });
const s = (category: Category, j: Omit<Job, "network" | "category" | "count">, count = 1): Job => ({ network: "solana", category, count, ...j });
const words = (network: Network, where: "prefix" | "suffix", list: string, cs = false): Job[] =>
  list.split(" ").map((w) => ({ network, category: "word-like", [where]: w, cs, count: 1 }));

const JOBS: Job[] = [
  // ---------------- Ethereum (~900k keys/s per core: 5 hex = 1 s, 6 hex = 20 s)
  e("leading-zeros", { prefix: "000" }, 5),
  e("leading-zeros", { prefix: "0000" }, 10),
  e("leading-zeros", { prefix: "00000" }, 4),
  e("leading-zeros", { prefix: "000000" }, 2),
  e("trailing-zeros", { suffix: "000" }, 5),
  e("trailing-zeros", { suffix: "0000" }, 7),
  e("trailing-zeros", { suffix: "00000" }, 4),
  e("trailing-zeros", { suffix: "000000" }, 1),
  ...words(
    "ethereum",
    "prefix",
    "dead beef cafe babe face fade f00d c0de d00d feed deed abba 1337 5afe ba5e b055 c001 10ad 7e57 1dea deaf bead aced ac1d 5eed",
  ),
  ...words("ethereum", "suffix", "beef dead cafe babe face f00d c0de feed d00d 5afe b01d c01d f001 dea1 1eaf be57 7ac0 ca5e 5a1e bade cede dace abed"),
  ...words("ethereum", "prefix", "c0ded added a55e7 ad0be ebbed facade 0ff1ce"),
  ...words("ethereum", "suffix", "decaf faded bea57 70a57 c0c0a c0ffee"),
  // EIP-55 case pinned (each letter halves the odds)
  ...words("ethereum", "prefix", "DEAD CAFE Babe C0DE beef", true),
  ...words("ethereum", "suffix", "BEEF FACE F00D", true),
  // prefix + suffix
  e("leading-zeros", { prefix: "000", suffix: "000" }, 2),
  e("leading-zeros", { prefix: "000", suffix: "00" }, 2),
  e("word-like", { prefix: "dead", suffix: "00" }),
  e("word-like", { prefix: "cafe", suffix: "00" }),
  e("word-like", { prefix: "beef", suffix: "00" }),
  e("word-like", { prefix: "c0de", suffix: "0" }),
  e("word-like", { prefix: "f00d", suffix: "0" }),
  // sequences step by one in 0123456789abcdef, either direction
  e("sequential", { prefix: "1234" }, 2),
  e("sequential", { prefix: "abcd" }, 2),
  ...["0123", "9876", "4567", "cdef", "3456", "789a", "fedc", "5678", "12345", "98765"].map((p) => e("sequential", { prefix: p })),
  ...["1234", "abcd", "6789", "4321", "0123", "dcba", "abcde"].map((x) => e("sequential", { suffix: x })),
  // mirrors: last 4 = first 4 reversed (any 4)
  e("palindrome", { mirror: 4 }, 6),
  // runs of one non-zero character
  ...["7777", "aaaa", "5555", "bbbb", "ffff", "1111", "9999", "eeee", "3333", "8888", "77777"].map((p) => e("custom", { prefix: p })),
  ...["7777", "cccc", "2222", "6666", "dddd", "4444", "aaaaa", "99999"].map((x) => e("custom", { suffix: x })),
  e("custom", { prefix: "AAAA", cs: true }),

  // ---------------- Solana (~25k keys/s per core; a leading 1 is a zero byte: 1 in 256)
  s("leading-zeros", { prefix: "11" }, 6),
  s("trailing-zeros", { suffix: "11" }, 2),
  s("trailing-zeros", { suffix: "111" }, 5),
  // case-insensitive words: 2 cases per letter where base58 has both
  s("word-like", { suffix: "sol" }, 2),
  ...words("solana", "suffix", "pump bonk moon king cat dog ape jup wif gem fox sun zen dev nft dao lfg ray"),
  // at the start only 2..H are common first characters (44-character addresses)
  ...words("solana", "prefix", "Bonk Ape Cat Dog Gem Fox Bot Dev Hero Cash Sol"),
  // sequences in base58 order 123456789ABCDEFGHJKLMN...: exact case
  ...["2345", "ABCD", "HJKL"].map((p) => s("sequential", { prefix: p, cs: true })),
  s("palindrome", { mirror: 4, cs: true }),
  ...["777", "888", "999", "555", "333"].map((p) => s("custom", { prefix: p })),
  ...["zzz", "777", "AAA"].map((x) => s("custom", { suffix: x, cs: true })),
];

function specOf(j: Job): PatternSpec {
  return { network: j.network, prefix: j.prefix ?? "", suffix: j.suffix ?? "", caseSensitive: j.cs ?? false, mirror: j.mirror ?? 0 };
}

function describe(j: Job): string {
  const parts = [j.prefix && `prefix ${j.prefix}`, j.suffix && `suffix ${j.suffix}`, j.mirror && `mirror ${j.mirror}`].filter(Boolean).join(" + ");
  return `${j.network} ${parts}${j.cs ? " (case-sensitive)" : ""} x${j.count} [${j.category}]`;
}

const { values } = parseArgs({
  options: {
    threads: { type: "string", default: "1" },
    out: { type: "string", default: fileURLToPath(new URL("listings.csv", import.meta.url)) },
    only: { type: "string" },
    "dry-run": { type: "boolean", default: false },
    summary: { type: "boolean", default: false },
  },
});
/** Prints how the rarity engine (worker/domain/rarity) classifies the rows of a listings CSV. */
async function summarize(file: string): Promise<void> {
  const all = readRows(file);
  const { analyzeAddress } = await import("../../worker/domain/rarity/index.ts");
  for (const network of ["ethereum", "solana"] as const) {
    const rows = all.filter((r) => r.platform === network);
    const byCategory = new Map<string, string[]>();
    for (const r of rows) {
      const a = analyzeAddress(r.address, network);
      const key = a.rarityScore > 0 ? a.category : "not notable";
      byCategory.set(key, [...(byCategory.get(key) ?? []), `${r.pattern_matched}${a.caseSensitivePattern ? "*" : ""}`]);
    }
    const long = rows.filter((r) => r.pattern_matched.length > 7).length;
    console.log(`${network}: ${rows.length} rows (${long} with pattern_matched over 7 characters; * = case-sensitive score)`);
    for (const [cat, pats] of [...byCategory].sort((a, b) => b[1].length - a[1].length))
      console.log(`  ${cat.padEnd(15)} ${String(pats.length).padStart(3)}  ${pats.join(" ")}`);
  }
}

if (values.summary) {
  await summarize(values.out);
  process.exit(0);
}

const jobs = JOBS.filter((j) => !values.only || j.network === values.only);
const RATE: Record<Network, number> = { ethereum: 900_000, solana: 25_000 }; // per core, unloaded
const fmtS = (sec: number) => (sec < 120 ? `${sec.toFixed(1)}s` : `${(sec / 60).toFixed(1)}min`);

let estimate = 0;
for (const j of jobs) estimate += (j.count * expectedAttempts(specOf(j))) / RATE[j.network] + 1;
const rows = (n: Network) => jobs.filter((j) => j.network === n).reduce((a, j) => a + j.count, 0);
console.log(
  `${jobs.length} grinder runs, ${rows("ethereum")} Ethereum + ${rows("solana")} Solana rows, estimated ${fmtS(estimate / Number(values.threads))} on ${values.threads} thread(s)`,
);
if (values["dry-run"]) {
  for (const j of jobs) console.log(`  ${describe(j).padEnd(64)} ~${fmtS((j.count * expectedAttempts(specOf(j))) / RATE[j.network])}`);
  process.exit(0);
}

const cli = fileURLToPath(new URL("../grind/cli.ts", import.meta.url));
const tmp = `${values.out}.partial`;
rmSync(tmp, { force: true });
const started = performance.now();
const perNetwork: Record<Network, number> = { ethereum: 0, solana: 0 };
for (const [i, j] of jobs.entries()) {
  const args = ["--network", j.network, "--count", String(j.count), "--threads", values.threads, "--out", tmp, "--append", "--quiet"];
  if (j.prefix) args.push("--prefix", j.prefix);
  if (j.suffix) args.push("--suffix", j.suffix);
  if (j.mirror) args.push("--mirror", String(j.mirror));
  if (j.cs) args.push("--case-sensitive");
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["--import", "tsx", cli, ...args], { stdio: ["ignore", "inherit", "pipe"], encoding: "utf8" });
  const secs = (performance.now() - t0) / 1000;
  perNetwork[j.network] += secs;
  if (r.status !== 0) {
    process.stderr.write(r.stderr);
    console.error(`grinder failed (exit ${r.status}) on ${describe(j)}; partial output left in ${tmp}`);
    process.exit(1);
  }
  console.log(`[${i + 1}/${jobs.length}] ${describe(j).padEnd(64)} ${fmtS(secs)}`);
}
renameSync(tmp, values.out);
chmodSync(values.out, 0o644); // demo keys are public by construction
const total = (performance.now() - started) / 1000;
console.log(
  `wrote ${readRows(values.out).length} rows to ${values.out} in ${fmtS(total)} (ethereum ${fmtS(perNetwork.ethereum)}, solana ${fmtS(perNetwork.solana)})`,
);
await summarize(values.out);
