// useBrowserGrind: the grinder in this tab, for Ethereum or Solana. Finds WebGPU, measures the GPU's rate for
// a network on a pattern that cannot match (and picks the work size), then grinds a pattern until a hit that
// @noble/curves confirms. The key exists only in this page's memory: nothing here makes a network request.
import { useCallback, useEffect, useRef, useState } from "react";
import { GpuKernelError, scaleBatches } from "../../../../gpu/kernel-host";
import { GpuSelfCheckError } from "../../../../gpu/self-check";
import type { AdapterWords } from "./adapter-words";
import { type BrowserKernel, type Calibration, calibrate, type GrindPattern, makeKernel, selfCheck } from "./browser-kernel";
import { type BrowserGpu, openBrowserGpu } from "./browser-gpu";
import { BROWSER_DISPATCH_MS, type GrindNetwork, KernelFault } from "./grind-plan";

export type Progress = { attempts: number; rate: number; seconds: number };

export type GrindState =
  | { phase: "checking" }
  /** no WebGPU, no adapter, or a GPU that failed its self-check (`title` says which when it is not the first two) */
  | { phase: "unavailable"; message: string; title?: string }
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
  /** networks whose kernel passed the self-check on this GPU (checked once per page) */
  const checked = useRef(new Set<GrindNetwork>());

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
      if (!checked.current.has(network)) {
        try {
          await selfCheck(g.device, g.software, network);
        } catch (e) {
          if (!(e instanceof GpuSelfCheckError || e instanceof GpuKernelError)) throw e;
          // a GPU that computes a wrong answer or misses a match is not used for anything on this page
          gpu.current = null;
          g.device.destroy();
          setState({
            phase: "unavailable",
            title: `${g.words.subject} failed its self-check`,
            message: `Before it grinds, this page checks the adapter against the CPU: known answers, then a short search whose matches must be exactly the CPU's. ${g.words.subject} gave a different answer, so this page will not grind on it (nothing was ground or kept): ${e.message}`,
          });
          return;
        }
        checked.current.add(network);
      }
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
