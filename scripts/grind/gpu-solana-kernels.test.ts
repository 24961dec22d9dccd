// The Solana kernel's building blocks against bigint arithmetic and @noble/hashes: the field mod 2^255 - 19 on
// thousands of random vectors and at the edges of the limb bounds (gpu/field.wgsl.ts), and SHA-512 of one
// block, and the comb (scalar multiplication by the table, then compression) on chosen scalars for 8-, 11-, 13-
// and 16-bit windows. The test kernels are appended to the Solana kernel's own generated WGSL (solanaWgsl), so
// they call exactly the functions the grinder runs; gpu-solana-grinder.test.ts checks whole candidates (seed,
// hash, comb, batched inversion) end to end against @noble/curves.
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { base58 } from "@scure/base";
import { beforeAll, describe, expect, it } from "vitest";
import { fromLimbs, LIMBS, toLimbs } from "../../gpu/field.wgsl.ts";
import { sha512ConstantWords } from "../../gpu/sha512.wgsl.ts";
import { solanaParamsWords } from "../../gpu/solana-grinder.ts";
import { rangeWords, type SolanaGpuPattern, solanaPatternParams } from "../../gpu/solana-pattern.ts";
import { combTable, combTableBytes } from "../../gpu/solana-table.ts";
import { combWindows, ED_P, solanaWgsl } from "../../gpu/solana.wgsl.ts";
import { computePipeline, runTestKernel, testGpu, uniformBuffer } from "./gpu-test-device.ts";
import { matchesAddress } from "../../schema/grind-pattern.ts";

const gpu = await testGpu();
const device = gpu.device;
const describeGpu = device ? describe : describe.skip;
if (!gpu.device) it.skip(`Solana kernel tests: ${gpu.reason}`, () => {});

const TEST_ENTRIES = /* wgsl */ `
@group(0) @binding(10) var<storage, read> test_in: array<u32>;
@group(0) @binding(11) var<storage, read_write> test_out: array<u32>;

fn test_fe(base: u32) -> Fe {
  var r: Fe;
  for (var k = 0u; k < ${LIMBS}u; k++) { r[k] = bitcast<i32>(test_in[base + k]); }
  return r;
}

// per case: op, a (20 limbs), b (20 limbs) -> 20 limbs
@compute @workgroup_size(64)
fn test_field(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&test_out) / 20u) { return; }
  let a = test_fe(i * 41u + 1u);
  let b = test_fe(i * 41u + 21u);
  var r: Fe;
  switch test_in[i * 41u] {
    case 0u: { r = fe_mul(a, b); }
    case 1u: { r = fe_sqr(a); }
    case 2u: { r = fe_inv(a); }
    case 3u: { r = fe_canon(a); }
    case 4u: { r = fe_norm(a); }
    default: { r = fe_from_words(fe_to_words(a)); }
  }
  for (var k = 0u; k < 20u; k++) { test_out[i * 20u + k] = bitcast<u32>(r[k]); }
}

// per case: one padded block (32 words) -> SHA-512 (16 words)
@compute @workgroup_size(64)
fn test_sha512(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&test_out) / 16u) { return; }
  var m: array<u32, 32>;
  for (var k = 0u; k < 32u; k++) { m[k] = test_in[i * 32u + k]; }
  let d = sha512(m);
  for (var k = 0u; k < 16u; k++) { test_out[i * 16u + k] = d[k]; }
}

// per case: a public key (8 little-endian words of its bytes) -> 1 when it matches the bound pattern
@compute @workgroup_size(64)
fn test_match(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&test_out)) { return; }
  var key: array<u32, 8>;
  for (var k = 0u; k < 8u; k++) { key[k] = test_in[i * 8u + k]; }
  test_out[i] = select(0u, 1u, key_matches(key));
}

// per case: base (8 words), candidate index -> the candidate's seed (8 words) and clamped scalar (8 words)
@compute @workgroup_size(64)
fn test_candidate(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&test_out) / 16u) { return; }
  var base: array<u32, 8>;
  for (var k = 0u; k < 8u; k++) { base[k] = test_in[i * 9u + k]; }
  let c = candidate(base, test_in[i * 9u + 8u]);
  for (var k = 0u; k < 8u; k++) {
    test_out[i * 16u + k] = c.seed[k];
    test_out[i * 16u + 8u + k] = c.scalar[k];
  }
}

// per case: a scalar below 2^255 (8 little-endian words) -> the compressed key of scalar·B (8 words) by the comb
@compute @workgroup_size(64)
fn test_comb(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&test_out) / 8u) { return; }
  var a: array<u32, 8>;
  for (var k = 0u; k < 8u; k++) { a[k] = test_in[i * 8u + k]; }
  let p = scalar_mult(a);
  let key = compress(p.x, p.y, fe_inv(p.z));
  for (var k = 0u; k < 8u; k++) { test_out[i * 8u + k] = key[k]; }
}
`;

// A seeded generator, so a failure names a case that can be run again.
let seed = 0x2545f491;
function rand32(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
}
const randInt = (lo: number, hi: number) => lo + (rand32() % (hi - lo + 1));
function randBig(bits: number): bigint {
  let x = 0n;
  for (let i = 0; i < bits; i += 32) x = (x << 32n) | BigInt(rand32());
  return x & ((1n << BigInt(bits)) - 1n);
}
const randField = () => randBig(256) % ED_P;
const mod = (x: bigint) => ((x % ED_P) + ED_P) % ED_P;
const limbsOf = (f: () => number) => Int32Array.from({ length: LIMBS }, f);
const tight = (l: Int32Array) => l.every((v) => v >= -1 && v <= 8192);

type FieldOp = 0 | 1 | 2 | 3 | 4 | 5;
type FieldCase = { op: FieldOp; a: Int32Array; b: Int32Array };

// batch 1 keeps the module small: the test entries compile on their own, the grinder's entry is not built here
const moduleFor = (windowBits: number) => solanaWgsl({ batch: 1, windowBits, workgroupSize: 64 }) + TEST_ENTRIES;
const code = moduleFor(8);
/**
 * The comb's window sizes tested on the GPU: the browser's and a software adapter's 8 bits, a GPU's default 11,
 * and the wider ones a GPU's sweep may pick (13 bits: 7.5 MiB; 16 bits: the widest, 48 MiB, 6 s to build here).
 * 12, 14 and 15 share their code with these (only the constants differ); their tables are checked on the CPU.
 */
const COMB_WINDOWS = [8, 11, 13, 16];

// The test kernels are compiled once for the whole file, before the first test's clock starts (seconds on
// SwiftShader, minutes on a machine loaded by other work).
beforeAll(async () => {
  if (device)
    await Promise.all([
      ...["test_field", "test_sha512", "test_candidate", "test_match"].map((entry) => computePipeline(device, code, entry)),
      ...COMB_WINDOWS.map((w) => computePipeline(device, moduleFor(w), "test_comb")),
    ]);
}, 600_000);
const consts = () => [{ binding: 6, buffer: uniformBuffer(device!, sha512ConstantWords()) }];

describeGpu("the field mod 2^255 - 19 on the GPU", () => {
  async function field(cases: FieldCase[]): Promise<Int32Array[]> {
    const pipeline = await computePipeline(device!, code, "test_field");
    const input = new Int32Array(cases.length * 41);
    cases.forEach(({ op, a, b }, i) => {
      input[i * 41] = op;
      input.set(a, i * 41 + 1);
      input.set(b, i * 41 + 21);
    });
    const out = new Int32Array(await runTestKernel(device!, pipeline, input, cases.length * 80, cases.length));
    return cases.map((_, i) => out.slice(i * 20, i * 20 + 20));
  }

  it("multiplies and squares like bigint mod p, tight, on random and edge-of-bound inputs", async () => {
    const inputs: Int32Array[] = [];
    for (let i = 0; i < 1500; i++) inputs.push(toLimbs(randField()));
    // what the additions feed the multiply: the limb-wise difference of two tight values, a negated one
    for (let i = 0; i < 600; i++) inputs.push(limbsOf(() => randInt(-8193, 8193)));
    // the stated bound of a multiply's input, |limb| <= 10000
    for (let i = 0; i < 300; i++) inputs.push(limbsOf(() => (rand32() & 1 ? 1 : -1) * (10000 - randInt(0, 3))));
    inputs.push(
      limbsOf(() => 10000),
      limbsOf(() => -10000),
      limbsOf(() => 8192),
      limbsOf(() => -1),
      limbsOf(() => 0),
      toLimbs(ED_P - 1n),
      toLimbs(ED_P),
      toLimbs(2n ** 255n - 1n),
    );
    const cases: FieldCase[] = [];
    for (let i = 0; i < inputs.length; i++) {
      const a = inputs[i];
      const b = inputs[(i * 7 + 3) % inputs.length];
      cases.push({ op: 0, a, b }, { op: 1, a, b });
    }
    const out = await field(cases);
    cases.forEach(({ op, a, b }, i) => {
      const expected = op === 0 ? mod(fromLimbs(a) * fromLimbs(b)) : mod(fromLimbs(a) ** 2n);
      const label = `${op === 0 ? "mul" : "sqr"} a=[${a}] b=[${b}]`;
      expect(mod(fromLimbs(out[i])), label).toBe(expected);
      expect(tight(out[i]), `${label} -> [${out[i]}] is not tight`).toBe(true);
    });
    expect(cases.length).toBeGreaterThan(4800);
  });

  it("inverts: a · inv(a) = 1 for random and special values, inv(0) = 0", async () => {
    const values = [1n, 2n, 3n, 19n, ED_P - 1n, ED_P - 2n, 1n << 254n, 121666n, ...Array.from({ length: 250 }, randField)];
    const out = await field([...values.map((v) => ({ op: 2 as const, a: toLimbs(v), b: toLimbs(0n) })), { op: 2, a: toLimbs(0n), b: toLimbs(0n) }]);
    values.forEach((v, i) => {
      expect(mod(fromLimbs(out[i]) * v), `inv(${v.toString(16)})`).toBe(1n);
      expect(tight(out[i])).toBe(true);
    });
    expect(mod(fromLimbs(out[values.length]))).toBe(0n);
  });

  it("canonicalises any representation within ±2^15 per limb to the unique value in [0, p)", async () => {
    const inputs: Int32Array[] = [];
    for (let i = 0; i < 1500; i++) inputs.push(limbsOf(() => randInt(-32768, 32767)));
    for (let i = 0; i < 300; i++) inputs.push(limbsOf(() => randInt(-16385, 8193)));
    // values at and around p, its multiples, 2^255 and 2^260, some written with negative limbs
    const near = [
      0n,
      1n,
      18n,
      19n,
      ED_P - 1n,
      ED_P,
      ED_P + 1n,
      ED_P + 18n,
      2n * ED_P,
      2n ** 255n - 1n,
      2n ** 255n,
      2n ** 256n,
      2n ** 260n - 1n,
      32n * ED_P - 1n,
    ];
    for (const v of near) {
      inputs.push(toLimbs(v));
      const l = toLimbs(v);
      l[0] -= 8192;
      l[1] += 1;
      inputs.push(l);
    }
    inputs.push(
      limbsOf(() => -1),
      limbsOf(() => 8191),
      limbsOf(() => -8191),
      limbsOf(() => 32767),
      limbsOf(() => -32768),
    );
    const out = await field(inputs.map((a) => ({ op: 3 as const, a, b: a })));
    inputs.forEach((a, i) => {
      expect(fromLimbs(out[i]), `canon([${a}])`).toBe(mod(fromLimbs(a)));
      expect(out[i].every((v) => v >= 0 && v <= 8191)).toBe(true);
    });
  });

  it("normalises sums (|limb| up to 2^15) to tight limbs of the same value mod p", async () => {
    const inputs = Array.from({ length: 1000 }, () => limbsOf(() => randInt(-32768, 32767)));
    inputs.push(
      limbsOf(() => 32767),
      limbsOf(() => -32768),
      limbsOf(() => 16384),
    );
    const out = await field(inputs.map((a) => ({ op: 4 as const, a, b: a })));
    inputs.forEach((a, i) => {
      expect(mod(fromLimbs(out[i])), `norm([${a}])`).toBe(mod(fromLimbs(a)));
      expect(tight(out[i]), `norm([${a}]) -> [${out[i]}]`).toBe(true);
    });
  });

  it("packs canonical limbs into 32-bit words and back", async () => {
    const values = [0n, ED_P - 1n, ...Array.from({ length: 500 }, randField)];
    const out = await field(values.map((v) => ({ op: 5 as const, a: toLimbs(v), b: toLimbs(v) })));
    values.forEach((v, i) => expect(fromLimbs(out[i])).toBe(v));
  });
});

/** A message of at most 111 bytes as SHA-512's one padded block (32 big-endian words). */
function padded(message: Uint8Array): Uint32Array {
  const block = new Uint8Array(128);
  block.set(message);
  block[message.length] = 0x80;
  new DataView(block.buffer).setUint32(124, message.length * 8);
  const words = new Uint32Array(32);
  for (let k = 0; k < 32; k++) words[k] = new DataView(block.buffer).getUint32(4 * k);
  return words;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const wordsToBytes = (w: Uint32Array) => {
  const out = new Uint8Array(w.length * 4);
  w.forEach((v, k) => new DataView(out.buffer).setUint32(4 * k, v));
  return out;
};

describeGpu("SHA-512 on the GPU", () => {
  it("hashes one-block messages as @noble/hashes does (2,000 random messages of 0 to 111 bytes)", async () => {
    const messages: Uint8Array[] = [new Uint8Array(0), new Uint8Array(32), new Uint8Array(40).fill(0xff), new Uint8Array(111).fill(0x80)];
    while (messages.length < 2000) {
      const m = new Uint8Array(randInt(0, 111));
      for (let i = 0; i < m.length; i++) m[i] = rand32() & 255;
      messages.push(m);
    }
    const input = new Uint32Array(messages.length * 32);
    messages.forEach((m, i) => input.set(padded(m), i * 32));
    const pipeline = await computePipeline(device!, code, "test_sha512");
    const out = new Uint32Array(await runTestKernel(device!, pipeline, input, messages.length * 64, messages.length, consts()));
    messages.forEach((m, i) => expect(hex(wordsToBytes(out.subarray(i * 16, i * 16 + 16))), hex(m)).toBe(hex(sha512(m))));
  });

  it("derives each candidate's seed from its base and index, and clamps SHA-512(seed) into the scalar (RFC 8032)", async () => {
    const cases = Array.from({ length: 500 }, (_, i) => {
      const base = new Uint8Array(32);
      for (let k = 0; k < 32; k++) base[k] = rand32() & 255;
      return { base, j: i < 4 ? [0, 1, 0xffff, 0xffffffff][i] : rand32() };
    });
    const input = new Uint32Array(cases.length * 9);
    cases.forEach(({ base, j }, i) => {
      for (let k = 0; k < 8; k++) input[i * 9 + k] = new DataView(base.buffer).getUint32(4 * k);
      input[i * 9 + 8] = j;
    });
    const pipeline = await computePipeline(device!, code, "test_candidate");
    const out = new Uint32Array(await runTestKernel(device!, pipeline, input, cases.length * 64, cases.length, consts()));
    cases.forEach(({ base, j }, i) => {
      const message = new Uint8Array(40);
      message.set(base);
      new DataView(message.buffer).setUint32(36, j);
      const seedBytes = sha512(message).slice(0, 32);
      expect(hex(wordsToBytes(out.subarray(i * 16, i * 16 + 8))), `seed of ${hex(base)}/${j}`).toBe(hex(seedBytes));
      const h = sha512(seedBytes).slice(0, 32);
      h[0] &= 248;
      h[31] = (h[31] & 127) | 64;
      const scalar = new Uint8Array(32);
      out.subarray(i * 16 + 8, i * 16 + 16).forEach((v, k) => new DataView(scalar.buffer).setUint32(4 * k, v, true));
      expect(hex(scalar), `scalar of ${hex(base)}/${j}`).toBe(hex(h));
    });
  });
});

const ED_L = ed25519.Point.CURVE().n;
const BELOW_2_255 = (1n << 255n) - 1n;
const littleWords = (a: bigint) => Uint32Array.from({ length: 8 }, (_, k) => Number((a >> BigInt(32 * k)) & 0xffffffffn));
/** RFC 8032's clamping of a 256-bit number: bits 0-2 and 255 cleared, bit 254 set. */
const clamp = (a: bigint) => (a & BELOW_2_255 & ~7n) | (1n << 254n);
/** noble's compressed a·B (a·B = (a mod L)·B: B has order L). */
const timesBase = (a: bigint) => {
  const r = a % ED_L;
  return r === 0n ? ed25519.Point.ZERO : ed25519.Point.BASE.multiply(r);
};
const nobleKey = (a: bigint) => hex(timesBase(a).toBytes());

/**
 * Scalars that reach the comb's edges for w-bit windows (E = 2^(w-1) entries per window; the kernel reads a
 * window's bits plus the carry as raw, and raw > E is the negative digit raw - 2^w with a carry out):
 * every window at the largest positive digit (raw = E), at the most negative one (raw = E + 1), alternating;
 * all ones (raw = 2^w with the carry in every window: digit 0 and a carry, the longest carry chain, which
 * the top window absorbs); each window alone at E, E + 1 and 2^w - 1 (a carry into the next); the clamped
 * extremes 2^254 and 2^255 - 8; 0, 1, L - 1, L, L + 1; and random scalars, clamped or not.
 */
function combScalars(w: number): bigint[] {
  const E = 1n << BigInt(w - 1);
  const W = combWindows(w);
  const everyWindow = (digit: (i: number) => bigint) => {
    let a = 0n;
    for (let i = 0; i < W; i++) a |= digit(i) << BigInt(w * i);
    return a & BELOW_2_255;
  };
  const scalars = [
    everyWindow(() => E),
    everyWindow(() => E + 1n),
    everyWindow((i) => (i % 2 ? E + 1n : E)),
    everyWindow((i) => (i % 2 ? E : E + 1n)),
    everyWindow((i) => (i % 2 ? 0n : (1n << BigInt(w)) - 1n)),
    everyWindow(() => E - 1n),
    everyWindow(() => 1n),
    BELOW_2_255,
    clamp(BELOW_2_255),
    1n << 254n,
    clamp(0n),
    clamp(0n) + 8n,
    (1n << 254n) - 1n,
    0n,
    1n,
    2n,
    E,
    E + 1n,
    (1n << BigInt(w)) - 1n,
    1n << BigInt(w),
    ED_L - 1n,
    ED_L,
    ED_L + 1n,
    2n * ED_L + 1n,
  ];
  for (let i = 0; i < W; i++)
    for (const d of [E, E + 1n, (1n << BigInt(w)) - 1n]) {
      const a = (d << BigInt(w * i)) & BELOW_2_255;
      scalars.push(a, clamp(a));
    }
  for (let i = 0; i < 48; i++) scalars.push(randBig(255), clamp(randBig(256)));
  return scalars;
}

describeGpu("the comb on chosen scalars (a·B against @noble/curves)", () => {
  it.each(COMB_WINDOWS)(
    "%i-bit windows: every edge digit, the longest carry chains and the clamped extremes",
    async (w) => {
      const table = combTable(w);
      expect(table.byteLength).toBe(combTableBytes(w));
      const scalars = combScalars(w);
      const input = new Uint32Array(scalars.length * 8);
      scalars.forEach((a, i) => input.set(littleWords(a), i * 8));
      const pipeline = await computePipeline(device!, moduleFor(w), "test_comb");
      const out = new Uint32Array(
        await runTestKernel(device!, pipeline, input, scalars.length * 32, scalars.length, [{ binding: 1, buffer: storageBuffer(table) }]),
      );
      scalars.forEach((a, i) => {
        const got = hex(new Uint8Array(out.buffer, i * 32, 32));
        expect(got, `${w}-bit comb, scalar 0x${a.toString(16)}`).toBe(nobleKey(a));
      });
    },
    300_000,
  );
});

describe("the comb's tables (no GPU needed)", () => {
  it.each([12, 14, 15])("%i-bit windows: entry (window i, digit d) is d·2^(w·i)·B in the mixed addition's form", (w) => {
    const table = combTable(w);
    const W = combWindows(w);
    const entries = 1 << (w - 1);
    expect(table.byteLength).toBe(W * entries * 96);
    const fe = (o: number) => table.subarray(o, o + 8).reduceRight((x, v) => (x << 32n) | BigInt(v), 0n);
    const D = ed25519.Point.CURVE().d;
    for (const [i, d] of [
      [0, 1],
      [0, entries],
      [W - 1, 1],
      [W - 1, entries],
      [1, entries - 1],
      ...Array.from({ length: 20 }, () => [randInt(0, W - 1), randInt(1, entries)]),
    ]) {
      const { x, y } = timesBase(BigInt(d) << BigInt(w * i)).toAffine();
      const o = (i * entries + d - 1) * 24;
      expect([fe(o), fe(o + 8), fe(o + 16)], `window ${i}, digit ${d}`).toEqual([mod(y - x), mod(y + x), mod(2n * D * x * y)]);
    }
  });
});

const ALL = (1n << 256n) - 1n;
const keyBytes = (v: bigint) => {
  const b = new Uint8Array(32);
  for (let i = 0; i < 32; i++) b[i] = Number((v >> BigInt(8 * (31 - i))) & 255n);
  return b;
};
const clampV = (v: bigint) => (v < 0n ? 0n : v > ALL ? ALL : v);

/**
 * Keys worth asking about a pattern: both sides of every range end, keys with leading zero bytes, 43- and
 * 44-character addresses, the all-zero and all-one keys, random keys, and each of those with its last digits
 * set to a reading of the suffix (and to one digit off it).
 */
function probeValues(p: SolanaGpuPattern): bigint[] {
  const { ranges } = solanaPatternParams(p);
  const vs = new Set<bigint>([0n, 1n, 57n, 58n, 255n, 256n, 2n ** 248n - 1n, 2n ** 248n, 58n ** 43n - 1n, 58n ** 43n, ALL]);
  for (const [lo, hi] of ranges ?? []) for (const v of [lo - 1n, lo, lo + 1n, hi - 1n, hi, hi + 1n, (lo + hi) / 2n]) vs.add(clampV(v));
  for (let z = 0; z < 32; z++) vs.add(randBig(256) >> BigInt(8 * z));
  for (let i = 0; i < 200; i++) vs.add(randBig(256));
  // readings of the suffix (its first case variant, its last) and one digit off
  const k = p.suffix.length;
  if (k) {
    const digits = (pick: (c: string) => string) =>
      [...p.suffix].reduce((r, c) => r * 58n + BigInt("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".indexOf(pick(c))), 0n);
    const readings = [
      digits((c) => c),
      digits((c) => c.toUpperCase().replace(/[^1-9A-HJ-NP-Za-km-z]/, c)),
      digits((c) => c.toLowerCase().replace(/[^1-9A-HJ-NP-Za-km-z]/, c)),
    ];
    const m = 58n ** BigInt(k);
    for (const v of [...vs]) {
      for (const r of readings) {
        for (const target of [r, (r + 1n) % m, (r + m - 1n) % m, (r + 58n ** BigInt(k - 1)) % m]) {
          const w = v - (v % m) + target;
          if (w <= ALL) vs.add(w);
        }
      }
    }
  }
  return [...vs];
}

describeGpu("pattern matching on the GPU (no base58 encoding)", () => {
  it.each([
    ["a prefix of one zero byte", "1", "", false],
    ["two zero bytes then a digit", "11A", "", true],
    ["32 '1's: only the all-zero key", "1".repeat(32), "", true],
    ["33 '1's: no key", "1".repeat(33), "", true],
    ["a 44-character-only first digit", "2", "", true],
    ["a 43-character-only first digit", "z", "", true],
    ["case-insensitive (A in 44, a in 43 characters)", "a", "", false],
    ["case-insensitive, three letters", "SoL", "", false],
    ["case-sensitive word", "BoNK", "", true],
    ["a suffix residue", "", "z", true],
    ["a case-insensitive suffix", "", "AbC", false],
    ["a suffix of '1's (zero digits)", "", "111", true],
    ["prefix and suffix", "2", "x", false],
    ["a suffix longer than 32 characters (the address must be long enough)", "", "1".repeat(33), true],
    ["44 characters in all", "2".repeat(22), "1".repeat(22), true],
  ])("matches exactly what the reference matcher matches: %s", async (_, prefix, suffix, caseSensitive) => {
    const pattern = { prefix, suffix, caseSensitive };
    const params = solanaPatternParams(pattern);
    const values = probeValues(pattern);
    const input = new Uint32Array(values.length * 8);
    values.forEach((v, i) => {
      const bytes = keyBytes(v);
      for (let k = 0; k < 8; k++) input[i * 8 + k] = new DataView(bytes.buffer).getUint32(4 * k, true);
    });
    const pipeline = await computePipeline(device!, code, "test_match");
    const out = new Uint32Array(
      await runTestKernel(device!, pipeline, input, values.length * 4, values.length, [
        { binding: 0, buffer: uniformBuffer(device!, solanaParamsWords(params, 0, 0)) },
        { binding: 3, buffer: storageBuffer(rangeWords(params.ranges)) },
      ]),
    );
    const spec = { network: "solana" as const, ...pattern };
    let matched = 0;
    values.forEach((v, i) => {
      const address = base58.encode(keyBytes(v));
      const want = matchesAddress(spec, address);
      expect(out[i] === 1, `${address} (${address.length} characters)`).toBe(want);
      if (want) matched++;
    });
    // both answers were asked for (except where no key can match)
    if (prefix !== "1".repeat(33)) expect(matched).toBeGreaterThan(0);
    expect(matched).toBeLessThan(values.length);
  });
});

function storageBuffer(words: Uint32Array): GPUBuffer {
  const buffer = device!.createBuffer({ size: Math.max(16, words.byteLength), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  device!.queue.writeBuffer(buffer, 0, words);
  return buffer;
}
