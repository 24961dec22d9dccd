// SHA-512 in WGSL on 32-bit words: each 64-bit word is a (hi, lo) pair of u32 in named locals (registers);
// a 64-bit addition is two 32-bit ones and a carry, a rotation two funnel shifts per half. The Solana kernel
// hashes single blocks only (a 40-byte seed derivation message and a 32-byte seed), so this is the
// compression of one padded block from the standard initial value.
//
// The 80 rounds are a loop of five iterations over 16 generated rounds: the message schedule's 16 words and
// the eight state words keep fixed names (after 16 rounds the state names are back where they started), so
// nothing is indexed at run time except the round constants, which the including module supplies through
// `sha512_k(round)` from a uniform buffer (a `const` array indexed at run time may be copied into every
// invocation's private memory).

function roundConstants(): bigint[] {
  // the first 64 bits of the fractional parts of the cube roots of the first 80 primes (FIPS 180-4, 4.2.3)
  const primes: number[] = [];
  for (let n = 2; primes.length < 80; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
  return primes.map((p) => {
    // floor(cbrt(p) * 2^64) mod 2^64, by integer cube root of p * 2^192
    const target = BigInt(p) << 192n;
    let lo = 0n;
    let hi = 1n << 70n;
    while (hi - lo > 1n) {
      const mid = (lo + hi) >> 1n;
      if (mid * mid * mid <= target) lo = mid;
      else hi = mid;
    }
    return lo & ((1n << 64n) - 1n);
  });
}

function initialValue(): bigint[] {
  // the first 64 bits of the fractional parts of the square roots of the first 8 primes (FIPS 180-4, 5.3.5)
  return [2, 3, 5, 7, 11, 13, 17, 19].map((p) => {
    const target = BigInt(p) << 128n;
    let lo = 0n;
    let hi = 1n << 70n;
    while (hi - lo > 1n) {
      const mid = (lo + hi) >> 1n;
      if (mid * mid <= target) lo = mid;
      else hi = mid;
    }
    return lo & ((1n << 64n) - 1n);
  });
}

/** SHA-512's 80 round constants. */
export const SHA512_K: readonly bigint[] = roundConstants();
const IV = initialValue();

/** The round constants as the uniform array the kernel reads: 40 vec4 of (hi, lo, hi, lo), two rounds each. */
export function sha512ConstantWords(): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(160);
  SHA512_K.forEach((k, i) => {
    out[2 * i] = Number(k >> 32n);
    out[2 * i + 1] = Number(k & 0xffffffffn);
  });
  return out;
}

const hex = (n: bigint) => `0x${n.toString(16)}u`;

type W64 = [hi: string, lo: string];

/** Right rotation of a (hi, lo) pair by n (0 < n < 64). */
function rotr([h, l]: W64, n: number): W64 {
  if (n === 32) return [l, h];
  if (n > 32) return rotr([l, h], n - 32);
  return [`((${h} >> ${n}u) | (${l} << ${32 - n}u))`, `((${l} >> ${n}u) | (${h} << ${32 - n}u))`];
}

function shr([h, l]: W64, n: number): W64 {
  return [`(${h} >> ${n}u)`, `((${l} >> ${n}u) | (${h} << ${32 - n}u))`];
}

const xor3 = (a: W64, b: W64, c: W64): W64 => [`(${a[0]} ^ ${b[0]} ^ ${c[0]})`, `(${a[1]} ^ ${b[1]} ^ ${c[1]})`];

/** Lines that set `dst` (a declared pair dstH/dstL) to the 64-bit sum of the terms. */
function add64(dst: string, terms: W64[], declare: boolean): string[] {
  const kw = declare ? "var " : "";
  const lines = [`${kw}${dst}L = ${terms[0][1]};`, `${kw}${dst}H = ${terms[0][0]};`];
  for (const [h, l] of terms.slice(1)) {
    lines.push(`{ let s = ${dst}L + ${l}; ${dst}H = ${dst}H + ${h} + select(0u, 1u, s < ${dst}L); ${dst}L = s; }`);
  }
  return lines;
}

const pair = (name: string): W64 => [`${name}H`, `${name}L`];

/** sha512(m) -> the digest as 16 words (hi, lo of H0..H7); m is one padded block as 32 words (hi, lo of W0..W15). */
export function sha512Wgsl(): string {
  const lines: string[] = [];
  lines.push("fn sha512(m: array<u32, 32>) -> array<u32, 16> {");
  for (let i = 0; i < 16; i++) lines.push(`  var w${i}H = m[${2 * i}];`, `  var w${i}L = m[${2 * i + 1}];`);
  const names = ["a", "b", "c", "d", "e", "f", "g", "h"];
  IV.forEach((v, i) => lines.push(`  var ${names[i]}H = ${hex(v >> 32n)};`, `  var ${names[i]}L = ${hex(v & 0xffffffffn)};`));
  lines.push("  for (var it = 0u; it < 5u; it++) {");
  // the schedule for rounds 16 it .. 16 it + 15 (W_t = s1(W_t-2) + W_t-7 + s0(W_t-15) + W_t-16, indices mod 16)
  lines.push("    if (it > 0u) {");
  for (let j = 0; j < 16; j++) {
    const w = (k: number) => pair(`w${(j + k + 16) % 16}`);
    const s1 = xor3(rotr(w(-2), 19), rotr(w(-2), 61), shr(w(-2), 6));
    const s0 = xor3(rotr(w(-15), 1), rotr(w(-15), 8), shr(w(-15), 7));
    lines.push("      {");
    lines.push(...add64("n", [pair(`w${j}`), s1, w(-7), s0], true).map((l) => `        ${l}`));
    lines.push(`        w${j}H = nH;`, `        w${j}L = nL;`);
    lines.push("      }");
  }
  lines.push("    }");
  for (let j = 0; j < 16; j++) {
    // the state names rotate by one per round: round j's a is names[(8 - j % 8) % 8]
    const at = (k: number) => names[(k - (j % 8) + 8) % 8];
    const [a, b, c, d, e, f, g, h] = [0, 1, 2, 3, 4, 5, 6, 7].map(at);
    lines.push("    {");
    lines.push(`      let k = sha512_k(16u * it + ${j}u);`);
    const E = pair(e);
    const S1 = xor3(rotr(E, 14), rotr(E, 18), rotr(E, 41));
    const ch: W64 = [`((${e}H & ${f}H) ^ (~${e}H & ${g}H))`, `((${e}L & ${f}L) ^ (~${e}L & ${g}L))`];
    lines.push(...add64("t1", [pair(h), S1, ch, ["k.x", "k.y"], pair(`w${j}`)], true).map((l) => `      ${l}`));
    const A = pair(a);
    const S0 = xor3(rotr(A, 28), rotr(A, 34), rotr(A, 39));
    const maj: W64 = [`((${a}H & ${b}H) ^ (${a}H & ${c}H) ^ (${b}H & ${c}H))`, `((${a}L & ${b}L) ^ (${a}L & ${c}L) ^ (${b}L & ${c}L))`];
    lines.push(...add64("t2", [S0, maj], true).map((l) => `      ${l}`));
    // d += t1 becomes the new e; h = t1 + t2 becomes the new a (names rotate instead of values moving)
    lines.push(...add64(d, [pair(d), ["t1H", "t1L"]], false).map((l) => `      ${l}`));
    lines.push(
      ...add64(
        h,
        [
          ["t1H", "t1L"],
          ["t2H", "t2L"],
        ],
        false,
      ).map((l) => `      ${l}`),
    );
    lines.push("    }");
  }
  lines.push("  }");
  const out: string[] = [];
  IV.forEach((v, i) => {
    const n = names[i];
    const lo = `(${n}L + ${hex(v & 0xffffffffn)})`;
    out.push(`${n}H + ${hex(v >> 32n)} + select(0u, 1u, ${lo} < ${n}L)`, lo);
  });
  lines.push(`  return array<u32, 16>(\n${out.map((e) => `    ${e}`).join(",\n")});`);
  lines.push("}");
  return lines.join("\n");
}
