// keccak-f[1600] in WGSL on 32-bit words: each 64-bit lane is a (lo, hi) pair of u32 (word 2i = low half of
// lane i, as the bytes lie in memory), rotations are two funnel shifts per lane ((a << n) | (b >> (32 - n)),
// which GPU compilers turn into one shift-funnel instruction each). The 50 words live in named locals so
// the compiler keeps them in registers; the 24 rounds are a loop over a generated round body. The round
// constants come from the including module's `keccak_rc(round)`, which reads them from a uniform buffer: a
// `const` array indexed at run time may be copied into every invocation's private memory.
//
// Every message the grinder hashes fits one 136-byte block (the 64-byte public key x || y, or the 40 ASCII
// hex characters of an address for its EIP-55 checksum), so the sponge is one permutation of the padded
// block. The last round computes only the first row of lanes (bytes 0..39), all that either use reads: the
// address is bytes 12..31, the checksum bytes 0..19.

/** Rotation offsets, RHO[x][y] for lane (x, y) (also used by the CPU grinder's generator, scripts/grind/codegen.ts). */
export const RHO: readonly (readonly number[])[] = [
  [0, 36, 3, 41, 18],
  [1, 44, 10, 45, 2],
  [62, 6, 43, 15, 61],
  [28, 55, 25, 21, 56],
  [27, 20, 39, 8, 14],
];

function roundConstants(): bigint[] {
  // the LFSR of the Keccak reference: rc(t) = x^t mod x^8 + x^6 + x^5 + x^4 + 1
  const out: bigint[] = [];
  let r = 1;
  const bit = () => {
    const b = r & 1;
    r = r & 0x80 ? ((r << 1) ^ 0x171) & 0xff : (r << 1) & 0xff;
    return b;
  };
  for (let round = 0; round < 24; round++) {
    let rc = 0n;
    for (let j = 0; j < 7; j++) if (bit()) rc |= 1n << BigInt((1 << j) - 1);
    out.push(rc);
  }
  return out;
}

const lane = (x: number, y: number) => (x % 5) + 5 * (y % 5);
const hex = (n: number) => `0x${(n >>> 0).toString(16)}u`;

/** [lo, hi] expressions of lane `v` (as "name" meaning nameL/nameH) rotated left by n. */
function rotl(lo: string, hi: string, n: number): [string, string] {
  if (n === 0) return [lo, hi];
  if (n === 32) return [hi, lo];
  if (n < 32) return [`((${lo} << ${n}u) | (${hi} >> ${32 - n}u))`, `((${hi} << ${n}u) | (${lo} >> ${32 - n}u))`];
  const m = n - 32;
  return [`((${hi} << ${m}u) | (${lo} >> ${32 - m}u))`, `((${lo} << ${m}u) | (${hi} >> ${32 - m}u))`];
}

/** theta, rho and pi into b<lane>L/H lets (only the lanes in `wanted`, by their position after pi). */
function thetaRhoPi(wanted: (l: number) => boolean): string[] {
  const lines: string[] = [];
  for (let x = 0; x < 5; x++) {
    for (const h of ["L", "H"] as const) {
      const w = h === "L" ? 0 : 1;
      lines.push(`    let c${x}${h} = ${[0, 1, 2, 3, 4].map((y) => `a${2 * lane(x, y) + w}`).join(" ^ ")};`);
    }
  }
  for (let x = 0; x < 5; x++) {
    const [rl, rh] = rotl(`c${(x + 1) % 5}L`, `c${(x + 1) % 5}H`, 1);
    lines.push(`    let d${x}L = c${(x + 4) % 5}L ^ ${rl};`);
    lines.push(`    let d${x}H = c${(x + 4) % 5}H ^ ${rh};`);
  }
  for (let x = 0; x < 5; x++) {
    for (let y = 0; y < 5; y++) {
      const to = lane(y, 2 * x + 3 * y);
      if (!wanted(to)) continue;
      const i = lane(x, y);
      const [rl, rh] = rotl(`(a${2 * i} ^ d${x}L)`, `(a${2 * i + 1} ^ d${x}H)`, RHO[x][y]);
      lines.push(`    let b${to}L = ${rl};`);
      lines.push(`    let b${to}H = ${rh};`);
    }
  }
  return lines;
}

function chi(l: number, h: "L" | "H"): string {
  const x = l % 5;
  const y = Math.floor(l / 5);
  return `b${l}${h} ^ (~b${lane(x + 1, y)}${h} & b${lane(x + 2, y)}${h})`;
}

/** keccak_f(state) -> lanes 0..4 of the permuted state (output bytes 0..39) as 10 words. */
export function keccakWgsl(): string {
  const rc = KECCAK_ROUND_CONSTANTS;
  const rcWords = rc.flatMap((c) => [hex(Number(c & 0xffffffffn)), hex(Number(c >> 32n))]);
  const lines: string[] = [];
  lines.push("fn keccak_f(s: array<u32, 50>) -> array<u32, 10> {");
  for (let i = 0; i < 50; i++) lines.push(`  var a${i} = s[${i}];`);
  lines.push("  for (var round = 0u; round < 23u; round++) {");
  lines.push(...thetaRhoPi(() => true));
  for (let l = 0; l < 25; l++) {
    lines.push(`    a${2 * l} = ${chi(l, "L")};`);
    lines.push(`    a${2 * l + 1} = ${chi(l, "H")};`);
  }
  lines.push("    let rc = keccak_rc(round);\n    a0 ^= rc.x;\n    a1 ^= rc.y;");
  lines.push("  }");
  // round 24: only row 0 (lanes 0..4) is read afterwards
  lines.push("  {");
  lines.push(...thetaRhoPi((to) => to < 5));
  const out: string[] = [];
  for (let l = 0; l < 5; l++) {
    for (const h of ["L", "H"] as const) {
      let e = chi(l, h);
      if (l === 0) e = `(${e}) ^ ${rcWords[46 + (h === "L" ? 0 : 1)]}`;
      out.push(e);
    }
  }
  lines.push(`    return array<u32, 10>(\n${out.map((e) => `      ${e}`).join(",\n")});`);
  lines.push("  }");
  lines.push("}");
  return lines.join("\n");
}

/** The 24 round constants (FIPS 202's rc LFSR). */
export const KECCAK_ROUND_CONSTANTS: readonly bigint[] = roundConstants();

/** The round constants as the uniform array `keccak_rc` reads: 12 vec4 of (lo, hi, lo, hi), two rounds each. */
export function keccakConstantWords(): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(48);
  KECCAK_ROUND_CONSTANTS.forEach((c, i) => {
    out[2 * i] = Number(c & 0xffffffffn);
    out[2 * i + 1] = Number(c >> 32n);
  });
  return out;
}

/** WGSL for `keccak_rc(round) -> vec2<u32>` (lo, hi) reading `uniformArray` (12 vec4, keccakConstantWords). */
export function keccakRcWgsl(uniformArray: string): string {
  return `fn keccak_rc(round: u32) -> vec2<u32> {
  let q = ${uniformArray}[round >> 1u];
  return select(q.xy, q.zw, (round & 1u) == 1u);
}`;
}
