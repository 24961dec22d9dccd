// The Solana kernel's comb table, built in a Web Worker: the 11-bit table takes tens of thousands of Ed25519
// additions (a fraction of a second on a desktop, more on a phone), which on the page's thread would freeze it.
// Asked for { windowBits }, it answers with the table's words (transferred, not copied).
import { combTable } from "../../../../gpu/solana-table";

self.onmessage = (event: MessageEvent<{ windowBits: number }>) => {
  try {
    const table = combTable(event.data.windowBits);
    self.postMessage({ table }, { transfer: [table.buffer] });
  } catch (e) {
    self.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
};
