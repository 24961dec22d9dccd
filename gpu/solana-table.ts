// The Solana kernel's fixed-base table, built once per window size with @noble/curves and uploaded: window i
// (0 .. ceil(256 / w) - 1), digit d (1 .. 2^(w - 1)) holds d·2^(w i)·B in the form the kernel's mixed
// addition reads, (y - x, y + x, 2d·x·y) mod p, each as 8 little-endian 32-bit words. Sizes (combTableBytes):
// 8-bit windows 32 × 128 entries, 384 KiB; 11 bits 2.25 MiB; 13 bits 7.5 MiB; 16 bits 16 × 32,768, 48 MiB.
import { ed25519 } from "@noble/curves/ed25519.js";
import { normalizeZ } from "@noble/curves/abstract/curve.js";
import { combWindows, ED_D, ED_P, TABLE_ENTRY_WORDS } from "./solana.wgsl.ts";

const Point = ed25519.Point;
const tables = new Map<number, Uint32Array<ArrayBuffer>>();

function putWords(x: bigint, out: Uint32Array, offset: number) {
  for (let k = 0; k < 8; k++) out[offset + k] = Number((x >> BigInt(32 * k)) & 0xffffffffn);
}

/** The table's size in bytes for w-bit windows: ceil(256 / w) windows × 2^(w - 1) entries × 96 bytes. */
export const combTableBytes = (windowBits: number) => combWindows(windowBits) * 2 ** (windowBits - 1) * TABLE_ENTRY_WORDS * 4;

/**
 * Hands in a table built elsewhere (the browser builds it in a Web Worker, off the page's thread), so that
 * combTable(w) returns it. Its length must be the w-bit table's; what it holds is checked where it counts, by
 * the self-check's known-answer dispatch against @noble/curves before the kernel grinds.
 */
export function provideCombTable(windowBits: number, table: Uint32Array<ArrayBuffer>): void {
  if (table.byteLength !== combTableBytes(windowBits))
    throw new RangeError(`a ${windowBits}-bit comb table has ${combTableBytes(windowBits)} bytes, this one ${table.byteLength}`);
  tables.set(windowBits, table);
}

/** Whether the w-bit table is built (or handed in) already. */
export const hasCombTable = (windowBits: number) => tables.has(windowBits);

export function combTable(windowBits: number): Uint32Array<ArrayBuffer> {
  let table = tables.get(windowBits);
  if (table) return table;
  const windows = combWindows(windowBits);
  const entries = 1 << (windowBits - 1);
  table = new Uint32Array(windows * entries * TABLE_ENTRY_WORDS);
  let windowBase = Point.BASE;
  for (let i = 0; i < windows; i++) {
    const points = [windowBase];
    for (let d = 2; d <= entries; d++) points.push(points[d - 2].add(windowBase));
    // one inversion for the whole window
    const affine = normalizeZ(Point, points);
    affine.forEach((pt, d) => {
      const { X: x, Y: y } = pt;
      const o = (i * entries + d) * TABLE_ENTRY_WORDS;
      putWords((((y - x) % ED_P) + ED_P) % ED_P, table!, o);
      putWords((y + x) % ED_P, table!, o + 8);
      putWords((((2n * ED_D * x) % ED_P) * y) % ED_P, table!, o + 16);
    });
    // 2^w · windowBase = 2 · (2^(w-1) · windowBase)
    windowBase = points[entries - 1].double();
  }
  tables.set(windowBits, table);
  return table;
}
