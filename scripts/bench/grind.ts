// npm run bench:grind [-- --seconds 5 --network ethereum|solana --no-alternatives]
// npm run bench:grind -- --gpu [--seconds 10] [--gpu-invocations N] [--gpu-half-batch H] [--gpu-sweep]
// npm run bench:grind -- --gpu -n solana [--gpu-invocations N] [--gpu-batch B] [--gpu-window W] [--gpu-sweep]
// Runs each network's searcher on ONE core (this thread) against a pattern that will not match
// in the time given and prints candidates per second. Multiply by cores for a full grind.
// With --gpu: the network's kernel on the adapter Dawn finds (Ethereum: plain and split-key; Solana), printed
// beside the CPU figures of the same run; --gpu-sweep also tries other work sizes (for tuning on a new GPU),
// reporting any the GPU cannot build.
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { EthereumSearcher } from "../grind/ethereum.ts";
import { expectedAttempts, type Network, type PatternSpec } from "../../schema/grind-pattern.ts";
import { SolanaSearcher } from "../grind/solana.ts";
import { publicKeyOf, randomSecret } from "../../schema/split-key.ts";
import type { Searcher } from "../grind/types.ts";
import { defaultWorkSize, GpuGrinder } from "../../gpu/grinder.ts";
import { GpuKernelError, scaleBatches } from "../../gpu/kernel-host.ts";
import { defaultSolanaWorkSize, SolanaGpuGrinder } from "../../gpu/solana-grinder.ts";
import { solanaWorkSizeFor } from "../../gpu/solana-sweep.ts";
import { openGpu, type OpenGpu } from "../grind/gpu-source.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    network: { type: "string", short: "n" },
    "no-alternatives": { type: "boolean", default: false },
    gpu: { type: "boolean", default: false },
    "gpu-invocations": { type: "string" },
    "gpu-half-batch": { type: "string" },
    "gpu-batch": { type: "string" },
    "gpu-window": { type: "string" },
    "gpu-sweep": { type: "boolean", default: false },
    // the sweep's values, comma-separated, in place of its defaults
    "sweep-invocations": { type: "string" },
    "sweep-half-batches": { type: "string" },
    "sweep-batches": { type: "string" },
    "sweep-windows": { type: "string" },
  },
});
const list = (raw: string | undefined, fallback: number[]) => (raw ? raw.split(",").map(Number) : fallback);
const seconds = Number(values.seconds);
// with --gpu the CPU side is the Ethereum figures to compare with (plain and split-key)
const networks: Network[] = values.network ? [values.network as Network] : values.gpu ? ["ethereum"] : ["ethereum", "solana"];
if (values.gpu) values["no-alternatives"] = true;

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
const cpuRates = new Map<string, number>();
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
    cpuRates.set(label, rate);
    console.log(
      `${label.padEnd(42)} ${fmt(rate).padStart(10)} candidates/s per core   (prefix=${spec.prefix}, 1 in ${expectedAttempts(spec).toExponential(1)}; setup ${setupMs.toFixed(0)} ms)`,
    );
  }
}

if (cpuRates.has("ethereum")) {
  const ratio = cpuRates.get("ethereum split-key (custom orders)")! / cpuRates.get("ethereum")!;
  console.log(`split-key / plain: ${(100 * ratio).toFixed(1)}% (goal: at least 90%)`);
}
if (values.gpu)
  console.log(`all ${availableParallelism()} cores (estimate, one core × cores): ${fmt(cpuRates.get(networks[0])! * availableParallelism())} candidates/s`);

/** A work size to measure; `kernel` names its compiled kernel (work sizes differing only in invocations share one). */
type GpuConfig = { label: string; kernel: string; make: () => Promise<{ run(batches: number): Promise<{ candidates: number }>; destroy(): void }> };

/**
 * candidates/s of each configuration over `secs`, after a warm-up dispatch (compiling, seeding every invocation).
 * The grinders take turns, one dispatch each, so a change in the machine's load falls on all of them alike.
 * A configuration the GPU cannot build (a driver may refuse a kernel whose private arrays are too large) is
 * reported with its reason and left out, never the end of the run.
 */
async function gpuRates(configs: GpuConfig[], secs: number) {
  const setup = performance.now();
  const runs = [];
  const failed: { label: string; reason: string }[] = [];
  for (const config of configs) {
    try {
      const grinder = await config.make();
      const t = performance.now();
      await grinder.run(1);
      runs.push({ label: config.label, grinder, batches: scaleBatches(1, performance.now() - t, 250), candidates: 0, ms: 0, dispatches: 0 });
    } catch (e) {
      if (!(e instanceof GpuKernelError)) throw e;
      failed.push({ label: config.label, reason: e.message.split("\n")[0] });
    }
  }
  const setupMs = performance.now() - setup;
  const t0 = performance.now();
  while (runs.length && performance.now() - t0 < secs * 1000) {
    for (const r of runs) {
      const t = performance.now();
      r.candidates += (await r.grinder.run(r.batches)).candidates;
      const ms = performance.now() - t;
      r.ms += ms;
      r.dispatches++;
      r.batches = scaleBatches(r.batches, ms, 250);
    }
  }
  for (const r of runs) r.grinder.destroy();
  return {
    setupMs,
    failed,
    rates: runs.map((r) => ({ label: r.label, rate: (r.candidates * 1000) / r.ms, dispatches: r.dispatches, batches: r.batches })),
  };
}

const ethereumConfig = (gpu: OpenGpu, invocations: number, halfBatch: number, publicKey?: string): GpuConfig => ({
  label: `invocations ${invocations.toLocaleString("en-US").padStart(8)}  HALF ${String(halfBatch).padStart(3)}`,
  kernel: `HALF ${halfBatch}`,
  make: () => GpuGrinder.create(gpu.device, { pattern: PATTERNS.ethereum, invocations, halfBatch, publicKey }),
});

const solanaConfig = (gpu: OpenGpu, invocations: number, batch: number, windowBits: number, sharedInversion = false): GpuConfig => ({
  label: `invocations ${invocations.toLocaleString("en-US").padStart(8)}  batch ${String(batch).padStart(2)}  window ${windowBits} bits${sharedInversion ? "  shared inversion" : ""}`,
  kernel: `batch ${batch}, ${windowBits}-bit window${sharedInversion ? ", shared inversion" : ""}`,
  make: () => SolanaGpuGrinder.create(gpu.device, { pattern: PATTERNS.solana, invocations, batch, windowBits, sharedInversion }),
});

/** The sweep's table, and the best configuration it found (for --gpu-invocations and the defaults). */
async function sweep(configs: GpuConfig[]) {
  console.log("work-size sweep (2 s each):");
  let best: { label: string; rate: number } | null = null;
  const unbuildable = new Set<string>();
  for (const config of configs) {
    if (unbuildable.has(config.kernel)) {
      console.log(`  ${config.label}  skipped (${config.kernel} could not be built, above)`);
      continue;
    }
    const {
      rates: [r],
      failed,
    } = await gpuRates([config], 2);
    if (r) {
      console.log(`  ${config.label}  ${fmt(r.rate).padStart(14)} candidates/s`);
      if (!best || r.rate > best.rate) best = r;
    } else {
      console.log(`  ${config.label}  could not be built, skipped: ${failed[0].reason}`);
      unbuildable.add(config.kernel);
    }
  }
  if (best) console.log(`best: ${best.label.replace(/\s+/g, " ")}, ${fmt(best.rate)} candidates/s`);
}

async function benchGpu(network: Network) {
  const gpu = await openGpu();
  if ("reason" in gpu) {
    console.log(`GPU: none (${gpu.reason})`);
    process.exitCode = 4;
    return;
  }
  const info = gpu.adapter.info;
  const limits = gpu.adapter.limits;
  console.log(`GPU adapter: ${gpu.name}${gpu.software ? " [software: runs on this machine's CPU cores]" : ""}`);
  console.log(`  vendor=${info.vendor} architecture=${info.architecture} device=${info.device} description=${info.description}`);
  console.log(
    `  limits: maxComputeInvocationsPerWorkgroup=${limits.maxComputeInvocationsPerWorkgroup} maxStorageBufferBindingSize=${limits.maxStorageBufferBindingSize}`,
  );
  const gpuSecs = Math.max(seconds, 2) * 2;
  const cores = availableParallelism();
  if (network === "solana") {
    let size = defaultSolanaWorkSize(gpu.software);
    const explicit = values["gpu-invocations"] !== undefined || values["gpu-batch"] !== undefined || values["gpu-window"] !== undefined;
    let chosenBy = explicit ? "given" : "the software adapter's default";
    if (!explicit && !gpu.software) {
      // what the CLI grinds with: the short sweep's choice for this card
      console.log("the short sweep at start (what `npm run grind -- --gpu` does on this GPU):");
      size = (await solanaWorkSizeFor(gpu.device, gpu.name, gpu.software, { log: (line) => console.log(line) })).size;
      chosenBy = "the short sweep's choice";
    }
    const invocations = Number(values["gpu-invocations"] ?? size.invocations);
    const batch = Number(values["gpu-batch"] ?? size.batch);
    const windowBits = Number(values["gpu-window"] ?? size.windowBits);
    // the same size with one inversion per workgroup, taking turns with it (the kernel option the figures decide)
    const { setupMs, failed, rates } = await gpuRates(
      [solanaConfig(gpu, invocations, batch, windowBits), solanaConfig(gpu, invocations, batch, windowBits, true)],
      gpuSecs,
    );
    for (const f of failed) console.log(`GPU solana (${f.label.trim()}): the kernel could not be built: ${f.reason}`);
    if (!rates.length || rates[0].label.includes("shared")) {
      process.exitCode = 1;
    } else {
      const [plain] = rates;
      console.log(
        `${"GPU solana".padEnd(42)} ${fmt(plain.rate).padStart(14)} keys/s   (${invocations.toLocaleString("en-US")} invocations, batch ${batch}, ${windowBits}-bit comb, ${chosenBy}; ${plain.dispatches} dispatches, last ${plain.batches} batches; compile + first dispatch ${(setupMs / 1000).toFixed(1)}s)`,
      );
      const shared = rates.find((r) => r.label.includes("shared"));
      if (shared)
        console.log(
          `${"GPU solana, one inversion per workgroup".padEnd(42)} ${fmt(shared.rate).padStart(14)} keys/s   (the same size; ${((100 * shared.rate) / plain.rate).toFixed(1)}% of one inversion per invocation)`,
        );
      const perCore = cpuRates.get("solana");
      if (perCore)
        console.log(
          `GPU / one CPU core: ${(plain.rate / perCore).toFixed(1)}x; GPU / all ${cores} cores (one core × cores): ${(plain.rate / (perCore * cores)).toFixed(1)}x`,
        );
      console.log("goal on one H100-class GPU: at least 200 M keys/s; the floor: 106.6 M keys/s (the 11-bit comb's default on an H200)");
    }
    if (values["gpu-sweep"]) {
      const sizes = list(values["sweep-invocations"], gpu.software ? [32, 128] : [65_536, 262_144]);
      const configs: GpuConfig[] = [];
      for (const w of list(values["sweep-windows"], gpu.software ? [8] : [11, 13, 14, 16]))
        for (const b of list(values["sweep-batches"], gpu.software ? [4, 8] : [16, 32])) for (const n of sizes) configs.push(solanaConfig(gpu, n, b, w));
      await sweep(configs);
    }
    gpu.device.destroy();
    return;
  }
  const size = defaultWorkSize(gpu.software);
  const invocations = Number(values["gpu-invocations"] ?? size.invocations);
  const halfBatch = Number(values["gpu-half-batch"] ?? size.halfBatch);
  const { setupMs, failed, rates } = await gpuRates(
    [ethereumConfig(gpu, invocations, halfBatch), ethereumConfig(gpu, invocations, halfBatch, publicKeyOf(randomSecret()))],
    gpuSecs,
  );
  if (rates.length < 2) {
    console.log(`GPU ethereum: the kernel could not be built: ${failed[0]?.reason}`);
    process.exitCode = 1;
  } else {
    const [plain, split] = rates;
    const work = `${invocations.toLocaleString("en-US")} invocations, HALF=${halfBatch}`;
    console.log(
      `${"GPU ethereum".padEnd(42)} ${fmt(plain.rate).padStart(14)} candidates/s   (${work}; ${plain.dispatches} dispatches, last ${plain.batches} batches)`,
    );
    console.log(
      `${"GPU ethereum split-key (custom orders)".padEnd(42)} ${fmt(split.rate).padStart(14)} candidates/s   (${split.dispatches} dispatches; compile + first dispatches ${(setupMs / 1000).toFixed(1)}s)`,
    );
    console.log(`GPU split-key / plain: ${((100 * split.rate) / plain.rate).toFixed(1)}% (goal: at least 90%)`);
    const cpu = cpuRates.get("ethereum");
    if (cpu) console.log(`GPU / one CPU core: ${(plain.rate / cpu).toFixed(2)}x; GPU / all ${cores} cores: ${(plain.rate / (cpu * cores)).toFixed(2)}x`);
    console.log("goal on one H100: at least 1,000 M/s (the profanity2 anchor), 300 M/s the least that counts");
  }
  if (values["gpu-sweep"]) {
    const sizes = list(values["sweep-invocations"], gpu.software ? [64, 256, 1024] : [16_384, 32_768, 65_536, 131_072, 262_144]);
    const configs: GpuConfig[] = [];
    for (const h of list(values["sweep-half-batches"], gpu.software ? [16, 32, 64] : [64, 128, 256]))
      for (const n of sizes) configs.push(ethereumConfig(gpu, n, h));
    await sweep(configs);
  }
  gpu.device.destroy();
}

// last: the functions above are consts, initialised only once the module body reaches them
if (values.gpu) await benchGpu(networks[0]);
