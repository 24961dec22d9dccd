// The Solana GPU grinder end to end on the adapter Dawn finds (SwiftShader here and on CI): every candidate's
// key against @noble/curves (the seed derivation, SHA-512, clamping, the comb, the batched inversion and
// the compression), the kernel's first match per invocation against a CPU scan of the same candidates,
// patterns ground to keys that verify, many hits in one dispatch, and where the bases come from and go.
// The GPU tests here use one kernel configuration, compiled once, and one more (the 11-bit comb, batch 3,
// workgroups of 32).
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { base58 } from "@scure/base";
import { beforeAll, describe, expect, it } from "vitest";
import { GpuGrinder } from "../../gpu/grinder.ts";
import { type CorruptReadback, GpuKernelError, hitRecords } from "../../gpu/kernel-host.ts";
import { solanaSelfCheck } from "../../gpu/self-check.ts";
import { candidateSeed, combFits, type SolanaGrinderConfig, SolanaGpuGrinder, solanaSecretKey } from "../../gpu/solana-grinder.ts";
import { solanaWorkSizeFor, sweepSolanaWorkSize } from "../../gpu/solana-sweep.ts";
import { prefixRanges, solanaPatternParams } from "../../gpu/solana-pattern.ts";
import type { RandomSource } from "../../gpu/start.ts";
import { solanaGpuSource } from "./gpu-source.ts";
import { testGpu } from "./gpu-test-device.ts";
import { cpuSource } from "./search-source.ts";
import type { Found } from "./types.ts";
import { matchesAddress, type PatternSpec, solanaPrefixProbability } from "../../schema/grind-pattern.ts";
import { verifiedRow } from "./verify.ts";

const gpu = await testGpu();
const device = gpu.device;
const describeGpu = device ? describe : describe.skip;
if (!gpu.device) it.skip(`Solana GPU grinder tests: ${gpu.reason}`, () => {});

const BATCH = 8;
const INVOCATIONS = 64;
const sol = (prefix: string, suffix = "", caseSensitive = false): PatternSpec => ({ network: "solana", prefix, suffix, caseSensitive });

// The kernel is compiled once for the whole file, before the first test's clock starts: 20-60 s on
// SwiftShader, minutes on a machine loaded by other work.
beforeAll(async () => {
  if (device) (await grinder({ pattern: sol("2"), invocations: 1 })).destroy();
}, 300_000);

/** A CSPRNG that records every byte it hands out (each call's bytes, in order). */
function recording(): RandomSource & { drawn: Uint8Array[] } {
  const drawn: Uint8Array[] = [];
  return Object.assign(
    (bytes: Uint8Array) => {
      crypto.getRandomValues(bytes);
      drawn.push(bytes.slice());
    },
    { drawn },
  );
}

/** A CSPRNG stand-in that hands out the given bytes again, call by call. */
function replay(calls: Uint8Array[]): RandomSource {
  let i = 0;
  return (bytes) => {
    if (i >= calls.length) throw new Error("replay: out of bytes");
    bytes.set(calls[i++]);
  };
}

function grinder(config: Partial<SolanaGrinderConfig> & Pick<SolanaGrinderConfig, "pattern">): Promise<SolanaGpuGrinder> {
  return SolanaGpuGrinder.create(device!, { invocations: INVOCATIONS, batch: BATCH, ...config });
}

const keyOf = (trace: Uint32Array, index: number) => {
  const bytes = new Uint8Array(32);
  for (let k = 0; k < 8; k++) new DataView(bytes.buffer).setUint32(4 * k, trace[index * 8 + k], true);
  return bytes;
};

/** The clamped scalar of a seed, as RFC 8032 makes it (for the coverage check below). */
function scalarOf(seed: Uint8Array): bigint {
  const h = sha512(seed).slice(0, 32);
  h[0] &= 248;
  h[31] = (h[31] & 127) | 64;
  return h.reduceRight((x, b) => (x << 8n) | BigInt(b), 0n);
}

/** The kernel's signed 8-bit digits of a scalar (its comb's windows). */
function signedDigits(a: bigint): number[] {
  const out: number[] = [];
  let carry = 0;
  for (let i = 0; i < 32; i++) {
    const raw = Number((a >> BigInt(8 * i)) & 255n) + carry;
    carry = raw > 128 ? 1 : 0;
    out.push(raw > 128 ? raw - 256 : raw);
  }
  return out;
}

describeGpu("every candidate against @noble/curves", () => {
  it("computes each of 2,048 candidates' public key as noble does from the seed SHA-512(base || j)", async () => {
    const random = recording();
    const g = await grinder({ pattern: sol("", "zzzzzzzz", true), random });
    const batches = 4;
    const { trace, hits } = await g.run(batches, { trace: true });
    g.destroy();
    expect(hits).toEqual([]);
    // the first draw is this dispatch's bases (the second, the next dispatch's, was drawn while it ran)
    const bases = random.drawn[0];
    expect(bases.length).toBe(INVOCATIONS * 32);
    const digits = new Set<number>();
    let checked = 0;
    for (let t = 0; t < INVOCATIONS; t++) {
      for (let j = 0; j < batches * BATCH; j++) {
        const seed = candidateSeed(bases.subarray(32 * t, 32 * t + 32), j);
        const want = Buffer.from(ed25519.getPublicKey(seed)).toString("hex");
        const got = Buffer.from(keyOf(trace!, t * batches * BATCH + j)).toString("hex");
        if (got !== want) throw new Error(`invocation ${t} candidate ${j}: GPU ${got}, noble ${want}`);
        for (const d of signedDigits(scalarOf(seed))) digits.add(d);
        checked++;
      }
    }
    expect(checked).toBe(2048);
    // the comb's edge cases ran: zero digits (the neutral entry), both extremes, negative digits
    for (const d of [0, 128, -127, -1, 1]) expect(digits.has(d), `digit ${d} among the scalars`).toBe(true);
  }, 120_000);
});

describeGpu("the 11-bit comb, an odd batch, a small workgroup and one inversion per workgroup", () => {
  // Real GPUs grind with 11-bit windows (defaultSolanaWorkSize): 24 windows of 1,024 entries, the last window
  // 3 bits wide, digits up to ±1,024. One more kernel compile on SwiftShader, so it also takes what no
  // default uses: batch 3 (not a power of two), workgroups of 32, 40 invocations (the second workgroup only
  // partly used: the invocations past the last take part in the workgroup's inversion with the product 1),
  // and the inversion shared across the workgroup (the rest of this file runs one inversion per invocation).
  const ODD = { windowBits: 11, batch: 3, workgroupSize: 32, invocations: 40, sharedInversion: true };
  const BATCHES = 4;
  const PER_INVOCATION = BATCHES * ODD.batch;

  /** One dispatch's bases, replayed to every CSPRNG call (each dispatch draws once, for the next, while it runs). */
  const sameBases = () => {
    const bases = new Uint8Array(ODD.invocations * 32);
    crypto.getRandomValues(bases);
    return { bases, random: replay(Array.from({ length: 6 }, () => bases)) };
  };

  /** Every candidate's key by the traced kernel, checked against noble's getPublicKey(seed). */
  async function tracedAddresses(bases: Uint8Array, random: RandomSource): Promise<string[][]> {
    const g = await grinder({ pattern: sol("", "zzzzzzzz", true), random, ...ODD });
    const { trace, candidates } = await g.run(BATCHES, { trace: true });
    g.destroy();
    expect(candidates).toBe(ODD.invocations * PER_INVOCATION);
    return Array.from({ length: ODD.invocations }, (_, t) =>
      Array.from({ length: PER_INVOCATION }, (_, j) => {
        const seed = candidateSeed(bases.subarray(32 * t, 32 * t + 32), j);
        const want = Buffer.from(ed25519.getPublicKey(seed)).toString("hex");
        const got = keyOf(trace!, t * PER_INVOCATION + j);
        if (Buffer.from(got).toString("hex") !== want)
          throw new Error(`invocation ${t} candidate ${j}: GPU ${Buffer.from(got).toString("hex")}, noble ${want}`);
        return base58.encode(got);
      }),
    );
  }

  it("computes each candidate's public key as noble does", async () => {
    const { bases, random } = sameBases();
    const addresses = await tracedAddresses(bases, random);
    expect(addresses.flat()).toHaveLength(ODD.invocations * PER_INVOCATION);
  }, 300_000);

  it("a hit buffer that overflows counts every match it could not hold: hits + dropped = the CPU scan's matches", async () => {
    const spec = sol("2", "", true);
    const { bases, random } = sameBases();
    const addresses = await tracedAddresses(bases, random);
    // the CPU scan: each invocation's first match in the kernel's order, which is batch by batch and, inside a batch,
    // from its last candidate to its first (the batched inversion's backward pass finishes them in that order)
    const kernelOrder = Array.from({ length: BATCHES }, (_, b) => Array.from({ length: ODD.batch }, (_, k) => b * ODD.batch + ODD.batch - 1 - k)).flat();
    const firstMatch = addresses.map((row) => kernelOrder.find((j) => matchesAddress(spec, row[j])) ?? -1);
    const matching = firstMatch.filter((j) => j >= 0).length;
    // about 1 - (1 - 1/17.6)^12 = 50% of the 40 invocations match
    expect(matching).toBeGreaterThan(4);
    const g = await grinder({ pattern: spec, random, maxHits: 3, ...ODD });
    const r = await g.run(BATCHES);
    g.destroy();
    expect(r.hits).toHaveLength(3);
    expect(r.hits.length + r.dropped).toBe(matching);
    for (const hit of r.hits) {
      expect(hit.candidate, `invocation ${hit.invocation}`).toBe(firstMatch[hit.invocation]);
      verifiedRow(spec, base58.encode(hit.publicKey), solanaSecretKey(hit));
    }
  }, 300_000);

  it("passes the self-check: an invocation that found its match goes on taking part in the workgroup's inversions", async () => {
    // each of the check's patterns stops about half the invocations early, in every batch
    const r = await solanaSelfCheck(device!, { batch: ODD.batch, windowBits: 11, workgroupSize: 32, sharedInversion: true, invocations: 40 });
    expect(r.traced).toBe(40 * 33);
    expect(r.patterns.reduce((n, p) => n + p.hits, 0)).toBeGreaterThan(8);
  }, 300_000);
});

describeGpu("matching", () => {
  // one set of candidates, traced once, then ground under each pattern with the same bases
  const batches = 4;
  let traced: { calls: Uint8Array[]; keys: string[][] } | null = null;
  async function candidates() {
    if (traced) return traced;
    const random = recording();
    const g = await grinder({ pattern: sol("", "zzzzzzzz", true), random });
    const { trace } = await g.run(batches, { trace: true });
    g.destroy();
    const keys = Array.from({ length: INVOCATIONS }, (_, t) =>
      Array.from({ length: batches * BATCH }, (_, j) => base58.encode(keyOf(trace!, t * batches * BATCH + j))),
    );
    traced = { calls: random.drawn, keys };
    return traced;
  }

  /** The kernel's order within an invocation: batch by batch, each batch's candidates from the last down. */
  const kernelOrder = Array.from({ length: batches }, (_, b) => Array.from({ length: BATCH }, (_, k) => b * BATCH + BATCH - 1 - k)).flat();

  it.each([
    ["a 44-character first digit", sol("2", "", true)],
    ["a leading zero byte ('1')", sol("1", "", true)],
    ["case-insensitive (A: 44 characters, a: 43)", sol("a")],
    ["a suffix", sol("", "z", true)],
    ["a case-insensitive suffix", sol("", "J")],
    ["prefix and suffix, case-insensitive", sol("b", "c")],
  ])("reports exactly each invocation's first match (%s), as a CPU scan of the same candidates finds it", async (_, spec) => {
    const { calls, keys } = await candidates();
    const g = await grinder({ pattern: spec, random: replay(calls) });
    const { hits } = await g.run(batches);
    g.destroy();
    let expectedHits = 0;
    for (let t = 0; t < INVOCATIONS; t++) {
      const first = kernelOrder.find((j) => matchesAddress(spec, keys[t][j]));
      const hit = hits.find((h) => h.invocation === t);
      expect(hit ? hit.candidate : undefined, `invocation ${t}`).toBe(first);
      if (first === undefined) continue;
      expectedHits++;
      expect(base58.encode(hit!.publicKey)).toBe(keys[t][first]);
    }
    expect(hits).toHaveLength(expectedHits);
    expect(expectedHits).toBeGreaterThan(0);
  });
});

describeGpu("grinding", () => {
  it.each([
    ["prefix", sol("3", "", true)],
    ["suffix", sol("", "x")],
    ["prefix and suffix", sol("A", "1")],
  ])("returns only keys that verify (%s)", async (_, spec) => {
    const g = await grinder({ pattern: spec });
    const found: string[] = [];
    for (let i = 0; i < 30 && found.length < 3; i++) {
      for (const hit of (await g.run(2)).hits) {
        const address = base58.encode(hit.publicKey);
        const row = verifiedRow(spec, address, solanaSecretKey(hit));
        found.push(row.address);
      }
    }
    g.destroy();
    expect(found.length).toBeGreaterThanOrEqual(3);
  });

  it("returns many hits from one dispatch, one per invocation, every one verified", async () => {
    const spec = sol("2", "", true);
    const g = await grinder({ pattern: spec });
    const { hits } = await g.run(2);
    g.destroy();
    // about 1 - (1 - 1/17.6)^16 = 61% of the 64 invocations find one
    expect(hits.length).toBeGreaterThanOrEqual(20);
    expect(new Set(hits.map((h) => h.invocation)).size).toBe(hits.length);
    for (const hit of hits) verifiedRow(spec, base58.encode(hit.publicKey), solanaSecretKey(hit));
  });
});

describeGpu("the self-check (run before every GPU grind)", () => {
  // batch 8 and the 8-bit comb as everywhere in this file: the kernel compiled in beforeAll; 16 invocations
  // of 32 candidates each (four batches)
  const check = (corrupt?: CorruptReadback) => solanaSelfCheck(device!, { batch: BATCH, windowBits: 8, invocations: 16, corrupt });

  it("passes on the kernel: every traced key is noble's, and each pattern's hits are a CPU scan's", async () => {
    const r = await check();
    expect(r.traced).toBe(16 * 32);
    expect(r.patterns.map((p) => p.pattern)).toEqual(["prefix H (case-sensitive)", "suffix z (case-sensitive)", "suffix x", "prefix a"]);
    // about one match in 30-60 candidates among 32 per invocation: some invocations find one, some none
    expect(r.patterns.reduce((n, p) => n + p.hits, 0)).toBeGreaterThan(8);
  }, 120_000);

  it("fails on a flipped bit in one traced key, naming the invocation, its base and both keys", async () => {
    const flip: CorruptReadback = (words, what) => {
      if (what === "trace") words[(32 + 5) * 8 + 3] ^= 1 << 20;
    };
    // invocation 1's base is all 0xff (the edges come first)
    await expect(check(flip)).rejects.toThrow(
      /^known answer: invocation 1 \(base ffffffffffffffff…\), candidate 5: the GPU computed public key [0-9a-f]{64}, @noble\/curves [0-9a-f]{64}$/,
    );
  }, 120_000);

  it("fails when the GPU drops a hit, a fault the CPU's re-derivation of hits cannot see", async () => {
    const drop: CorruptReadback = (words, what) => {
      if (what === "hits" && words[0] > 0) words[0] -= 1;
    };
    await expect(check(drop)).rejects.toThrow(/: invocation \d+: the GPU missed a match a CPU scan finds \(candidate \d+, \w+\)$/);
  }, 120_000);

  it("a source whose GPU fails the check says why and grinds on the CPU instead", async () => {
    const spec = sol("b");
    const flip: CorruptReadback = (words, what) => {
      if (what === "trace") words[0] ^= 1;
    };
    const source = solanaGpuSource(
      { device: device!, adapter: (gpu as { adapter: GPUAdapter }).adapter, name: "the test adapter", software: true },
      { pattern: spec, invocations: 16, batch: BATCH, windowBits: 8, corruptSelfCheck: flip, fallback: () => cpuSource({ spec }, 1) },
    );
    const notices: string[] = [];
    const found = await new Promise<Found>((resolve, reject) => {
      source.start({ ready() {}, attempts() {}, found: resolve, fail: reject, notice: (line) => notices.push(line) });
    });
    source.stop();
    expect(notices.join("\n")).toMatch(
      /GPU self-check failed, the GPU the test adapter is not used: known answer: invocation 0 .*\ngrinding on 1 CPU thread\(s\) instead/,
    );
    expect(source.kind).toBe("cpu");
    if (!("privateKey" in found)) throw new Error("a split-key result from a plain search");
    expect(verifiedRow(spec, found.address, found.privateKey).address).toBe(found.address);
  }, 120_000);

  it("reports the hits a full buffer dropped, not a silently shorter list", async () => {
    // one in 17.6 keys starts with '2' (case-sensitive): most of 64 invocations match among their 16 candidates
    const g = await grinder({ pattern: sol("2", "", true), maxHits: 2 });
    const r = await g.run(2);
    g.destroy();
    expect(r.hits).toHaveLength(2);
    expect(r.dropped).toBeGreaterThan(15);
  });
});

describeGpu("a kernel the GPU cannot build", () => {
  it("is a GpuKernelError for either network (the sweep reports and skips it, the grinder tries a smaller one), not a crash", async () => {
    // a workgroup above the adapter's limit fails like NVIDIA's "failed to validate local memory": at pipeline creation
    const workgroupSize = device!.limits.maxComputeInvocationsPerWorkgroup * 2;
    await expect(grinder({ pattern: sol("2"), invocations: 1, workgroupSize })).rejects.toThrow(GpuKernelError);
    await expect(GpuGrinder.create(device!, { pattern: { prefix: "a", suffix: "", caseSensitive: false }, invocations: 1, workgroupSize })).rejects.toThrow(
      GpuKernelError,
    );
    // and the device is still good for the configurations that build
    const g = await grinder({ pattern: sol("2"), invocations: 4 });
    expect((await g.run(1)).candidates).toBe(4 * BATCH);
    g.destroy();
  });
});

describeGpu("the short sweep at start (work size per card)", () => {
  // the configuration compiled in beforeAll (batch 8, 8-bit comb), so nothing is compiled again here
  const small = { windows: [8, 11], invocations: [16, 32], batch: BATCH, measureMs: 50 };

  it("measures each size, skips a window its time budget cannot pay for, and keeps the fastest", async () => {
    const lines: string[] = [];
    // a budget spent by the baseline alone: the 11-bit window is estimated and not started
    const r = await sweepSolanaWorkSize(device!, { ...small, budgetMs: 1, log: (line) => lines.push(line) });
    expect(lines).toEqual(r.lines);
    expect(lines[0]).toMatch(/^ {2}\s*16 invocations × batch 8 × 8-bit comb: \d+\.\d M keys\/s$/);
    expect(lines[1]).toMatch(/^ {2}\s*32 invocations × batch 8 × 8-bit comb: \d+\.\d M keys\/s$/);
    expect(lines[2]).toMatch(/^ {2}11-bit comb: skipped, about \d+\.\d s needed and 0\.0 s of the sweep's 0 s left$/);
    expect(lines[3]).toMatch(/^the sweep chose (16|32) invocations × batch 8 × 8-bit comb \(\d+\.\d M keys\/s\) in \d+\.\d s$/);
    expect(r.best.windowBits).toBe(8);
    expect([16, 32]).toContain(r.best.invocations);
    expect(r.rate).toBeGreaterThan(0);
  }, 120_000);

  it("sweeps once per device name for the process; a software adapter keeps its small default, unswept", async () => {
    const name = `sweep test ${Math.random()}`;
    const first = await solanaWorkSizeFor(device!, name, false, { ...small, windows: [8], budgetMs: 1 });
    const said: string[] = [];
    const again = await solanaWorkSizeFor(device!, name, false, { ...small, windows: [8], budgetMs: 1, log: (line) => said.push(line) });
    expect(again.sweep).toBe(first.sweep);
    expect(said).toEqual(first.sweep!.lines);
    expect(await solanaWorkSizeFor(device!, name, true)).toEqual({ size: { invocations: 128, batch: 8, windowBits: 8 }, sweep: null });
  }, 120_000);

  it("a source on a hardware GPU sweeps before it grinds, says so line by line, and grinds at the sweep's choice", async () => {
    const spec = sol("c");
    const source = solanaGpuSource(
      { device: device!, adapter: (gpu as { adapter: GPUAdapter }).adapter, name: `a GPU to sweep ${Math.random()}`, software: false },
      { pattern: spec, sweep: { ...small, windows: [8], budgetMs: 1 } },
    );
    expect(source.description).toMatch(/work size by a short sweep$/);
    const notices: string[] = [];
    const found = await new Promise<Found>((resolve, reject) => {
      source.start({ ready() {}, attempts() {}, found: resolve, fail: reject, notice: (line) => notices.push(line) });
    });
    source.stop();
    const said = notices.join("\n");
    expect(said).toMatch(
      /measuring work sizes for a GPU to sweep .* \(a short sweep, at most 0 s, once per run\):\n {2}\s*16 invocations × batch 8 × 8-bit comb: /,
    );
    expect(said).toMatch(/\nthe sweep chose (16|32) invocations × batch 8 × 8-bit comb /);
    expect(said).toMatch(/GPU self-check passed/);
    expect(source.kind).toBe("gpu");
    if (!("privateKey" in found)) throw new Error("a split-key result from a plain search");
    expect(verifiedRow(spec, found.address, found.privateKey).address).toBe(found.address);
  }, 120_000);

  it("refuses a comb wider than 16 bits, or narrower than 4, before compiling anything", async () => {
    await expect(grinder({ pattern: sol("2"), windowBits: 17 })).rejects.toThrow(/windowBits must be 4\.\.16/);
    await expect(grinder({ pattern: sol("2"), windowBits: 3 })).rejects.toThrow(/windowBits must be 4\.\.16/);
  });
});

describeGpu("entropy: the bases", () => {
  it("each dispatch draws every invocation's 32-byte base fresh from the CSPRNG, and nothing of them stays behind", async () => {
    const random = recording();
    const handed: Uint8Array[] = [];
    const watch: RandomSource = (bytes) => {
      random(bytes);
      handed.push(bytes);
    };
    const g = await grinder({ pattern: sol("", "zzzzzzzz", true), random: watch });
    await g.run(1);
    await g.run(1);
    // two dispatches and the next one's, drawn while the second ran: 64 bases each, all distinct
    const drawn = random.drawn.flatMap((b) => Array.from({ length: b.length / 32 }, (_, i) => Buffer.from(b.subarray(32 * i, 32 * i + 32)).toString("hex")));
    expect(drawn).toHaveLength(3 * INVOCATIONS);
    expect(new Set(drawn).size).toBe(drawn.length);
    // the GPU's buffer is cleared after each dispatch, and the host's copies are zeroed after theirs (the
    // drawn-ahead one when the grinder goes)
    expect((await g.readBaseBuffer()).every((w) => w === 0)).toBe(true);
    expect(handed.slice(0, 2).every((bytes) => bytes.every((b) => b === 0))).toBe(true);
    g.destroy();
    for (const bytes of handed) expect(bytes.every((b) => b === 0)).toBe(true);
  });

  it("a hit's seed is SHA-512(base || j), not the base: seeds of one base are unrelated to each other", () => {
    const base = new Uint8Array(32).fill(7);
    const seeds = [0, 1, 2].map((j) => Buffer.from(candidateSeed(base, j)).toString("hex"));
    expect(new Set(seeds).size).toBe(3);
    const message = new Uint8Array(40);
    message.set(base);
    message[39] = 2;
    expect(seeds[2]).toBe(Buffer.from(sha512(message).slice(0, 32)).toString("hex"));
  });
});

describe("Solana patterns as ranges and residues (no GPU needed)", () => {
  it.each([
    ["2", true],
    ["z", true],
    ["1", true],
    ["11", true],
    ["1A", true],
    ["a", false],
    ["SoL", false],
    ["abcd", false],
    ["BoNK", true],
  ])("the ranges of prefix %s hold exactly its share of keys (solanaPrefixProbability)", (prefix, caseSensitive) => {
    const ranges = prefixRanges(prefix, caseSensitive, 0);
    const share = Number(ranges.reduce((n, [lo, hi]) => n + hi - lo + 1n, 0n)) / 2 ** 256;
    const expected = solanaPrefixProbability(prefix, caseSensitive);
    expect(Math.abs(share - expected) / expected).toBeLessThan(1e-9);
    // sorted and disjoint
    ranges.forEach(([lo, hi], i) => {
      expect(lo <= hi).toBe(true);
      if (i > 0) expect(lo > ranges[i - 1][1] + 1n).toBe(true);
    });
  });

  it("a prefix of one letter is a range per address length and case: 43 and 44 characters", () => {
    // a 44-character address starts with digit 1..17 ('A' is 9, 'a' is 33 is too big); a 43-character one
    // with 3..57 (v from 2^248 up): so 'A' in both lengths, 'a' in 43 characters only
    const ranges = prefixRanges("a", false, 0);
    const ends = ranges.flatMap(([lo, hi]) => [lo, hi].map((v) => base58.encode(Uint8Array.from(Buffer.from(v.toString(16).padStart(64, "0"), "hex")))));
    expect(ends.map((a) => `${a[0]}${a.length}`)).toEqual(["A43", "A43", "a43", "a43", "A44", "A44"]);
  });

  it("without a prefix there is no range test, and a suffix is one digit mask per position from the end", () => {
    const p = solanaPatternParams({ prefix: "", suffix: "aZ", caseSensitive: false });
    expect(p.ranges).toBeNull();
    expect(p.suffixLength).toBe(2);
    // position 0 is the last character 'Z' (z, Z: digits 57 and 32); position 1 is 'a' (a, A: 33 and 9)
    expect([p.suffixMasks[0], p.suffixMasks[1]]).toEqual([0, (1 << (57 - 32)) | 1]);
    expect([p.suffixMasks[2], p.suffixMasks[3]]).toEqual([1 << 9, 1 << 1]);
  });

  it("refuses what the kernel cannot express", () => {
    expect(() => solanaPatternParams({ prefix: "0", suffix: "", caseSensitive: false })).toThrow(/base58/);
    expect(() => solanaPatternParams({ prefix: "l", suffix: "", caseSensitive: true })).toThrow(/base58/);
    expect(() => solanaPatternParams({ prefix: "2".repeat(30), suffix: "2".repeat(15), caseSensitive: true })).toThrow(/44/);
    expect(() => solanaPatternParams({ prefix: "abcdefghjkmn", suffix: "", caseSensitive: false })).toThrow(/case variants/);
    // ſ upper-cases to S: read as a variant of S it made the kernel find addresses the CPU check then refused
    expect(() => solanaPatternParams({ prefix: "ſo", suffix: "", caseSensitive: false })).toThrow(/"ſ" \(U\+017F\)/);
    expect(() => solanaPatternParams({ prefix: "", suffix: "\u212A", caseSensitive: false })).toThrow(/U\+212A/);
  });

  it("a comb's table must fit one storage buffer: 16 bits (48 MiB) in WebGPU's default 128 MiB, not in 32 MiB", () => {
    const limits = (mib: number) => ({ maxStorageBufferBindingSize: mib * 2 ** 20, maxBufferSize: 256 * 2 ** 20 });
    expect(combFits(16, limits(128))).toBe(true);
    expect(combFits(16, limits(48))).toBe(true);
    expect(combFits(16, limits(47))).toBe(false);
    expect(combFits(15, limits(32))).toBe(true);
    expect(combFits(16, { maxStorageBufferBindingSize: 2 ** 30, maxBufferSize: 32 * 2 ** 20 })).toBe(false);
  });

  it("a second hit record from one invocation is a kernel fault, never a second key", () => {
    const words = new Uint32Array([3, 5, 1, 0, 0, 7, 2, 0, 0, 5, 9, 0, 0]);
    expect(() => hitRecords(words, 4, 16, 8)).toThrow(/two hit records from invocation 5/);
    expect(hitRecords(words, 4, 2, 8).map((r) => r[0])).toEqual([5, 7]);
    expect(() => hitRecords(new Uint32Array([1, 8, 0, 0, 0]), 4, 16, 8)).toThrow(/invocation 8 of 8/);
  });
});
