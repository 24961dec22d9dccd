import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { genField, genKeccak, genKeccakWasmModule } from "./codegen.ts";
import { EthereumSearcher, N_ORDER } from "./ethereum.ts";
import { canon, fromBigInt, LIMBS, mul, P, sqr, sub, toBigInt, toWords } from "./field.ts";
import { keccak64 } from "./keccak.gen.ts";
import { createWasmKeccak } from "./keccak-wasm.ts";
import type { PatternSpec } from "../../schema/grind-pattern.ts";
import { ethereumAddressFromPrivateKey, toChecksumAddress, verifiedRow } from "./verify.ts";
import { finalPrivateKey, orderAddress, parseScalar, publicKeyOf, randomSecret } from "../../schema/split-key.ts";
import { addressMatchesOrder } from "../../schema/custom-order-pattern.ts";

const rnd = () => BigInt("0x" + randomBytes(32).toString("hex")) % P;
const mod = (v: bigint) => ((v % P) + P) % P;
const value = (a: Float64Array, o: number) => {
  let v = 0n;
  for (let i = LIMBS - 1; i >= 0; i--) v = (v << 24n) + BigInt(a[o + i]);
  return v;
};

describe("generated kernels", () => {
  it("are up to date with codegen.ts", () => {
    expect(readFileSync(new URL("field.gen.ts", import.meta.url), "utf8")).toBe(genField());
    expect(readFileSync(new URL("keccak.gen.ts", import.meta.url), "utf8")).toBe(genKeccak());
    expect(readFileSync(new URL("keccak-wasm.gen.ts", import.meta.url), "utf8")).toBe(genKeccakWasmModule());
  });
});

describe("field arithmetic (11 x 24-bit limbs)", () => {
  it("mul, sqr and chained loose values agree with BigInt", () => {
    const A = new Float64Array(LIMBS * 4);
    const edge = [0n, 1n, 2n, P - 1n, P - 2n, 2n ** 255n, 2n ** 32n + 977n];
    for (let t = 0; t < 3000; t++) {
      const x = t < edge.length ? edge[t] : rnd();
      const y = t < edge.length ? P - 1n : rnd();
      fromBigInt(A, 0, x);
      fromBigInt(A, LIMBS, y);
      mul(A, 2 * LIMBS, A, 0, A, LIMBS);
      expect(toBigInt(A, 2 * LIMBS)).toBe(mod(x * y));
      // loose inputs: a difference of a loose output and a canonical value, squared twice
      sub(A, 3 * LIMBS, A, 2 * LIMBS, A, 0);
      sqr(A, 2 * LIMBS, A, 3 * LIMBS);
      mul(A, 3 * LIMBS, A, 2 * LIMBS, A, 2 * LIMBS);
      const e = mod(x * y - x);
      expect(toBigInt(A, 3 * LIMBS)).toBe(mod(e ** 4n));
      for (let i = 0; i < LIMBS; i++) expect(Math.abs(A[3 * LIMBS + i])).toBeLessThanOrEqual(2 ** 23 + 2 ** 20);
      canon(A, 3 * LIMBS);
      expect(value(A, 3 * LIMBS)).toBe(mod(e ** 4n));
    }
  });

  it("canon reduces edge values to [0, p) with 24-bit limbs", () => {
    const A = new Float64Array(LIMBS);
    for (const v of [0n, 1n, P - 1n, P, P + 1n, 2n ** 256n - 1n, 2n ** 256n, 2n ** 264n - 1n, -1n, -P, -(2n ** 263n)]) {
      let m = v < 0n ? -v : v;
      const sign = v < 0n ? -1 : 1;
      for (let i = 0; i < LIMBS; i++) {
        A[i] = sign * Number(m & 0xffffffn);
        m >>= 24n;
      }
      A[LIMBS - 1] += sign * Number(m) * 2 ** 24;
      canon(A, 0);
      expect(value(A, 0)).toBe(mod(v));
      for (let i = 0; i < LIMBS; i++) expect(A[i] >= 0 && A[i] < 2 ** 24).toBe(true);
    }
  });

  it("toWords and both keccak kernels hash x||y exactly like keccak_256", () => {
    const A = new Float64Array(2 * LIMBS);
    const inp = new Uint32Array(16);
    const out = new Uint32Array(8);
    const wasm = createWasmKeccak();
    for (let t = 0; t < 300; t++) {
      const x = rnd();
      const y = rnd();
      fromBigInt(A, 0, x);
      fromBigInt(A, LIMBS, y);
      toWords(A, 0, inp, 0);
      toWords(A, LIMBS, inp, 8);
      keccak64(inp, out);
      const msg = hexToBytes(x.toString(16).padStart(64, "0") + y.toString(16).padStart(64, "0"));
      expect(bytesToHex(new Uint8Array(out.buffer))).toBe(bytesToHex(keccak_256(msg)));
      wasm.inp.set(inp);
      wasm.hash();
      expect([...wasm.out]).toEqual([...out]);
    }
  });
});

describe("EIP-55", () => {
  it("matches viem's checksum", () => {
    for (let i = 0; i < 50; i++) {
      const hex = randomBytes(20).toString("hex");
      expect(toChecksumAddress(hex)).toBe(getAddress("0x" + hex));
    }
  });
});

describe("EthereumSearcher (incremental batched addition)", () => {
  const spec = (prefix: string, suffix = "", caseSensitive = false): PatternSpec => ({ network: "ethereum", prefix, suffix, caseSensitive });

  const derive = (key: bigint) =>
    bytesToHex(keccak_256(secp256k1.getPublicKey(hexToBytes(key.toString(16).padStart(64, "0")), false).subarray(1)).subarray(12));

  it.each(["wasm", "js"] as const)("derives every candidate's address from its private key, across batches (%s keccak)", (keccak) => {
    // batch 64: 129 points per batch, 3 batches chained = 387 consecutive keys
    const s = new EthereumSearcher(spec("fedcba9876543210"), { batch: 64, keccak, endomorphism: false });
    const seen: [bigint, string][] = [];
    s.trace = (key, addr) => seen.push([key, addr]);
    const k0 = (BigInt("0x" + randomBytes(32).toString("hex")) % (N_ORDER - 1000n)) + 500n;
    s.startAt(k0);
    for (let i = 0; i < 3; i++) expect(s.step()).toEqual({ attempts: 129, found: null });
    expect(seen.length).toBe(3 * 129);
    // keys cover k0 - 64 .. k0 + 64 + 2 * 129 exactly once
    const keys = new Set(seen.map(([k]) => k));
    expect(keys.size).toBe(seen.length);
    for (let d = -64n; d <= 64n + 2n * 129n; d++) expect(keys.has(k0 + d)).toBe(true);
    for (const [key, addr] of seen) expect(addr).toBe(derive(key));
  });

  it("checks six keys per point with the endomorphism and negation", () => {
    const s = new EthereumSearcher(spec("fedcba9876543210"), { batch: 16 });
    const seen: [bigint, string][] = [];
    s.trace = (key, addr) => seen.push([key, addr]);
    const k0 = (BigInt("0x" + randomBytes(32).toString("hex")) % (N_ORDER - 1000n)) + 500n;
    s.startAt(k0);
    for (let i = 0; i < 2; i++) expect(s.step()).toEqual({ attempts: 6 * 33, found: null });
    expect(new Set(seen.map(([k]) => k)).size).toBe(6 * 66);
    expect(seen.some(([k]) => k === N_ORDER - k0)).toBe(true);
    for (const [key, addr] of seen) expect(addr).toBe(derive(key));
  });

  it("works from the smallest allowed start key", () => {
    const s = new EthereumSearcher(spec("fedcba9876543210"), { batch: 16 });
    const seen: [bigint, string][] = [];
    s.trace = (key, addr) => seen.push([key, addr]);
    s.startAt(17n); // C - 16·G = 1·G
    s.step();
    for (const [key, addr] of seen) expect("0x" + addr).toBe(ethereumAddressFromPrivateKey("0x" + key.toString(16).padStart(64, "0")).toLowerCase());
    expect(Math.min(...seen.map(([k]) => Number(k)))).toBe(1);
  });

  it("finds verified matches, case-insensitive and case-sensitive", () => {
    for (const [p, endomorphism] of [
      [spec("a", "0"), true],
      [spec("", "bE", true), true],
      [spec("C", "", true), false],
      [{ ...spec(""), mirror: 2 }, true],
    ] as const) {
      const s = new EthereumSearcher(p, { batch: 256, endomorphism });
      let found = 0;
      for (let i = 0; i < 200 && found < 3; i++) {
        const r = s.step();
        if (r.found) {
          found++;
          if (!("privateKey" in r.found)) throw new Error("a plain search reported an offset");
          const row = verifiedRow(p, r.found.address, r.found.privateKey);
          expect(row.address).toBe(getAddress(row.address));
          expect(row.private_key).toMatch(/^0x[0-9a-f]{64}$/);
        }
      }
      expect(found).toBe(3);
    }
  });

  it("split-key orders: every shortcut's (offset, variant) gives the buyer a final key that derives the matching address", () => {
    const a = randomSecret();
    const A = publicKeyOf(a);
    const p = spec("", "7", false);
    const s = new EthereumSearcher(p, { batch: 64, publicKey: A });
    const variants = new Set<number>();
    for (let i = 0; i < 2000 && variants.size < 6; i++) {
      const r = s.step();
      if (!r.found) continue;
      if ("privateKey" in r.found) throw new Error("a split-key search reported a private key");
      const k = parseScalar(r.found.offset);
      // the server's check (from A alone) and the buyer's computation (with a) agree with the grinder
      expect(orderAddress(A, k, r.found.variant)).toBe(r.found.address);
      const key = finalPrivateKey(a, k, r.found.variant);
      expect(ethereumAddressFromPrivateKey(key)).toBe(r.found.address);
      expect(addressMatchesOrder({ prefix: "", suffix: "7", caseSensitive: false }, r.found.address)).toBe(true);
      variants.add(r.found.variant);
    }
    expect([...variants].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("split-key orders with the EIP-55 case: matches honour the checksum", () => {
    const a = randomSecret();
    const s = new EthereumSearcher(spec("Ab", "", true), { batch: 256, publicKey: publicKeyOf(a) });
    let found = 0;
    for (let i = 0; i < 400 && found < 2; i++) {
      const r = s.step();
      if (!r.found || "privateKey" in r.found) continue;
      found++;
      expect(r.found.address.slice(2, 4)).toBe("Ab");
      expect(ethereumAddressFromPrivateKey(finalPrivateKey(a, parseScalar(r.found.offset), r.found.variant))).toBe(r.found.address);
    }
    expect(found).toBe(2);
  });
});
