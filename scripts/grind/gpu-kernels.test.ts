// The GPU grinder's building blocks against bigint arithmetic and @noble/hashes, on thousands of random vectors
// and at the edges of the limb bounds the code relies on (gpu/field.wgsl.ts). The test kernels are added to the
// grinder's own generated WGSL (grinderWgsl), so they call exactly the functions the grinder runs.
import { keccak_256 } from "@noble/hashes/sha3.js";
import { beforeAll, describe, expect, it } from "vitest";
import { FIELD_P, fromLimbs, LIMBS, toLimbs } from "../../gpu/field.wgsl.ts";
import { grinderWgsl } from "../../gpu/grind.wgsl.ts";
import { keccakConstantWords } from "../../gpu/keccak.wgsl.ts";
import { computePipeline, runTestKernel, testGpu, uniformBuffer } from "./gpu-test-device.ts";
import { toChecksumAddress } from "./verify.ts";

const gpu = await testGpu();
const device = gpu.device;

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

// per case: a 64-byte message as 16 words -> keccak-256 (8 words), padded as the grinder pads x || y
@compute @workgroup_size(64)
fn test_keccak(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&test_out) / 8u) { return; }
  var xm: array<u32, 8>;
  var ym: array<u32, 8>;
  for (var k = 0u; k < 8u; k++) {
    xm[k] = test_in[i * 16u + k];
    ym[k] = test_in[i * 16u + 8u + k];
  }
  let d = keccak_f(point_message(xm, ym));
  for (var k = 0u; k < 8u; k++) { test_out[i * 8u + k] = d[k]; }
}

// per case: an address (5 words in address order) -> keccak-256 of its 40 hex characters (8 words) and the
// EIP-55 upper-case bits (2 words)
@compute @workgroup_size(64)
fn test_checksum(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&test_out) / 10u) { return; }
  var a: array<u32, 5>;
  for (var k = 0u; k < 5u; k++) { a[k] = test_in[i * 5u + k]; }
  let d = keccak_f(hex_message(a));
  let upper = eip55_upper(d);
  for (var k = 0u; k < 8u; k++) { test_out[i * 10u + k] = d[k]; }
  test_out[i * 10u + 8u] = upper.x;
  test_out[i * 10u + 9u] = upper.y;
}
`;

// A seeded generator, so a failure names a case that can be run again.
let seed = 0x9e3779b9;
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
const randField = () => randBig(256) % FIELD_P;
const mod = (x: bigint) => ((x % FIELD_P) + FIELD_P) % FIELD_P;
function pow(b: bigint, e: bigint): bigint {
  let r = 1n;
  b = mod(b);
  for (; e > 0n; e >>= 1n, b = (b * b) % FIELD_P) if (e & 1n) r = (r * b) % FIELD_P;
  return r;
}
const limbsOf = (f: () => number) => Int32Array.from({ length: LIMBS }, f);
const tight = (l: Int32Array) => l.every((v) => v >= -1 && v <= 8192);

type FieldOp = 0 | 1 | 2 | 3 | 4 | 5;
type FieldCase = { op: FieldOp; a: Int32Array; b: Int32Array };

const describeGpu = device ? describe : describe.skip;

const code = grinderWgsl({ halfBatch: 1, workgroupSize: 64 }) + TEST_ENTRIES;

// The test kernels are compiled once for the whole file, before the first test's clock starts (seconds on
// SwiftShader, minutes on a machine loaded by other work).
beforeAll(async () => {
  if (device) await Promise.all(["test_field", "test_keccak", "test_checksum"].map((entry) => computePipeline(device, code, entry)));
}, 300_000);

describeGpu("the field on the GPU", () => {
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

  const canonical = () => toLimbs(randField());

  it("multiplies and squares like bigint mod p, tight, on random and edge-of-bound inputs", async () => {
    const inputs: Int32Array[] = [];
    for (let i = 0; i < 1500; i++) inputs.push(canonical());
    // what the walk feeds the multiply: the limb-wise difference of two tight values
    for (let i = 0; i < 600; i++) inputs.push(limbsOf(() => randInt(-8193, 8193)));
    // the stated bound of a multiply's input, |limb| <= 10000
    for (let i = 0; i < 300; i++) inputs.push(limbsOf(() => (rand32() & 1 ? 1 : -1) * (10000 - randInt(0, 3))));
    inputs.push(
      limbsOf(() => 10000),
      limbsOf(() => -10000),
      limbsOf(() => 8192),
      limbsOf(() => -1),
      limbsOf(() => 0),
      toLimbs(FIELD_P - 1n),
    );
    const cases: FieldCase[] = [];
    for (let i = 0; i < inputs.length; i++) {
      const a = inputs[i];
      const b = inputs[(i * 7 + 3) % inputs.length];
      cases.push({ op: 0, a, b }, { op: 1, a, b });
    }
    const out = await field(cases);
    let checked = 0;
    cases.forEach(({ op, a, b }, i) => {
      const expected = op === 0 ? mod(fromLimbs(a) * fromLimbs(b)) : mod(fromLimbs(a) ** 2n);
      const label = `${op === 0 ? "mul" : "sqr"} a=[${a}] b=[${b}]`;
      expect(mod(fromLimbs(out[i])), label).toBe(expected);
      expect(tight(out[i]), `${label} -> [${out[i]}] is not tight`).toBe(true);
      checked++;
    });
    expect(checked).toBeGreaterThan(4800);
  });

  it("inverts: a · inv(a) = 1 for random and special values, inv(0) = 0", async () => {
    const values = [1n, 2n, 3n, FIELD_P - 1n, FIELD_P - 2n, 1n << 255n, FIELD_P - (1n << 32n), ...Array.from({ length: 250 }, randField)];
    const out = await field([...values.map((v) => ({ op: 2 as const, a: toLimbs(v), b: toLimbs(0n) })), { op: 2, a: toLimbs(0n), b: toLimbs(0n) }]);
    values.forEach((v, i) => {
      expect(mod(fromLimbs(out[i]) * v), `inv(${v.toString(16)})`).toBe(1n);
      expect(tight(out[i])).toBe(true);
    });
    expect(mod(fromLimbs(out[values.length]))).toBe(0n);
    expect(pow(values[9], FIELD_P - 2n)).toBe(mod(fromLimbs(out[9])));
  });

  it("canonicalises any representation within ±2^15 per limb to the unique value in [0, p)", async () => {
    const inputs: Int32Array[] = [];
    for (let i = 0; i < 1500; i++) inputs.push(limbsOf(() => randInt(-32768, 32767)));
    for (let i = 0; i < 300; i++) inputs.push(limbsOf(() => randInt(-16385, 8193)));
    // values at and around multiples of p and powers of two, some written with negative limbs
    const near = [
      0n,
      1n,
      FIELD_P - 1n,
      FIELD_P,
      FIELD_P + 1n,
      2n * FIELD_P,
      2n ** 256n - 1n,
      2n ** 256n,
      2n ** 256n + 2n ** 32n + 976n,
      2n ** 260n - 1n,
      16n * FIELD_P - 1n,
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
      const got = fromLimbs(out[i]);
      expect(got, `canon([${a}])`).toBe(mod(fromLimbs(a)));
      expect(out[i].every((v) => v >= 0 && v <= 8191)).toBe(true);
    });
  });

  it("normalises sums (|limb| up to 2^15) to tight limbs of the same value mod p", async () => {
    const inputs = Array.from({ length: 1000 }, () => limbsOf(() => randInt(-32768, 32767)));
    inputs.push(
      limbsOf(() => 32767),
      limbsOf(() => -32768),
      limbsOf(() => -24577),
    );
    const out = await field(inputs.map((a) => ({ op: 4 as const, a, b: a })));
    inputs.forEach((a, i) => {
      expect(mod(fromLimbs(out[i])), `norm([${a}])`).toBe(mod(fromLimbs(a)));
      expect(tight(out[i]), `norm([${a}]) -> [${out[i]}]`).toBe(true);
    });
  });

  it("packs canonical limbs into 32-bit words and back", async () => {
    const values = [0n, FIELD_P - 1n, ...Array.from({ length: 500 }, randField)];
    const out = await field(values.map((v) => ({ op: 5 as const, a: toLimbs(v), b: toLimbs(v) })));
    values.forEach((v, i) => expect(fromLimbs(out[i])).toBe(v));
  });
});

describeGpu("keccak-256 on the GPU", () => {
  // the round constants, as the grinder binds them
  const consts = () => [{ binding: 7, buffer: uniformBuffer(device!, keccakConstantWords()) }];

  it("hashes 64-byte public keys as @noble/hashes does (2,000 random messages)", async () => {
    const n = 2000;
    const bytes = new Uint8Array(n * 64);
    for (let i = 0; i < bytes.length; i += 4) new DataView(bytes.buffer).setUint32(i, rand32());
    const pipeline = await computePipeline(device!, code, "test_keccak");
    const out = new Uint8Array(await runTestKernel(device!, pipeline, new Uint32Array(bytes.buffer), n * 32, n, consts()));
    for (let i = 0; i < n; i++) {
      const message = bytes.subarray(i * 64, i * 64 + 64);
      expect(Buffer.from(out.subarray(i * 32, i * 32 + 32)).toString("hex"), Buffer.from(message).toString("hex")).toBe(
        Buffer.from(keccak_256(message)).toString("hex"),
      );
    }
  });

  it("hashes an address's 40 hex characters and reads its EIP-55 case as verify.ts does (2,000 addresses)", async () => {
    const n = 2000;
    const addresses = Array.from({ length: n }, () => randBig(160).toString(16).padStart(40, "0"));
    // a few with every character a letter or a digit
    addresses.splice(0, 3, "f".repeat(40), "0".repeat(40), "abcdef0123456789".repeat(3).slice(0, 40));
    const input = new Uint32Array(n * 5);
    addresses.forEach((hex, i) => {
      for (let w = 0; w < 5; w++) input[i * 5 + w] = parseInt(hex.slice(8 * w, 8 * w + 8), 16);
    });
    const pipeline = await computePipeline(device!, code, "test_checksum");
    const out = new Uint32Array(await runTestKernel(device!, pipeline, input, n * 40, n, consts()));
    addresses.forEach((hex, i) => {
      const digest = keccak_256(new TextEncoder().encode(hex));
      expect(Buffer.from(out.buffer, i * 40, 32).toString("hex"), hex).toBe(Buffer.from(digest).toString("hex"));
      const checksummed = toChecksumAddress(hex).slice(2);
      for (let c = 0; c < 40; c++) {
        const bit = (out[i * 10 + 8 + (c >> 5)] >>> (c & 31)) & 1;
        const nibble = (digest[c >> 1] >> (c % 2 === 0 ? 4 : 0)) & 15;
        expect(bit, `${hex} character ${c}`).toBe(nibble >= 8 ? 1 : 0);
        if (/[a-f]/.test(hex[c])) expect(checksummed[c] === hex[c].toUpperCase()).toBe(bit === 1);
      }
    });
  });
});

if (!gpu.device) it.skip(`GPU kernel tests: ${gpu.reason}`, () => {});
