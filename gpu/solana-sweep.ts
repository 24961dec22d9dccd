// The Solana kernel's short sweep at start: on a hardware GPU, a few work sizes (comb window × invocations)
// measured for a fraction of a second each, within a time budget, and the fastest kept for the run. The
// best size differs per card (the comb's table against the card's cache, the invocations against its
// cores), and the long explicit sweep (`bench:grind -- --gpu -n solana --gpu-sweep`) takes minutes. The
// result is kept per device name for the process; a software adapter is not swept (its small default stays).
/// <reference types="@webgpu/types" />
import { GpuKernelError, scaleBatches } from "./kernel-host.ts";
import { combFits, defaultSolanaWorkSize, SolanaGpuGrinder } from "./solana-grinder.ts";
import type { SolanaGpuPattern } from "./solana-pattern.ts";
import { combTable, combTableBytes } from "./solana-table.ts";

export type SolanaWorkSize = { invocations: number; batch: number; windowBits: number };

export type SweepOptions = {
  /** the whole sweep's time, compiles and table builds included (default 10 s) */
  budgetMs?: number;
  /** comb windows to try, in order (the first is the baseline, always measured; default QUICK_SWEEP_WINDOWS) */
  windows?: number[];
  /** invocations to try per window (default QUICK_SWEEP_INVOCATIONS) */
  invocations?: number[];
  batch?: number;
  /** each size's measuring time, after its warm-up dispatch */
  measureMs?: number;
  /** one line per size measured or skipped, and the choice */
  log?: (line: string) => void;
};

/**
 * The windows the short sweep tries: the 11-bit default first (106.6 M keys/s on an H200), then the wider
 * combs, fewest host-side table seconds first (13 bits: 7.5 MiB, under a second to build; 16 bits: 48 MiB,
 * about 6 s on a loaded 2-core machine); the budget decides how far it gets.
 */
export const QUICK_SWEEP_WINDOWS = [11, 13, 16, 14];
/** 65,536 is the default; 262,144 was the H200's best (116.0 against 109.1 M keys/s at 11 bits). */
export const QUICK_SWEEP_INVOCATIONS = [65_536, 262_144];

/** A pattern no key matches in practice (58^-20): the sweep never stops on a hit. */
const NEVER: SolanaGpuPattern = { prefix: "zzzzzzzzzzzzzzzzzzzz", suffix: "", caseSensitive: true };

export type SweepResult = { best: SolanaWorkSize; rate: number; ms: number; lines: string[] };

/**
 * Measures work sizes within `budgetMs` and returns the fastest. A window whose table does not fit the
 * device's buffers is left out; one the GPU cannot build is reported and skipped; a window is not started
 * when its estimated cost (table build at the rate measured so far, the last compile, the measuring) would
 * pass the budget. The baseline is always measured, so there is always a result.
 */
export async function sweepSolanaWorkSize(device: GPUDevice, options: SweepOptions = {}): Promise<SweepResult> {
  const budget = options.budgetMs ?? 10_000;
  const windows = options.windows ?? QUICK_SWEEP_WINDOWS;
  const sizes = options.invocations ?? QUICK_SWEEP_INVOCATIONS;
  const batch = options.batch ?? defaultSolanaWorkSize(false).batch;
  const measureMs = options.measureMs ?? 300;
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    options.log?.(line);
  };
  const t0 = performance.now();
  let best: { size: SolanaWorkSize; rate: number } | null = null;
  // estimates for the next window, from what the previous ones took
  let tableMsPerByte = 0;
  let compileMs = 0;
  for (const [i, windowBits] of windows.entries()) {
    if (!combFits(windowBits, device.limits)) {
      say(`  ${windowBits}-bit comb: its ${(combTableBytes(windowBits) / 2 ** 20).toFixed(1)} MiB table does not fit this device's buffers, skipped`);
      continue;
    }
    const left = budget - (performance.now() - t0);
    const estimate = tableMsPerByte * combTableBytes(windowBits) + compileMs + sizes.length * (measureMs + 150);
    if (i > 0 && estimate > left) {
      say(
        `  ${windowBits}-bit comb: skipped, about ${(estimate / 1000).toFixed(1)} s needed and ${(Math.max(0, left) / 1000).toFixed(1)} s of the sweep's ${(budget / 1000).toFixed(0)} s left`,
      );
      continue;
    }
    const tableStart = performance.now();
    combTable(windowBits);
    tableMsPerByte = Math.max(tableMsPerByte, (performance.now() - tableStart) / combTableBytes(windowBits));
    for (const invocations of sizes) {
      const size = { invocations, batch, windowBits };
      const label = `${invocations.toLocaleString("en-US").padStart(7)} invocations × batch ${batch} × ${windowBits}-bit comb`;
      let grinder: SolanaGpuGrinder;
      const compileStart = performance.now();
      try {
        grinder = await SolanaGpuGrinder.create(device, { pattern: NEVER, ...size });
      } catch (e) {
        if (!(e instanceof GpuKernelError)) throw e;
        say(`  ${label}: could not be built, skipped (${e.message.split("\n")[0]})`);
        break;
      }
      try {
        // compiling (once per window and batch) and seeding: not measured
        let t = performance.now();
        await grinder.run(1);
        compileMs = Math.max(compileMs, t - compileStart);
        const ms = performance.now() - t;
        let batches = scaleBatches(1, ms, 150);
        let candidates = 0;
        let elapsed = 0;
        for (let d = 0; elapsed < measureMs || d < 2; d++) {
          t = performance.now();
          candidates += (await grinder.run(batches)).candidates;
          const dt = performance.now() - t;
          elapsed += dt;
          batches = scaleBatches(batches, dt, 150);
        }
        const rate = (candidates * 1000) / elapsed;
        say(`  ${label}: ${(rate / 1e6).toFixed(1)} M keys/s`);
        if (!best || rate > best.rate) best = { size, rate };
      } finally {
        grinder.destroy();
      }
    }
  }
  const ms = performance.now() - t0;
  if (!best) throw new GpuKernelError("the sweep found no work size the GPU builds");
  say(
    `the sweep chose ${best.size.invocations.toLocaleString("en-US")} invocations × batch ${best.size.batch} × ${best.size.windowBits}-bit comb (${(best.rate / 1e6).toFixed(1)} M keys/s) in ${(ms / 1000).toFixed(1)} s`,
  );
  return { best: best.size, rate: best.rate, ms, lines };
}

const swept = new Map<string, Promise<SweepResult>>();

/**
 * The work size for a device: on a hardware GPU the short sweep's choice, swept once per device name for the
 * process (each later call prints its lines again); on a software adapter the small default, unswept. A
 * failed sweep is forgotten, so it runs again.
 */
export async function solanaWorkSizeFor(
  device: GPUDevice,
  name: string,
  software: boolean,
  options: SweepOptions = {},
): Promise<{ size: SolanaWorkSize; sweep: SweepResult | null }> {
  if (software) return { size: defaultSolanaWorkSize(true), sweep: null };
  let result = swept.get(name);
  if (result) {
    const r = await result;
    for (const line of r.lines) options.log?.(line);
    return { size: r.best, sweep: r };
  }
  result = sweepSolanaWorkSize(device, options);
  swept.set(name, result);
  result.catch(() => swept.delete(name));
  const r = await result;
  return { size: r.best, sweep: r };
}
