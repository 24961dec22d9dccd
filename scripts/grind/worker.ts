// Worker thread: runs one searcher forever, posting progress about every `reportMs` and each
// match as soon as it is found. The main thread verifies, writes and terminates workers.
import { parentPort, workerData } from "node:worker_threads";
import type { PatternSpec } from "../../schema/grind-pattern.ts";
import { createSearcher } from "./searcher.ts";
import type { Found } from "./types.ts";

export interface WorkerInput {
  spec: PatternSpec;
  reportMs: number;
  /** Split-key order: the buyer's public key A (the search starts from A + k·G). */
  publicKey?: string;
}

export type WorkerMessage = { type: "progress"; attempts: number } | ({ type: "found"; attempts: number } & Found);

const { spec, reportMs, publicKey } = workerData as WorkerInput;
const port = parentPort!;
const searcher = createSearcher(spec, publicKey);
let pending = 0;
let last = performance.now();
for (;;) {
  const { attempts, found } = searcher.step();
  pending += attempts;
  if (found) {
    port.postMessage({ type: "found", attempts: pending, ...found } satisfies WorkerMessage);
    pending = 0;
  }
  const now = performance.now();
  if (now - last >= reportMs) {
    port.postMessage({ type: "progress", attempts: pending } satisfies WorkerMessage);
    pending = 0;
    last = now;
  }
}
