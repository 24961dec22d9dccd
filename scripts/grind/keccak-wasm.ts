// Instantiates the generated WebAssembly keccak (keccak-wasm.gen.ts). Each instance has its own
// memory: write the 64-byte message as 16 little-endian words into `inp`, call hash(), read the
// digest's 8 words from `out` (same layout as keccak64 in keccak.gen.ts).
import { KECCAK_WASM_BASE64 } from "./keccak-wasm.gen.ts";

// Minimal typing of the global WebAssembly API (the DOM and Workers type libraries disagree).
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
let compiled: object | null = null;

export interface WasmKeccak {
  inp: Uint32Array;
  out: Uint32Array;
  hash: () => void;
}

export function createWasmKeccak(): WasmKeccak {
  compiled ??= new wasm.Module(Buffer.from(KECCAK_WASM_BASE64, "base64"));
  const { exports } = new wasm.Instance(compiled, {});
  const mem = exports.mem as { buffer: ArrayBuffer };
  return {
    inp: new Uint32Array(mem.buffer, 0, 16),
    out: new Uint32Array(mem.buffer, 64, 8),
    hash: exports.keccak as () => void,
  };
}
