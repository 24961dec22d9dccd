// The GPU grinder end to end on the adapter Dawn finds (SwiftShader here and on CI): start points against
// @noble/curves, a 10,000-point walk checked candidate by candidate, the kernel's first match against a CPU
// scan of the same candidates, patterns ground to verified keys, split-key offsets, the degenerate cases, and
// where every start scalar comes from. Small runs (a few invocations, HALF = 8) keep it to seconds.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { beforeAll, describe, expect, it } from "vitest";
import { addressOfPrivateKey, CURVE_ORDER, finalPrivateKey, orderAddress, publicKeyOf, randomSecret } from "../../schema/split-key.ts";
import { BETA } from "../../gpu/grind.wgsl.ts";
import { GpuGrinder, type GpuHit, hitPrivateKey, type GrinderConfig } from "../../gpu/grinder.ts";
import { type CorruptReadback, scaleBatches } from "../../gpu/kernel-host.ts";
import { ethereumSelfCheck } from "../../gpu/self-check.ts";
import { patternParams } from "../../gpu/pattern.ts";
import { CURVE_N, cryptoRandom, MAX_RUN_POINTS, randomStartScalar, type RandomSource } from "../../gpu/start.ts";
import { matchesAddress, type PatternSpec } from "../../schema/grind-pattern.ts";
import { gpuSource } from "./gpu-source.ts";
import { testGpu } from "./gpu-test-device.ts";
import { cpuSource } from "./search-source.ts";
import type { Found } from "./types.ts";
import { toChecksumAddress, verifiedRow } from "./verify.ts";

const gpu = await testGpu();
const device = gpu.device;
const describeGpu = device ? describe : describe.skip;
if (!gpu.device) it.skip(`GPU grinder tests: ${gpu.reason}`, () => {});

const Point = secp256k1.Point;
const P = Point.Fp.ORDER;
const HALF = 8;
const STRIDE = 2 * HALF + 1;
const eth = (prefix: string, suffix = "", caseSensitive = false, mirror?: number): PatternSpec => ({
  network: "ethereum",
  prefix,
  suffix,
  caseSensitive,
  mirror,
});

// The kernel is compiled once for the whole file, before the first test's clock starts: 10-25 s on
// SwiftShader, minutes on a machine loaded by other work.
beforeAll(async () => {
  if (device) (await GpuGrinder.create(device, { pattern: eth("f"), invocations: 1, halfBatch: HALF })).destroy();
}, 300_000);

/** A grinder for the tests; `drawn` collects every start scalar it draws, in order. */
async function grinder(config: Partial<GrinderConfig> & Pick<GrinderConfig, "pattern">): Promise<GpuGrinder & { drawn: bigint[] }> {
  const drawn: bigint[] = [];
  const g = await GpuGrinder.create(device!, { invocations: 64, halfBatch: HALF, onStart: (_, k) => drawn.push(k), ...config });
  return Object.assign(g, { drawn });
}

/** A CSPRNG stand-in that hands out the given scalars (as 32 big-endian bytes), then fails. */
function replay(scalars: bigint[]): RandomSource {
  let i = 0;
  return (bytes) => {
    if (i >= scalars.length) throw new Error("replay: out of scalars");
    const hex = scalars[i++].toString(16).padStart(64, "0");
    for (let b = 0; b < 32; b++) bytes[b] = parseInt(hex.slice(2 * b, 2 * b + 2), 16);
  };
}

const drawScalars = (n: number) => Array.from({ length: n }, () => randomStartScalar(HALF));

/** Address (lower-case hex, 40) of each of the six variants of the point with key s, in the kernel's order. */
function variantAddresses(s: bigint): string[] {
  const { x, y } = Point.BASE.multiply(s).toAffine();
  const bx = (BETA * x) % P;
  const b2x = (((P - x - bx) % P) + P) % P;
  const addr = (px: bigint, py: bigint) => {
    const bytes = new Uint8Array(64);
    const hex = px.toString(16).padStart(64, "0") + py.toString(16).padStart(64, "0");
    for (let b = 0; b < 64; b++) bytes[b] = parseInt(hex.slice(2 * b, 2 * b + 2), 16);
    return Buffer.from(keccak_256(bytes).subarray(12)).toString("hex");
  };
  return [addr(x, y), addr(x, P - y), addr(bx, y), addr(bx, P - y), addr(b2x, y), addr(b2x, P - y)];
}

/** Trace words of one candidate -> its lower-case address. */
function traceAddress(trace: Uint32Array, index: number): string {
  let hex = "";
  for (let w = 0; w < 5; w++) {
    const v = trace[index * 5 + w];
    for (let b = 0; b < 4; b++) hex += ((v >>> (8 * b)) & 255).toString(16).padStart(2, "0");
  }
  return hex;
}

describeGpu("start points", () => {
  it("puts every invocation at k·G for the CSPRNG's k, including scalars with long zero runs and the range ends", async () => {
    const special = [BigInt(HALF + 1), CURVE_N - MAX_RUN_POINTS - BigInt(HALF) - 1n, 1n << 200n, (1n << 255n) + 15n, 0x0f0f0f0fn << 128n];
    const scalars = [...special, ...drawScalars(64 - special.length)];
    const g = await grinder({ pattern: eth("f".repeat(12)), random: replay(scalars) });
    const r = await g.run(1);
    expect(r.reseeded).toBe(64);
    expect(g.drawn).toEqual(scalars);
    const state = await g.readState();
    state.forEach((s, t) => {
      // seeded, then walked one batch: the centre is now k + STRIDE
      expect(g.centreScalar(t)).toBe(scalars[t] + BigInt(STRIDE));
      const expected = Point.BASE.multiply(g.centreScalar(t)).toAffine();
      expect({ x: s.x, y: s.y, status: s.status }, `invocation ${t}`).toEqual({ x: expected.x, y: expected.y, status: 0 });
    });
    g.destroy();
  });

  it("puts a split-key order's invocations at A + k·G", async () => {
    const a = randomSecret();
    const scalars = drawScalars(16);
    const g = await grinder({ pattern: eth("f".repeat(12)), invocations: 16, publicKey: publicKeyOf(a), random: replay(scalars) });
    await g.run(1);
    const state = await g.readState();
    state.forEach((s, t) => {
      const expected = Point.BASE.multiply((a + scalars[t] + BigInt(STRIDE)) % CURVE_ORDER).toAffine();
      expect({ x: s.x, y: s.y }).toEqual({ x: expected.x, y: expected.y });
    });
    g.destroy();
  });

  it("reports a degenerate start (A + k·G at infinity) and restarts that invocation, with no hit", async () => {
    const k = randomStartScalar(HALF);
    const a = CURVE_ORDER - k; // A = -k·G: A + k·G is the point at infinity
    const scalars = [k, ...drawScalars(3)];
    const g = await grinder({ pattern: eth("0"), invocations: 2, publicKey: publicKeyOf(a), random: replay(scalars) });
    const first = await g.run(1);
    expect(first.hits.every((h) => h.invocation !== 0)).toBe(true);
    expect((await g.readState())[0].status).toBe(1);
    const second = await g.run(1);
    expect(second.reseeded).toBeGreaterThanOrEqual(1);
    expect(g.drawn.slice(0, 3)).toEqual(scalars.slice(0, 3));
    expect((await g.readState())[0].status === 0 || second.hits.some((h) => h.invocation === 0)).toBe(true);
    g.destroy();
  });

  it("reports a zero denominator in the walk (a crafted A with A + k·G = -3·G) and restarts that invocation", async () => {
    const k = randomStartScalar(HALF);
    const a = (((-3n - k) % CURVE_ORDER) + CURVE_ORDER) % CURVE_ORDER; // centre (a + k)·G = -3·G = -T_2
    const g = await grinder({ pattern: eth("f".repeat(12)), invocations: 1, publicKey: publicKeyOf(a), random: replay([k, ...drawScalars(1)]) });
    const first = await g.run(1);
    expect(first.hits).toEqual([]);
    expect((await g.readState())[0].status).toBe(1);
    expect((await g.run(1)).reseeded).toBe(1);
    g.destroy();
  });
});

describeGpu("the walk", () => {
  it("walks 10,013 consecutive points of one run and every one of their 60,078 candidates is noble's address", async () => {
    const k = randomStartScalar(HALF);
    const g = await grinder({ pattern: eth("f".repeat(12)), invocations: 1, random: replay([k]) });
    const batches = 589; // 589 · 17 = 10,013 points
    const { trace } = await g.run(batches, { trace: true });
    let pt = Point.BASE.multiply(k - BigInt(HALF));
    let checked = 0;
    for (let j = 0; j < batches * STRIDE; j++) {
      const { x, y } = pt.toAffine();
      const bx = (BETA * x) % P;
      const b2x = (((P - x - bx) % P) + P) % P;
      const xs = [x, x, bx, bx, b2x, b2x];
      for (let v = 0; v < 6; v++) {
        const py = v % 2 ? P - y : y;
        const hex = xs[v].toString(16).padStart(64, "0") + py.toString(16).padStart(64, "0");
        const expected = Buffer.from(keccak_256(Buffer.from(hex, "hex")).subarray(12)).toString("hex");
        if (traceAddress(trace!, j * 6 + v) !== expected)
          throw new Error(`point k - ${HALF} + ${j}, variant ${v}: GPU ${traceAddress(trace!, j * 6 + v)}, noble ${expected}`);
        checked++;
      }
      pt = pt.add(Point.BASE);
    }
    expect(checked).toBe(60_078);
    const [end] = await g.readState();
    const expected = Point.BASE.multiply(k + BigInt(batches * STRIDE)).toAffine();
    expect({ x: end.x, y: end.y }).toEqual({ x: expected.x, y: expected.y });
    g.destroy();
  }, 60_000);

  it("64 invocations each walk their own run from their own start (both ends and the centre of every batch against noble)", async () => {
    const scalars = drawScalars(64);
    const g = await grinder({ pattern: eth("f".repeat(12)), random: replay(scalars) });
    const { trace } = await g.run(2, { trace: true });
    for (let t = 0; t < 64; t += 1) {
      for (let b = 0; b < 2; b++) {
        // spot-check three points per batch (the whole walk is checked above): both ends and the centre
        for (const j of [0, HALF, 2 * HALF]) {
          const want = variantAddresses(scalars[t] + BigInt(b * STRIDE + j - HALF));
          const got = want.map((_, v) => traceAddress(trace!, ((t * 2 + b) * STRIDE + j) * 6 + v));
          expect(got, `invocation ${t} batch ${b} point ${j}`).toEqual(want);
        }
      }
    }
    g.destroy();
  });
});

/** The kernel's order of candidates within a batch: offsets +i, -i for i = HALF..1, then the centre. */
const KERNEL_ORDER = [...Array.from({ length: HALF }, (_, k) => HALF - k).flatMap((i) => [i, -i]), 0];

describeGpu("matching", () => {
  it.each([
    ["prefix", eth("a")],
    ["suffix", eth("", "0")],
    ["prefix and suffix", eth("1", "e")],
    ["case-sensitive (EIP-55)", eth("B", "", true)],
    ["case-sensitive, mixed", eth("c", "D", true)],
    ["mirror", eth("", "", false, 1)],
    ["mirror, case-sensitive", eth("", "", true, 2)],
  ])("reports exactly each invocation's first %s match, as a CPU scan of the same candidates finds it", async (_, spec) => {
    const scalars = drawScalars(64);
    const batches = 2;
    const traced = await grinder({ pattern: eth("f".repeat(12)), random: replay(scalars) });
    const { trace } = await traced.run(batches, { trace: true });
    traced.destroy();
    const g = await grinder({ pattern: spec, random: replay(scalars) });
    const { hits } = await g.run(batches);
    g.destroy();
    let expectedHits = 0;
    for (let t = 0; t < 64; t++) {
      let first: { scalar: bigint; variant: number } | null = null;
      search: for (let b = 0; b < batches; b++) {
        for (const offset of KERNEL_ORDER) {
          for (let v = 0; v < 6; v++) {
            const address = toChecksumAddress(traceAddress(trace!, ((t * batches + b) * STRIDE + offset + HALF) * 6 + v));
            if (matchesAddress(spec, address)) {
              first = { scalar: scalars[t] + BigInt(b * STRIDE + offset), variant: v };
              break search;
            }
          }
        }
      }
      const hit = hits.find((h) => h.invocation === t);
      expect(hit ? { scalar: hit.scalar, variant: hit.variant } : null, `invocation ${t}`).toEqual(first);
      if (first) expectedHits++;
    }
    expect(hits).toHaveLength(expectedHits);
    // the patterns are chosen so that a CPU scan finds some (and the no-hit side is checked too)
    expect(expectedHits).toBeGreaterThan(0);
    expect(expectedHits).toBeLessThanOrEqual(64);
  });
});

describeGpu("the self-check (run before every GPU grind)", () => {
  // HALF 8 as everywhere in this file: the kernel compiled in beforeAll, so no compile of its own
  const check = (corrupt?: CorruptReadback) => ethereumSelfCheck(device!, { halfBatch: HALF, invocations: 16, corrupt });

  it("passes on the kernel: every traced candidate is noble's, and each pattern's hits are a CPU scan's", async () => {
    const r = await check();
    expect(r.traced).toBe(16 * STRIDE * 6);
    expect(r.patterns.map((p) => p.pattern)).toEqual(["prefix c", "suffix b", "prefix A (case-sensitive)"]);
    // one match per 16 (32 case-sensitive) candidates among 102 per invocation: nearly every invocation has one
    for (const p of r.patterns) expect(p.hits, p.pattern).toBeGreaterThan(8);
  });

  it("checks a split-key order's seed pass too (A + k·G), and fails on a flipped bit there", async () => {
    const r = await ethereumSelfCheck(device!, { halfBatch: HALF, invocations: 16, splitKey: true });
    expect(r.traced).toBe(2 * 16 * STRIDE * 6);
    let traces = 0;
    const second: CorruptReadback = (words, what) => {
      if (what === "trace" && ++traces === 2) words[5] ^= 1 << 30;
    };
    await expect(ethereumSelfCheck(device!, { halfBatch: HALF, invocations: 16, splitKey: true, corrupt: second })).rejects.toThrow(
      /^known answer \(split-key, A \+ k·G\): invocation 0, key 0x[0-9a-f]+ - 8, variant 1: the GPU computed address/,
    );
  });

  it("fails on a flipped bit in one traced address, naming the candidate and both addresses", async () => {
    const flip: CorruptReadback = (words, what) => {
      if (what === "trace") words[(3 * STRIDE * 6 + 40) * 5 + 2] ^= 1 << 13;
    };
    await expect(check(flip)).rejects.toThrow(
      /^known answer: invocation 3, key 0x[0-9a-f]+ - 2, variant 4: the GPU computed address 0x[0-9a-f]{40}, @noble\/curves 0x[0-9a-f]{40}$/,
    );
  });

  it("fails when the GPU drops a hit (the last record unread), a fault the CPU's re-derivation cannot see", async () => {
    const drop: CorruptReadback = (words, what) => {
      if (what === "hits" && words[0] > 0) words[0] -= 1;
    };
    await expect(check(drop)).rejects.toThrow(/^prefix c: invocation \d+: the GPU missed a match a CPU scan finds \(key [+] -?\d+ variant \d\)$/);
  });

  it("fails when a hit names a later candidate than the first match", async () => {
    const shift: CorruptReadback = (words, what) => {
      if (what === "hits" && words[0] > 0) words[1 + 3] = (words[1 + 3] + 1) % 6; // the first record's variant
    };
    await expect(check(shift)).rejects.toThrow(
      /^prefix c: invocation \d+: the GPU reported key [+] -?\d+ variant \d, (a CPU scan finds key [+] -?\d+ variant \d first|which a CPU scan does not match)$/,
    );
  });

  it("a source whose GPU fails the check says why and grinds on the CPU instead", async () => {
    const spec = eth("ab");
    const flip: CorruptReadback = (words, what) => {
      if (what === "trace") words[7] ^= 1;
    };
    const source = gpuSource(
      { device: device!, adapter: (gpu as { adapter: GPUAdapter }).adapter, name: "the test adapter", software: true },
      { pattern: spec, invocations: 64, halfBatch: HALF, corruptSelfCheck: flip, fallback: () => cpuSource({ spec }, 1) },
    );
    expect(source.kind).toBe("gpu");
    const notices: string[] = [];
    const found = await new Promise<Found>((resolve, reject) => {
      source.start({ ready() {}, attempts() {}, found: resolve, fail: reject, notice: (line) => notices.push(line) });
    });
    source.stop();
    expect(notices.join("\n")).toMatch(
      /GPU self-check failed, the GPU the test adapter is not used: known answer: invocation 0, .*\ngrinding on 1 CPU thread\(s\) instead/,
    );
    expect(source.kind).toBe("cpu");
    expect(source.description).toBe("1 CPU thread(s)");
    if (!("privateKey" in found)) throw new Error("a split-key result from a plain search");
    expect(verifiedRow(spec, found.address, found.privateKey).address).toBe(found.address);
  }, 60_000);
});

describeGpu("the hit buffer", () => {
  it("reports the hits a full buffer dropped, not a silently shorter list", async () => {
    // nearly every one of 64 invocations matches a one-character prefix in its first batch; the buffer holds 3
    const g = await grinder({ pattern: eth("0"), maxHits: 3 });
    const r = await g.run(1);
    g.destroy();
    expect(r.hits).toHaveLength(3);
    expect(r.dropped).toBeGreaterThan(40);
  });
});

async function grindUntil(g: GpuGrinder, count: number): Promise<GpuHit[]> {
  const hits: GpuHit[] = [];
  for (let i = 0; i < 50 && hits.length < count; i++) hits.push(...(await g.run(2)).hits);
  return hits;
}

describeGpu("grinding", () => {
  it.each([
    ["prefix", eth("ab")],
    ["suffix", eth("", "9f")],
    ["prefix and suffix", eth("7", "7")],
    ["case-sensitive", eth("Ca", "", true)],
    ["mirror 2", eth("", "", false, 2)],
  ])("returns only keys that verify (%s)", async (_, spec) => {
    const g = await grinder({ pattern: spec });
    const hits = await grindUntil(g, 3);
    g.destroy();
    expect(hits.length).toBeGreaterThanOrEqual(3);
    for (const hit of hits) {
      const row = verifiedRow(spec, toChecksumAddress(hit.address), hitPrivateKey(hit));
      expect(row.address.toLowerCase()).toBe("0x" + hit.address);
    }
  });

  it("split-key: each offset, with the buyer's secret, gives the found address and matches the order", async () => {
    const secret = randomSecret();
    const publicKey = publicKeyOf(secret);
    const spec = eth("e", "5");
    const g = await grinder({ pattern: spec, publicKey });
    const hits = await grindUntil(g, 3);
    g.destroy();
    expect(hits.length).toBeGreaterThanOrEqual(3);
    for (const hit of hits) {
      const address = orderAddress(publicKey, hit.scalar, hit.variant);
      expect(address).toBe(toChecksumAddress(hit.address));
      expect(matchesAddress(spec, address)).toBe(true);
      expect(addressOfPrivateKey(finalPrivateKey(secret, hit.scalar, hit.variant))).toBe(address);
    }
  });
});

describeGpu("entropy", () => {
  it("every start is 32 fresh CSPRNG bytes taken as the scalar, distinct across runs and restarts", async () => {
    const draws: Uint8Array[] = [];
    const spy: RandomSource = (bytes) => {
      cryptoRandom(bytes);
      draws.push(bytes.slice());
    };
    const g = await grinder({ pattern: eth("c"), random: spy });
    let restarts = 0;
    for (let i = 0; i < 4; i++) restarts += (await g.run(1)).reseeded;
    g.destroy();
    expect(restarts).toBeGreaterThan(64); // the first run's 64 plus one per hit
    expect(g.drawn).toHaveLength(restarts);
    expect(draws).toHaveLength(restarts);
    draws.forEach((bytes, i) => {
      expect(bytes.length).toBe(32);
      expect(g.drawn[i]).toBe(BigInt("0x" + Buffer.from(bytes).toString("hex")));
    });
    expect(new Set(g.drawn).size).toBe(g.drawn.length);
    // spread over the whole range: a seed of fewer bits could not fill the top bits this evenly
    expect(g.drawn.filter((k) => k >> 255n === 1n).length).toBeGreaterThan(restarts / 4);
  });

  it("the start scalars do not stay in GPU memory: their buffer is zero once the seed pass has run", async () => {
    const g = await grinder({ pattern: eth("f".repeat(12)), invocations: 8 });
    await g.run(1);
    expect((await g.readSeedBuffer()).every((w) => w === 0)).toBe(true);
    g.destroy();
  });

  it("a draw outside [HALF + 1, n - 2^48 - HALF - 1] is drawn again, never reduced into range", () => {
    const low = BigInt(HALF);
    const high = CURVE_N - 1n;
    const good = (1n << 254n) + 12345n;
    expect(randomStartScalar(HALF, replay([low, high, 0n, good]))).toBe(good);
  });

  it("two processes draw disjoint starts", () => {
    const script = `import { randomStartScalar } from ${JSON.stringify(fileURLToPath(new URL("../../gpu/start.ts", import.meta.url)))};
      for (let i = 0; i < 500; i++) console.log(randomStartScalar(${HALF}).toString(16));`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
    expect(child.status).toBe(0);
    const theirs = child.stdout
      .trim()
      .split("\n")
      .map((h) => BigInt("0x" + h));
    const ours = drawScalars(500);
    expect(theirs).toHaveLength(500);
    expect(new Set([...theirs, ...ours]).size).toBe(1000);
  });

  it("restarts every run that reaches the run-length limit", async () => {
    const g = await grinder({ pattern: eth("f".repeat(12)), invocations: 4, maxRunPoints: 3 * STRIDE });
    const reseeded: number[] = [];
    for (let i = 0; i < 5; i++) reseeded.push((await g.run(1)).reseeded);
    expect(reseeded).toEqual([4, 0, 0, 4, 0]);
    const state = await g.readState();
    state.forEach((s, t) => expect(s.x).toBe(Point.BASE.multiply(g.centreScalar(t)).toAffine().x));
    g.destroy();
  });
});

describe("work sizing and patterns (no GPU needed)", () => {
  it("scales batches toward the target time, at most 4x up per dispatch, never below 1", () => {
    expect(scaleBatches(1, 25, 250)).toBe(4);
    expect(scaleBatches(8, 250, 250)).toBe(8);
    expect(scaleBatches(8, 500, 250)).toBe(4);
    expect(scaleBatches(1, 10_000, 250)).toBe(1);
    expect(scaleBatches(4000, 1, 250, 4096)).toBe(4096);
  });

  it("refuses patterns the kernel cannot express", () => {
    expect(() => patternParams({ prefix: "xyz", suffix: "", caseSensitive: false })).toThrow(/hex/);
    expect(() => patternParams({ prefix: "a".repeat(30), suffix: "b".repeat(11), caseSensitive: false })).toThrow(/40/);
    expect(() => patternParams({ prefix: "a", suffix: "", caseSensitive: false, mirror: 2 })).toThrow(/mirror/);
    expect(() => patternParams({ prefix: "", suffix: "", caseSensitive: false, mirror: 21 })).toThrow(/mirror/);
    expect(() => patternParams({ prefix: "dｅad", suffix: "", caseSensitive: false })).toThrow(/"ｅ" \(U\+FF45\)/);
  });

  it("puts a pattern's characters on the digest words the CPU searcher reads", () => {
    // digest words are little-endian: characters 0, 1 are byte 12, the low byte of word 3 (high nibble first);
    // character 39 is the low nibble of byte 31, the top byte of word 7
    const p = patternParams({ prefix: "Ab", suffix: "C", caseSensitive: true });
    expect(p.mask[0]).toBe(0xff);
    expect(p.value[0]).toBe(0xab);
    expect(p.mask[4]).toBe(0x0f000000);
    expect(p.value[4]).toBe(0x0c000000);
    expect([p.caseMode, p.caseMask[0], p.caseUpper[0], p.caseMask[1], p.caseUpper[1]]).toEqual([1, 0b11, 0b01, 1 << 7, 1 << 7]);
  });
});
