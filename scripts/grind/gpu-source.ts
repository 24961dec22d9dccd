// The GPU as a search source for the CLI and the orders loop: Dawn's high-performance adapter, a grinder
// kernel (Ethereum's or Solana's), and a loop of dispatches sized to about a quarter of a second each. Hits
// come back as the workers' Found messages (a key, or a split-key offset and variant), and the caller verifies
// each one as it verifies the CPU's: with @noble/curves, before anything is written or submitted.
import { base58 } from "@scure/base";
import { defaultWorkSize, GpuGrinder, hitPrivateKey } from "../../gpu/grinder.ts";
import { compiledOnce, type CorruptReadback, GpuKernelError, isSoftwareAdapter, scaleBatches } from "../../gpu/kernel-host.ts";
import type { GpuPattern } from "../../gpu/pattern.ts";
import { defaultSolanaWorkSize, SolanaGpuGrinder, solanaSecretKey } from "../../gpu/solana-grinder.ts";
import type { SolanaGpuPattern } from "../../gpu/solana-pattern.ts";
import { solanaWorkSizeFor, type SweepOptions } from "../../gpu/solana-sweep.ts";
import { describeSelfCheck, ethereumSelfCheck, GpuSelfCheckError, type SelfCheckResult, solanaSelfCheck } from "../../gpu/self-check.ts";
import { EXIT_NO_GPU, type GpuMode } from "./args.ts";
import { scalarToHex } from "../../schema/split-key.ts";
import { describeAdapter, nodeAdapter } from "./gpu-node.ts";
import type { SearchSource } from "./search-source.ts";
import type { Found } from "./types.ts";
import { toChecksumAddress } from "./verify.ts";

export type OpenGpu = { device: GPUDevice; adapter: GPUAdapter; name: string; software: boolean };

/** The adapter and a device on it, or why there is none. */
export async function openGpu(): Promise<OpenGpu | { reason: string }> {
  const found = await nodeAdapter();
  if (!found.adapter) return { reason: found.reason };
  const device = await found.adapter.requestDevice();
  return { device, adapter: found.adapter, name: describeAdapter(found.adapter), software: isSoftwareAdapter(found.adapter) };
}

/**
 * The GPU for --gpu / --gpu=auto: the opened GPU, null to grind on the CPU (off, or auto without a GPU: said on
 * stderr), or EXIT_NO_GPU when --gpu was required and there is none (said on stderr).
 */
export async function gpuFor(mode: GpuMode): Promise<OpenGpu | null | typeof EXIT_NO_GPU> {
  if (mode === "off") return null;
  const gpu = await openGpu();
  if (!("reason" in gpu)) return gpu;
  if (mode === "on") {
    process.stderr.write(`error: --gpu: ${gpu.reason}\n(--gpu=auto grinds on the CPU instead)\n`);
    return EXIT_NO_GPU;
  }
  process.stderr.write(`no GPU: ${gpu.reason}\ngrinding on the CPU instead\n`);
  return null;
}

/** What both networks' GPU sources take besides their pattern. */
type CommonGpuOptions = {
  /** invocations in flight (default: by adapter) */
  invocations?: number;
  /** target time per dispatch */
  targetMs?: number;
  /**
   * where to grind when the GPU fails its self-check (the CPU threads): the reason is printed and this
   * source takes over; without it the failure ends the run as a GPU error
   */
  fallback?: () => SearchSource;
  /** tests only: corrupts what the self-check's dispatches read back, as a faulty GPU would */
  corruptSelfCheck?: CorruptReadback;
};

/**
 * The GPU for this loop. --gpu=auto takes a hardware GPU only: a software adapter (SwiftShader, llvmpipe) runs
 * the kernel on the CPU, about 70 k/s on two cores against the CPU grinder's 850 k/s per core
 * (docs/benchmarks.md), so auto grinds on the CPU threads instead. --gpu takes any adapter.
 */

export async function ordersGpu(mode: GpuMode): Promise<OpenGpu | null | number> {
  const gpu = await gpuFor(mode);
  if (mode !== "auto" || gpu === null || typeof gpu === "number" || !gpu.software) return gpu;
  process.stderr.write(`${gpu.name} is a software adapter (the CPU in a GPU's clothes, slower than the CPU grinder): grinding on the CPU instead\n`);
  gpu.device.destroy();
  return null;
}

export type GpuSearchOptions = CommonGpuOptions & {
  pattern: GpuPattern;
  /** split-key order: the buyer's public key A */
  publicKey?: string;
  /** points each side of a batch's centre (default: by adapter, defaultWorkSize) */
  halfBatch?: number;
};

/**
 * One kernel behind the dispatch loop: a dispatch of `batches` batches, its candidates, its matches and the
 * matches the full hit buffer dropped; and the self-check of the same kernel configuration.
 */
type Dispatcher = {
  run(batches: number): Promise<{ candidates: number; found: Found[]; dropped: number }>;
  selfCheck(): Promise<SelfCheckResult>;
  destroy(): void;
};

/**
 * The self-check of a kernel configuration, once per device (the orders loop makes a grinder per order); a
 * failed one is forgotten, so it runs again, and a corrupted one (tests) is never kept.
 */
function checkedOnce(device: GPUDevice, key: string, corrupt: CorruptReadback | undefined, check: () => Promise<SelfCheckResult>) {
  return corrupt ? check() : compiledOnce(device, `self-check ${key}`, check);
}

/** Hit-buffer overflows are said at most this often, with the total so far. */
const OVERFLOW_NOTICE_MS = 10_000;

/**
 * The kernel in the first of `sizes` (largest first) the GPU builds: a driver may refuse a configuration
 * (NVIDIA refused the Ethereum kernel at HALF 256: "failed to validate local memory"), and a default must not
 * stop the grinder there.
 */
async function firstThatBuilds<S>(sizes: S[], describe: (size: S) => string, make: (size: S) => Promise<Dispatcher>, notice: (line: string) => void) {
  for (const [i, size] of sizes.entries()) {
    try {
      return await make(size);
    } catch (e) {
      if (!(e instanceof GpuKernelError) || i === sizes.length - 1) throw e;
      notice(`the GPU could not build the kernel at ${describe(size)} (${e.message.split("\n")[0]}); trying ${describe(sizes[i + 1])}`);
    }
  }
  throw new Error("no kernel size to try");
}

/**
 * The dispatch loop both networks share: compile, the self-check (on failure: the reason, then `fallback`
 * grinds instead), then dispatches sized to about `targetMs` each.
 */
function dispatchSource(
  gpu: OpenGpu,
  description: string,
  options: CommonGpuOptions,
  make: (notice: (line: string) => void) => Promise<Dispatcher>,
): SearchSource {
  let stopped = false;
  // the CPU threads, once the GPU failed its self-check
  let replacement: SearchSource | null = null;
  return {
    get kind() {
      return replacement ? replacement.kind : "gpu";
    },
    get description() {
      return replacement ? replacement.description : description;
    },
    start(events) {
      void gpu.device.lost.then((info) => {
        if (!stopped && !replacement) events.fail(new Error(`the GPU device was lost: ${info.message || info.reason}`));
      });
      const loop = async () => {
        events.notice(`compiling the GPU kernels${gpu.software ? " (a software adapter takes 10-60 s)" : ""}…`);
        const compiling = performance.now();
        const grinder = await make(events.notice);
        events.notice(`GPU kernels ready in ${((performance.now() - compiling) / 1000).toFixed(1)}s; checking the GPU against the CPU…`);
        try {
          events.notice(describeSelfCheck(await grinder.selfCheck()));
        } catch (e) {
          grinder.destroy();
          // a wrong answer (GpuSelfCheckError) or a malformed hit record (GpuKernelError) in the check
          if (!(e instanceof GpuSelfCheckError || e instanceof GpuKernelError)) throw e;
          const reason = `GPU self-check failed, the GPU ${gpu.name} is not used: ${e.message}`;
          if (!options.fallback) throw new GpuSelfCheckError(reason);
          if (stopped) return;
          replacement = options.fallback();
          events.notice(`${reason}\ngrinding on ${replacement.description} instead`);
          replacement.start(events);
          return;
        }
        events.ready();
        let dropped = 0;
        let saidAt = -Infinity;
        try {
          let batches = 1;
          while (!stopped) {
            const t0 = performance.now();
            const r = await grinder.run(batches);
            if (stopped) break;
            events.attempts(r.candidates);
            for (const found of r.found) events.found(found);
            dropped += r.dropped;
            if (r.dropped && performance.now() - saidAt > OVERFLOW_NOTICE_MS) {
              saidAt = performance.now();
              events.notice(
                `the GPU's hit buffer overflowed: ${dropped.toLocaleString("en-US")} match(es) dropped so far (never read back, so never revealed; found per attempt reads low for a pattern this easy)`,
              );
            }
            batches = scaleBatches(batches, performance.now() - t0, options.targetMs ?? 250);
          }
        } finally {
          grinder.destroy();
        }
      };
      loop().catch((e: Error) => {
        if (!stopped) events.fail(e);
      });
    },
    stop() {
      stopped = true;
      replacement?.stop();
    },
  };
}

/** The Ethereum kernel as a search source: plain keys, or split-key offsets for an order. */
export function gpuSource(gpu: OpenGpu, options: GpuSearchOptions): SearchSource {
  const size = defaultWorkSize(gpu.software);
  const invocations = options.invocations ?? size.invocations;
  const largest = options.halfBatch ?? size.halfBatch;
  // an order's runs start at A + k·G: its self-check also checks that seed pass
  const splitKey = options.publicKey !== undefined;
  const halves = [largest, 64, 32].filter((h, i, all) => h <= largest && all.indexOf(h) === i);
  return dispatchSource(gpu, `GPU ${gpu.name}, ${invocations.toLocaleString("en-US")} invocations`, options, (notice) =>
    firstThatBuilds(
      halves,
      (h) => `HALF ${h}`,
      async (halfBatch) => {
        const grinder = await GpuGrinder.create(gpu.device, { pattern: options.pattern, publicKey: options.publicKey, invocations, halfBatch });
        return {
          async run(batches: number) {
            const r = await grinder.run(batches);
            const found = r.hits.map((hit): Found => {
              const address = toChecksumAddress(hit.address);
              return options.publicKey === undefined
                ? { address, privateKey: hitPrivateKey(hit) }
                : { address, offset: scalarToHex(hit.scalar), variant: hit.variant };
            });
            return { candidates: r.candidates, found, dropped: r.dropped };
          },
          selfCheck: () =>
            checkedOnce(gpu.device, `ethereum ${halfBatch} ${splitKey}`, options.corruptSelfCheck, () =>
              ethereumSelfCheck(gpu.device, { halfBatch, splitKey, corrupt: options.corruptSelfCheck }),
            ),
          destroy: () => grinder.destroy(),
        };
      },
      notice,
    ),
  );
}

export type SolanaGpuSearchOptions = CommonGpuOptions & {
  pattern: SolanaGpuPattern;
  /** candidates per inversion and comb window (default: by adapter: the short sweep's choice on a GPU, solanaWorkSizeFor) */
  batch?: number;
  windowBits?: number;
  /** the short sweep's options (its time budget; tests) */
  sweep?: SweepOptions;
};

/**
 * The Ed25519 kernel as a search source: each hit as the CPU grinder reports one (the base58 address and the
 * 64-byte secret key, seed then the public key the GPU computed), so run.ts re-derives the key from the seed
 * with @noble/curves and a wrong public key is a kernel fault. Without an explicit work size, a hardware GPU
 * gets the short sweep's (gpu/solana-sweep.ts, printed line by line; once per device for the process).
 */
export function solanaGpuSource(gpu: OpenGpu, options: SolanaGpuSearchOptions): SearchSource {
  const explicit = options.invocations !== undefined || options.batch !== undefined || options.windowBits !== undefined;
  const sweeping = !explicit && !gpu.software;
  const description = sweeping
    ? `GPU ${gpu.name}, work size by a short sweep`
    : `GPU ${gpu.name}, ${(options.invocations ?? defaultSolanaWorkSize(gpu.software).invocations).toLocaleString("en-US")} invocations`;
  return dispatchSource(gpu, description, options, async (notice) => {
    let size = defaultSolanaWorkSize(gpu.software);
    if (sweeping) {
      notice(`measuring work sizes for ${gpu.name} (a short sweep, at most ${((options.sweep?.budgetMs ?? 10_000) / 1000).toFixed(0)} s, once per run):`);
      size = (await solanaWorkSizeFor(gpu.device, gpu.name, gpu.software, { ...options.sweep, log: notice })).size;
    }
    const invocations = options.invocations ?? size.invocations;
    const largest = options.batch ?? size.batch;
    const windowBits = options.windowBits ?? size.windowBits;
    const batches = [largest, 8, 4].filter((b, i, all) => b <= largest && all.indexOf(b) === i);
    return firstThatBuilds(
      batches,
      (b) => `batch ${b}`,
      async (batch) => {
        const grinder = await SolanaGpuGrinder.create(gpu.device, { pattern: options.pattern, invocations, batch, windowBits });
        return {
          async run(n: number) {
            const r = await grinder.run(n);
            const found = r.hits.map((hit) => ({ address: base58.encode(hit.publicKey), privateKey: solanaSecretKey(hit) }));
            return { candidates: r.candidates, found, dropped: r.dropped };
          },
          selfCheck: () =>
            checkedOnce(gpu.device, `solana ${batch} ${windowBits}`, options.corruptSelfCheck, () =>
              solanaSelfCheck(gpu.device, { batch, windowBits, corrupt: options.corruptSelfCheck }),
            ),
          destroy: () => grinder.destroy(),
        };
      },
      notice,
    );
  });
}
