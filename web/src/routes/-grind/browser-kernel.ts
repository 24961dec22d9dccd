// Either network's GPU kernel behind one shape for the page: a dispatch of `batches` batches gives the
// candidates it checked and the keys it found, each already re-derived with @noble/curves (a hit that does not
// verify throws KernelFault and nothing of it is kept). And the calibration, which also picks the work size.
import type { OrderPattern } from "../../../../schema/custom-order-pattern";
import { GpuGrinder } from "../../../../gpu/grinder";
import { scaleBatches } from "../../../../gpu/kernel-host";
import { ethereumSelfCheck, type SelfCheckResult, solanaSelfCheck } from "../../../../gpu/self-check";
import { SolanaGpuGrinder } from "../../../../gpu/solana-grinder";
import type { PatternSpec } from "../../../../schema/grind-pattern";
import { combTableInWorker } from "./comb-table";
import { BROWSER_DISPATCH_MS, browserWorkSizes, type GrindNetwork, verifyHit, verifySolanaHit } from "./grind-plan";

export type FoundKey = { address: string; privateKey: string };
export type BrowserKernel = { run(batches: number): Promise<{ candidates: number; found: FoundKey[] }>; destroy(): void };
export type GrindPattern = { network: "ethereum"; pattern: OrderPattern } | { network: "solana"; pattern: PatternSpec };

/** Patterns no key matches in practice (1 in 2^160 and 58^-20): the calibration never stops on a hit. */
const CALIBRATION: Record<GrindNetwork, GrindPattern> = {
  ethereum: { network: "ethereum", pattern: { prefix: "fedcba9876543210fedcba9876543210fedcba98", suffix: "", caseSensitive: false } },
  solana: { network: "solana", pattern: { network: "solana", prefix: "zzzzzzzzzzzzzzzzzzzz", suffix: "", caseSensitive: true } },
};

export async function makeKernel(device: GPUDevice, software: boolean, p: GrindPattern, invocations: number): Promise<BrowserKernel> {
  const size = browserWorkSizes(p.network, software);
  if (p.network === "ethereum") {
    const grinder = await GpuGrinder.create(device, { pattern: p.pattern, invocations, halfBatch: size.halfBatch });
    return {
      async run(batches) {
        const r = await grinder.run(batches);
        // every hit is checked, so a GPU that returns one wrong result is not trusted with the others
        return { candidates: r.candidates, found: r.hits.map((hit) => verifyHit(p.pattern, hit)) };
      },
      destroy: () => grinder.destroy(),
    };
  }
  await combTableInWorker(size.windowBits);
  const grinder = await SolanaGpuGrinder.create(device, { pattern: p.pattern, invocations, batch: size.batch, windowBits: size.windowBits });
  return {
    async run(batches) {
      const r = await grinder.run(batches);
      return { candidates: r.candidates, found: r.hits.map((hit) => verifySolanaHit(p.pattern, hit)) };
    },
    destroy: () => grinder.destroy(),
  };
}

/**
 * The GPU's self-check for this page's kernel configuration (the CLI's: a known-answer dispatch against
 * @noble/curves, then a prefix, a suffix and a case pattern against a CPU scan of the same candidates). Throws
 * GpuSelfCheckError (or GpuKernelError) with the first difference: this page then does not grind on that GPU.
 */
export async function selfCheck(device: GPUDevice, software: boolean, network: GrindNetwork): Promise<SelfCheckResult> {
  const size = browserWorkSizes(network, software);
  if (network === "ethereum") return ethereumSelfCheck(device, { halfBatch: size.halfBatch });
  // the comb table comes from a Web Worker (the page's thread stays free); the known-answer dispatch then
  // checks it with everything else against @noble/curves
  await combTableInWorker(size.windowBits);
  return solanaSelfCheck(device, { batch: size.batch, windowBits: size.windowBits });
}

export type Calibration = { rate: number; invocations: number; batches: number };

/** The calibration's measuring window, after the ramp: long enough to average over many dispatches. */
export const CALIBRATION_MS = 2500;

/**
 * The GPU's rate for a network, and the work size to grind with. Work sizes move up while a one-batch
 * dispatch stays under an eighth of the dispatch target (a large GPU is far from busy at the first size);
 * then batches grow until dispatches reach the target, uncounted; only then the rate is measured, over
 * CALIBRATION_MS and at least eight dispatches. (Counting from the first tiny dispatch, as a short
 * calibration would, makes a large GPU look several times slower than it is.)
 */
export async function calibrate(device: GPUDevice, software: boolean, network: GrindNetwork): Promise<Calibration> {
  const sizes = browserWorkSizes(network, software).invocations;
  for (const [i, invocations] of sizes.entries()) {
    const kernel = await makeKernel(device, software, CALIBRATION[network], invocations);
    try {
      // the first dispatch seeds every invocation and warms the pipeline
      await kernel.run(1);
      let t = performance.now();
      await kernel.run(1);
      let ms = performance.now() - t;
      if (ms < BROWSER_DISPATCH_MS / 8 && i < sizes.length - 1) continue;
      let batches = 1;
      for (let ramp = 0; ramp < 12 && ms < BROWSER_DISPATCH_MS / 2; ramp++) {
        const next = scaleBatches(batches, ms, BROWSER_DISPATCH_MS);
        if (next === batches) break;
        batches = next;
        t = performance.now();
        await kernel.run(batches);
        ms = performance.now() - t;
      }
      let candidates = 0;
      let elapsed = 0;
      for (let dispatches = 0; elapsed < CALIBRATION_MS || dispatches < 8; dispatches++) {
        t = performance.now();
        candidates += (await kernel.run(batches)).candidates;
        const dt = performance.now() - t;
        elapsed += dt;
        batches = scaleBatches(batches, dt, BROWSER_DISPATCH_MS);
      }
      return { rate: (candidates * 1000) / elapsed, invocations, batches };
    } finally {
      kernel.destroy();
    }
  }
  throw new Error("no work size to calibrate");
}
