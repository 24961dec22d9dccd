// useBrowserGrind: the grinder in this tab. Finds WebGPU, measures the GPU's rate on a pattern that cannot
// match, then grinds a pattern until a hit that @noble/curves confirms. The key exists only in this page's
// memory: nothing here makes a network request.
import { useCallback, useEffect, useRef, useState } from "react";
import type { OrderPattern } from "../../../../schema/custom-order-pattern";
import { GpuGrinder, scaleBatches } from "../../../../gpu/grinder";
import { type BrowserGpu, openBrowserGpu } from "./browser-gpu";
import { BROWSER_DISPATCH_MS, browserWorkSize, KernelFault, verifyHit } from "./grind-plan";

export type Progress = { attempts: number; rate: number; seconds: number };

export type GrindState =
  | { phase: "checking" }
  | { phase: "unavailable"; message: string }
  | { phase: "idle" }
  | { phase: "measuring" }
  | { phase: "grinding"; progress: Progress }
  | { phase: "found"; address: string; privateKey: string; progress: Progress }
  | { phase: "stopped"; progress: Progress }
  | { phase: "failed"; message: string };

/** Every character fixed (1 in 2^160): the calibration never stops on a hit. */
const CALIBRATION: OrderPattern = { prefix: "fedcba9876543210fedcba9876543210fedcba98", suffix: "", caseSensitive: false };
const CALIBRATION_MS = 1500;

function failure(e: unknown): string {
  if (e instanceof KernelFault)
    return `Your GPU returned a wrong result (a kernel fault), so nothing was kept: ${e.message}. Try again, or use another browser or GPU.`;
  return `The GPU stopped with an error: ${e instanceof Error ? e.message : String(e)}`;
}

/** The browser grinder: its state, the measured rate, and measure / start / stop. */
export function useBrowserGrind() {
  const [state, setState] = useState<GrindState>({ phase: "checking" });
  const [rate, setRate] = useState<number | null>(null);
  const [gpuName, setGpuName] = useState<string | null>(null);
  const gpu = useRef<BrowserGpu | null>(null);
  const stopping = useRef(false);
  const batchesAfterCalibration = useRef(1);

  useEffect(() => {
    let alive = true;
    void openBrowserGpu().then((found) => {
      if (!alive) {
        if ("device" in found) found.device.destroy();
        return;
      }
      if ("problem" in found) {
        setState({ phase: "unavailable", message: found.message });
        return;
      }
      gpu.current = found;
      setGpuName(found.name);
      setState({ phase: "idle" });
      void found.device.lost.then((info) => {
        if (alive && info.reason !== "destroyed")
          setState({ phase: "failed", message: `The browser lost the GPU device: ${info.message || "no reason given"}` });
      });
    });
    return () => {
      alive = false;
      stopping.current = true;
      gpu.current?.device.destroy();
      gpu.current = null;
    };
  }, []);

  const measure = useCallback(async () => {
    const g = gpu.current;
    if (!g) return;
    setState({ phase: "measuring" });
    try {
      const grinder = await GpuGrinder.create(g.device, { pattern: CALIBRATION, ...browserWorkSize(g.software) });
      try {
        // the first dispatch seeds every invocation and warms the pipeline: not counted
        let t = performance.now();
        await grinder.run(1);
        let batches = scaleBatches(1, performance.now() - t, BROWSER_DISPATCH_MS);
        let candidates = 0;
        let ms = 0;
        while (ms < CALIBRATION_MS) {
          t = performance.now();
          candidates += (await grinder.run(batches)).candidates;
          const dt = performance.now() - t;
          ms += dt;
          batches = scaleBatches(batches, dt, BROWSER_DISPATCH_MS);
        }
        batchesAfterCalibration.current = batches;
        setRate((candidates * 1000) / ms);
      } finally {
        grinder.destroy();
      }
      setState({ phase: "idle" });
    } catch (e) {
      setState({ phase: "failed", message: failure(e) });
    }
  }, []);

  const start = useCallback(async (pattern: OrderPattern) => {
    const g = gpu.current;
    if (!g) return;
    stopping.current = false;
    const began = performance.now();
    const progress: Progress = { attempts: 0, rate: 0, seconds: 0 };
    setState({ phase: "grinding", progress: { ...progress } });
    let grinder: GpuGrinder | null = null;
    try {
      grinder = await GpuGrinder.create(g.device, { pattern, ...browserWorkSize(g.software) });
      let batches = batchesAfterCalibration.current;
      while (!stopping.current) {
        const t = performance.now();
        const r = await grinder.run(batches);
        const dt = performance.now() - t;
        progress.attempts += r.candidates;
        progress.seconds = (performance.now() - began) / 1000;
        const instant = (r.candidates * 1000) / dt;
        progress.rate = progress.rate === 0 ? instant : 0.8 * progress.rate + 0.2 * instant;
        // every hit is checked, so a GPU that returns one wrong result is not trusted with the others
        const found = r.hits.map((hit) => verifyHit(pattern, hit));
        if (found.length > 0) {
          setState({ phase: "found", ...found[0], progress: { ...progress } });
          return;
        }
        if (stopping.current) break;
        setState({ phase: "grinding", progress: { ...progress } });
        batches = scaleBatches(batches, dt, BROWSER_DISPATCH_MS);
      }
      setState({ phase: "stopped", progress: { ...progress } });
    } catch (e) {
      setState({ phase: "failed", message: failure(e) });
    } finally {
      grinder?.destroy();
    }
  }, []);

  const stop = useCallback(() => {
    stopping.current = true;
  }, []);

  /** Back to the pattern form (a found key is dropped from memory with the state). */
  const reset = useCallback(() => setState(gpu.current ? { phase: "idle" } : { phase: "checking" }), []);

  return { state, rate, gpuName, measure, start, stop, reset };
}
