// The GPU as a search source for the CLI and the orders loop: Dawn's high-performance adapter, the grinder
// kernel, and a loop of dispatches sized to about a quarter of a second each. Hits come back as the workers'
// Found messages (a key, or a split-key offset and variant), and the caller verifies each one as it verifies
// the CPU's: with @noble/curves, before anything is written or submitted.
import { defaultWorkSize, GpuGrinder, hitPrivateKey, isSoftwareAdapter, scaleBatches } from "../../gpu/grinder.ts";
import type { GpuPattern } from "../../gpu/pattern.ts";
import { EXIT_NO_GPU, type GpuMode } from "./args.ts";
import { scalarToHex } from "../../schema/split-key.ts";
import { describeAdapter, nodeAdapter } from "./gpu-node.ts";
import type { SearchSource } from "./search-source.ts";
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

export function gpuSource(gpu: OpenGpu, options: GpuSearchOptions): SearchSource {
  const size = defaultWorkSize(gpu.software);
  const invocations = options.invocations ?? size.invocations;
  let stopped = false;
  return {
    kind: "gpu",
    description: `GPU ${gpu.name}, ${invocations.toLocaleString("en-US")} invocations`,
    start(events) {
      void gpu.device.lost.then((info) => {
        if (!stopped) events.fail(new Error(`the GPU device was lost: ${info.message || info.reason}`));
      });
      const loop = async () => {
        events.notice(`compiling the GPU kernels${gpu.software ? " (a software adapter takes 10-30 s)" : ""}…`);
        const compiling = performance.now();
        const grinder = await GpuGrinder.create(gpu.device, {
          pattern: options.pattern,
          publicKey: options.publicKey,
          invocations,
          halfBatch: size.halfBatch,
        });
        events.notice(`GPU kernels ready in ${((performance.now() - compiling) / 1000).toFixed(1)}s`);
        events.ready();
        try {
          let batches = 1;
          while (!stopped) {
            const t0 = performance.now();
            const r = await grinder.run(batches);
            if (stopped) break;
            events.attempts(r.candidates);
            for (const hit of r.hits) {
              const address = toChecksumAddress(hit.address);
              events.found(
                options.publicKey === undefined
                  ? { address, privateKey: hitPrivateKey(hit) }
                  : { address, offset: scalarToHex(hit.scalar), variant: hit.variant },
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
    },
  };
}
