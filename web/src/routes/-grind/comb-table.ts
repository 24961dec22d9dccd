// The comb table for the browser's Solana kernel, built once per page and window size in a Web Worker
// (comb-table-worker.ts), then handed to gpu/solana-table.ts, where the grinder and its self-check find it.
import { hasCombTable, provideCombTable } from "../../../../gpu/solana-table";

const building = new Map<number, Promise<void>>();

export function combTableInWorker(windowBits: number): Promise<void> {
  if (hasCombTable(windowBits)) return Promise.resolve();
  let done = building.get(windowBits);
  if (!done) {
    done = new Promise<void>((resolve, reject) => {
      const worker = new Worker(new URL("./comb-table-worker.ts", import.meta.url), { type: "module" });
      worker.onmessage = (event: MessageEvent<{ table?: Uint32Array<ArrayBuffer>; error?: string }>) => {
        worker.terminate();
        if (event.data.table) {
          provideCombTable(windowBits, event.data.table);
          resolve();
        } else reject(new Error(`building the comb table failed: ${event.data.error}`));
      };
      worker.onerror = (event) => {
        worker.terminate();
        reject(new Error(`building the comb table failed: ${event.message || "the worker did not start"}`));
      };
      worker.postMessage({ windowBits });
    });
    building.set(windowBits, done);
    done.catch(() => building.delete(windowBits));
  }
  return done;
}
