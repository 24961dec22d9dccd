// Where candidates come from, for the CLI and the orders loop: worker threads on the CPU (worker.ts) or the GPU
// kernel (gpu-source.ts). Both report attempts and matches the same way, so verification, the CSV, progress
// and the orders API are written once.
import { Worker } from "node:worker_threads";
import type { Found } from "./types.ts";
import type { WorkerInput, WorkerMessage } from "./worker.ts";

export type SearchEvents = {
  /** the search is running (the GPU's kernels are compiled): rates count from here */
  ready(): void;
  attempts(n: number): void;
  found(found: Found): void;
  /** the search cannot go on (a worker died, the GPU device was lost) */
  fail(error: Error): void;
  /** a line for the log (a replaced worker, the GPU kernels compiled) */
  notice(line: string): void;
};

export interface SearchSource {
  readonly kind: "cpu" | "gpu";
  /** for the log: "4 CPU threads", "GPU nvidia hopper (…), 65,536 invocations" */
  readonly description: string;
  start(events: SearchEvents): void;
  stop(): void;
}

const STALL_MS = 30_000; // a worker silent this long is replaced

/** One searcher per thread (worker.ts); a worker silent for 30 s is replaced. */
export function cpuSource(input: Omit<WorkerInput, "reportMs">, threads: number): SearchSource {
  const workers = new Map<Worker, number>(); // worker -> last message time
  let watchdog: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  return {
    kind: "cpu",
    description: `${threads} CPU thread(s)`,
    start(events) {
      const spawn = () => {
        const w = new Worker(new URL("./worker-entry.mjs", import.meta.url), { workerData: { ...input, reportMs: 250 } satisfies WorkerInput });
        workers.set(w, performance.now());
        w.on("message", (m: WorkerMessage) => {
          if (stopped) return;
          if (workers.has(w)) workers.set(w, performance.now());
          events.attempts(m.attempts);
          if (m.type === "found") {
            const { type: _type, attempts: _attempts, ...found } = m;
            events.found(found);
          }
        });
        w.on("error", (e) => events.fail(e));
        w.on("exit", (code) => {
          if (!stopped && workers.has(w)) events.fail(new Error(`worker exited unexpectedly (code ${code})`));
        });
      };
      watchdog = setInterval(() => {
        const now = performance.now();
        for (const [w, seenAt] of workers) {
          if (now - seenAt > STALL_MS) {
            events.notice(`worker silent for ${STALL_MS / 1000}s, replacing it`);
            workers.delete(w);
            void w.terminate();
            spawn();
          }
        }
      }, 1000);
      for (let i = 0; i < threads; i++) spawn();
      events.ready();
    },
    stop() {
      stopped = true;
      clearInterval(watchdog);
      for (const w of workers.keys()) void w.terminate();
      workers.clear();
    },
  };
}
