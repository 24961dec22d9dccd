// useBrowserGrind: the grinder in this tab, for Ethereum or Solana. Finds WebGPU, measures the GPU's rate for
// a network on a pattern that cannot match (and picks the work size), then grinds a pattern until a hit that
// @noble/curves confirms. The key exists only in this page's memory: nothing here makes a network request.
import { useCallback, useEffect, useRef, useState } from "react";
import { type BrowserKernel, type Calibration, calibrate, type GrindPattern, makeKernel } from "./browser-kernel";
import type { AdapterWords } from "./adapter-words";
import { type BrowserGpu, openBrowserGpu } from "./browser-gpu";
import { BROWSER_DISPATCH_MS, type GrindNetwork, KernelFault } from "./grind-plan";
import { scaleBatches } from "../../../../gpu/grinder";

export type Progress = { attempts: number; rate: number; seconds: number };

export type GrindState =
  | { phase: "checking" }
  | { phase: "unavailable"; message: string }
  | { phase: "idle" }
  | { phase: "measuring" }
  | { phase: "grinding"; progress: Progress }
  | { phase: "found"; network: GrindNetwork; address: string; privateKey: string; progress: Progress }
  | { phase: "stopped"; progress: Progress }
  | { phase: "failed"; message: string };

function failure(e: unknown): string {
  if (e instanceof KernelFault)
    return `Your GPU returned a wrong result (a kernel fault), so nothing was kept: ${e.message}. Try again, or use another browser or GPU.`;
  return `The GPU stopped with an error: ${e instanceof Error ? e.message : String(e)}`;
}

/** The browser grinder: its state, the measured rate per network, and measure / start / stop. */
export function useBrowserGrind() {
  const [state, setState] = useState<GrindState>({ phase: "checking" });
  const [calibrations, setCalibrations] = useState<Partial<Record<GrindNetwork, Calibration>>>({});
  const [adapter, setAdapter] = useState<AdapterWords | null>(null);
  const gpu = useRef<BrowserGpu | null>(null);
  const stopping = useRef(false);

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
      setAdapter(found.words);
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

  const measure = useCallback(async (network: GrindNetwork) => {
    const g = gpu.current;
    if (!g) return;
    setState({ phase: "measuring" });
    try {
      const measured = await calibrate(g.device, g.software, network);
      setCalibrations((c) => ({ ...c, [network]: measured }));
      setState({ phase: "idle" });
    } catch (e) {
      setState({ phase: "failed", message: failure(e) });
    }
  }, []);

  const start = useCallback(
    async (p: GrindPattern) => {
      const g = gpu.current;
      const calibration = calibrations[p.network];
      if (!g || !calibration) return;
      stopping.current = false;
      const began = performance.now();
      const progress: Progress = { attempts: 0, rate: 0, seconds: 0 };
      setState({ phase: "grinding", progress: { ...progress } });
      let kernel: BrowserKernel | null = null;
      try {
        kernel = await makeKernel(g.device, g.software, p, calibration.invocations);
        let batches = calibration.batches;
        while (!stopping.current) {
          const t = performance.now();
          const r = await kernel.run(batches);
          const dt = performance.now() - t;
          progress.attempts += r.candidates;
          progress.seconds = (performance.now() - began) / 1000;
          const instant = (r.candidates * 1000) / dt;
          progress.rate = progress.rate === 0 ? instant : 0.8 * progress.rate + 0.2 * instant;
          if (r.found.length > 0) {
            setState({ phase: "found", network: p.network, ...r.found[0], progress: { ...progress } });
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
        kernel?.destroy();
      }
    },
    [calibrations],
  );

  const stop = useCallback(() => {
    stopping.current = true;
  }, []);

  /** Back to the pattern form (a found key is dropped from memory with the state). */
  const reset = useCallback(() => setState(gpu.current ? { phase: "idle" } : { phase: "checking" }), []);

  return { state, calibrations, adapter, measure, start, stop, reset };
}
