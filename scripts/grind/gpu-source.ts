// The GPU as a search source for the CLI and the orders loop: Dawn's high-performance adapter, a grinder
// kernel (Ethereum's or Solana's), and a loop of dispatches sized to about a quarter of a second each. Hits
// come back as the workers' Found messages (a key, or a split-key offset and variant), and the caller verifies
// each one as it verifies the CPU's: with @noble/curves, before anything is written or submitted.
import { base58 } from "@scure/base";
import { defaultWorkSize, GpuGrinder, GpuKernelError, hitPrivateKey, isSoftwareAdapter, scaleBatches } from "../../gpu/grinder.ts";
import type { GpuPattern } from "../../gpu/pattern.ts";
import { defaultSolanaWorkSize, SolanaGpuGrinder, solanaSecretKey } from "../../gpu/solana-grinder.ts";
import type { SolanaGpuPattern } from "../../gpu/solana-pattern.ts";
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

export type GpuSearchOptions = {
  pattern: GpuPattern;
  /** split-key order: the buyer's public key A */
  publicKey?: string;
  /** invocations in flight (default: by adapter, defaultWorkSize) */
  invocations?: number;
  /** target time per dispatch */
  targetMs?: number;
};

/** One kernel behind the dispatch loop: a dispatch of `batches` batches, its candidates and its matches. */
type Dispatcher = { run(batches: number): Promise<{ candidates: number; found: Found[] }>; destroy(): void };

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

/** The dispatch loop both networks share: compile, then dispatches sized to about `targetMs` each. */
function dispatchSource(gpu: OpenGpu, description: string, targetMs: number, make: (notice: (line: string) => void) => Promise<Dispatcher>): SearchSource {
  let stopped = false;
  return {
    kind: "gpu",
    description,
    start(events) {
      void gpu.device.lost.then((info) => {
        if (!stopped) events.fail(new Error(`the GPU device was lost: ${info.message || info.reason}`));
      });
      const loop = async () => {
        events.notice(`compiling the GPU kernels${gpu.software ? " (a software adapter takes 10-60 s)" : ""}…`);
        const compiling = performance.now();
        const grinder = await make(events.notice);
        events.notice(`GPU kernels ready in ${((performance.now() - compiling) / 1000).toFixed(1)}s`);
        events.ready();
        try {
          let batches = 1;
          while (!stopped) {
            const t0 = performance.now();
            const r = await grinder.run(batches);
            if (stopped) break;
            events.attempts(r.candidates);
            for (const found of r.found) events.found(found);
            batches = scaleBatches(batches, performance.now() - t0, targetMs);
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
    },
  };
}

/** The Ethereum kernel as a search source: plain keys, or split-key offsets for an order. */
export function gpuSource(gpu: OpenGpu, options: GpuSearchOptions): SearchSource {
  const size = defaultWorkSize(gpu.software);
  const invocations = options.invocations ?? size.invocations;
  const halves = [size.halfBatch, 64, 32].filter((h, i, all) => h <= size.halfBatch && all.indexOf(h) === i);
  return dispatchSource(gpu, `GPU ${gpu.name}, ${invocations.toLocaleString("en-US")} invocations`, options.targetMs ?? 250, (notice) =>
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
            return { candidates: r.candidates, found };
          },
          destroy: () => grinder.destroy(),
        };
      },
      notice,
    ),
  );
}

export type SolanaGpuSearchOptions = {
  pattern: SolanaGpuPattern;
  invocations?: number;
  targetMs?: number;
};

/**
 * The Ed25519 kernel as a search source: each hit as the CPU grinder reports one (the base58 address and the
 * 64-byte secret key, seed then the public key the GPU computed), so run.ts re-derives the key from the seed
 * with @noble/curves and a wrong public key is a kernel fault.
 */
export function solanaGpuSource(gpu: OpenGpu, options: SolanaGpuSearchOptions): SearchSource {
  const size = defaultSolanaWorkSize(gpu.software);
  const invocations = options.invocations ?? size.invocations;
  const batches = [size.batch, 8, 4].filter((b, i, all) => b <= size.batch && all.indexOf(b) === i);
  return dispatchSource(gpu, `GPU ${gpu.name}, ${invocations.toLocaleString("en-US")} invocations`, options.targetMs ?? 250, (notice) =>
    firstThatBuilds(
      batches,
      (b) => `batch ${b}`,
      async (batch) => {
        const grinder = await SolanaGpuGrinder.create(gpu.device, { pattern: options.pattern, invocations, batch, windowBits: size.windowBits });
        return {
          async run(n: number) {
            const r = await grinder.run(n);
            return { candidates: r.candidates, found: r.hits.map((hit) => ({ address: base58.encode(hit.publicKey), privateKey: solanaSecretKey(hit) })) };
          },
          destroy: () => grinder.destroy(),
        };
      },
      notice,
    ),
  );
}
