// Prime fields in WGSL, which has no 64-bit integers and no high multiply: secp256k1's p = 2^256 - 2^32 - 977
// (the Ethereum kernel) and 2^255 - 19 (Ed25519, the Solana kernel), on one limb scheme.
//
// An element is 20 signed 13-bit limbs (`array<i32, 20>`, 260 bits, value = sum l_i * 2^(13 i)). A limb
// product is at most 2^26, so a schoolbook column of 20 products stays below 2^31 and needs no carry inside
// the multiply: 400 multiply-adds, then one carry pass and folds of the high part with 2^260 mod p, which is
// each field's own constant: 2^36 + 15632 for secp256k1 (three limbs: 7440, 1, 1024), 2^5 * 19 = 608 for
// 2^255 - 19 (one limb, so its reduction is shorter). Signed limbs let a subtraction be done limb by limb and
// fed straight into a multiply. The bounds the code relies on (checked by the kernel tests on limbs at the
// edges, for both fields):
//   tight      every limb in [-1, 8192]: what fe_mul, fe_sqr, fe_norm return; canonical values are tight
//   mul input  every limb in [-10000, 10000]: any tight value, or the limb-wise difference of two tight ones
//              (a sum of two tight values is not: fe_norm it first)
//   canonical  limbs in [0, 8191] and value in [0, p): what fe_canon returns, what is hashed and stored
// Straight-line code is generated here (the multiply is 400 lines) so the GPU compiler keeps every limb in
// a register; loops are kept only where one call site saves code (fe_sqr_n, fe_inv).

export const LIMBS = 20;
export const LIMB_BITS = 13;
const MASK = (1 << LIMB_BITS) - 1;
/** secp256k1: 2^260 mod p as limbs: 7440 + 1 * 2^13 + 1024 * 2^26 (= 15632 + 2^36). */
const FOLD = [7440, 1, 1024] as const;
/** 2^255 - 19: 2^260 = 2^5 * 2^255 = 2^5 * 19 (mod p). */
const ED_FOLD = 608;

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** One carry pass over limbs o0..o{n-1}; leaves the carry out of the top limb in `c`. */
function carryPass(names: string[], indent = "  "): string {
  const out = [`${indent}c = 0;`];
  for (const n of names) out.push(`${indent}v = ${n} + c; ${n} = v & ${MASK}; c = v >> 13u;`);
  return out.join("\n");
}

const limbNames = (p: string, n = LIMBS) => range(n).map((i) => `${p}${i}`);

function secpReduce(): string {
  // columns t0..t38 -> r0..r38 in [0, 8191] and r39 the (signed) carry
  const lines: string[] = [];
  lines.push(...columnsCarry());
  // fold 1: r20..r39 times 2^260 = (7440, 1, 1024) shifted by 0, 1, 2 limbs
  for (let i = 0; i < LIMBS; i++) {
    const terms = [`r${i}`, `${FOLD[0]} * r${20 + i}`];
    if (i >= 1) terms.push(`r${19 + i}`);
    if (i >= 2) terms.push(`${FOLD[2]} * r${18 + i}`);
    lines.push(`  var o${i} = ${terms.join(" + ")};`);
  }
  lines.push(`  let o20 = r39 + ${FOLD[2]} * r38;\n  let o21 = ${FOLD[2]} * r39;`);
  lines.push(carryPass(limbNames("o")));
  // what is left above 2^260, as three limbs h0 + h1 2^13 + h2 2^26 (h2 signed, |h2| < 2^12)
  lines.push("  var h0 = c + o20;\n  var h1 = o21 + (h0 >> 13u);\n  h0 = h0 & 8191;\n  let h2 = h1 >> 13u;\n  h1 = h1 & 8191;");
  lines.push(
    `  o0 += ${FOLD[0]} * h0;\n  o1 += h0 + ${FOLD[0]} * h1;\n  o2 += ${FOLD[2]} * h0 + h1 + ${FOLD[0]} * h2;\n  o3 += ${FOLD[2]} * h1 + h2;\n  o4 += ${FOLD[2]} * h2;`,
  );
  lines.push(carryPass(limbNames("o")));
  // c is now -1, 0 or 1: fold it and carry through limb 3 only (limb 3 ends in [-1, 8192]: tight)
  lines.push(`  o0 += ${FOLD[0]} * c;\n  o1 += c;\n  o2 += ${FOLD[2]} * c;`);
  lines.push("  v = o0; o0 = v & 8191; o1 += v >> 13u;\n  v = o1; o1 = v & 8191; o2 += v >> 13u;\n  v = o2; o2 = v & 8191; o3 += v >> 13u;");
  lines.push(`  return Fe(${limbNames("o").join(", ")});`);
  lines.push("}");
  return lines.join("\n");
}

function mul(): string {
  const cols = range(39).map((k) => {
    const terms: string[] = [];
    for (let i = Math.max(0, k - 19); i <= Math.min(19, k); i++) terms.push(`a[${i}] * b[${k - i}]`);
    return terms.join(" + ");
  });
  return `fn fe_mul(a: Fe, b: Fe) -> Fe {
  return fe_reduce(array<i32, 39>(
${cols.map((c) => `    ${c}`).join(",\n")}));
}`;
}

function sqr(): string {
  // off-diagonal products once, with one factor doubled: |2 a_i a_j| <= 2^27 and at most 10 per column
  const lines = ["fn fe_sqr(a: Fe) -> Fe {"];
  for (let i = 0; i < LIMBS; i++) lines.push(`  let d${i} = a[${i}] << 1u;`);
  const cols = range(39).map((k) => {
    const terms: string[] = [];
    for (let i = Math.max(0, k - 19); i <= Math.min(19, k); i++) {
      const j = k - i;
      if (i < j) terms.push(`d${i} * a[${j}]`);
      else if (i === j) terms.push(`a[${i}] * a[${i}]`);
    }
    return terms.join(" + ");
  });
  lines.push(`  return fe_reduce(array<i32, 39>(\n${cols.map((c) => `    ${c}`).join(",\n")}));`);
  lines.push("}");
  return lines.join("\n");
}

function secpCanon(): string {
  const o = limbNames("o");
  const lines = ["fn fe_canon(a: Fe) -> Fe {", "  var v: i32;\n  var c: i32;"];
  for (let i = 0; i < LIMBS; i++) lines.push(`  var o${i} = a[${i}];`);
  // three passes, each folding the carry out of 2^260: the value ends in [0, 2^260) (see fe_reduce's bounds)
  for (let pass = 0; pass < 3; pass++) {
    lines.push(carryPass(o));
    if (pass < 2) lines.push(`  o0 += ${FOLD[0]} * c;\n  o1 += c;\n  o2 += ${FOLD[2]} * c;`);
  }
  // bits 256..259 (limb 19 holds bits 247..259) fold with 2^256 = 2^32 + 977 (limb 2 holds bit 32 at shift 6)
  for (let pass = 0; pass < 2; pass++) {
    lines.push("  c = o19 >> 9u;\n  o19 = o19 & 511;\n  o0 += 977 * c;\n  o2 += c << 6u;");
    lines.push(carryPass(o));
  }
  // now 0 <= value < 2^256; subtract p when value + 2^32 + 977 reaches 2^256
  for (let i = 0; i < LIMBS; i++) lines.push(`  var w${i} = o${i};`);
  lines.push("  w0 += 977;\n  w2 += 64;");
  lines.push(carryPass(limbNames("w")));
  lines.push("  let ge = (w19 >> 9u) != 0;\n  w19 = w19 & 511;");
  lines.push(
    `  return Fe(${range(LIMBS)
      .map((i) => `select(o${i}, w${i}, ge)`)
      .join(", ")});`,
  );
  lines.push("}");
  return lines.join("\n");
}

function secpNorm(): string {
  // carry pass, fold the carry out of 2^260, carry through limb 3: tight, for sums of several values
  const o = limbNames("o");
  const lines = ["fn fe_norm(a: Fe) -> Fe {", "  var v: i32;\n  var c: i32;"];
  for (let i = 0; i < LIMBS; i++) lines.push(`  var o${i} = a[${i}];`);
  lines.push(carryPass(o));
  lines.push(`  o0 += ${FOLD[0]} * c;\n  o1 += c;\n  o2 += ${FOLD[2]} * c;`);
  lines.push(carryPass(o));
  lines.push(`  o0 += ${FOLD[0]} * c;\n  o1 += c;\n  o2 += ${FOLD[2]} * c;`);
  lines.push("  v = o0; o0 = v & 8191; o1 += v >> 13u;\n  v = o1; o1 = v & 8191; o2 += v >> 13u;\n  v = o2; o2 = v & 8191; o3 += v >> 13u;");
  lines.push(`  return Fe(${o.join(", ")});`);
  lines.push("}");
  return lines.join("\n");
}

function limbwise(name: string, op: string): string {
  return `fn ${name}(a: Fe, b: Fe) -> Fe {
  return Fe(${range(LIMBS)
    .map((i) => `a[${i}] ${op} b[${i}]`)
    .join(", ")});
}`;
}

/** Canonical limbs -> 8 little-endian 32-bit words (word 0 = least significant). */
function toWordsWgsl(): string {
  const words = range(8).map((w) => {
    const parts: string[] = [];
    for (let i = 0; i < LIMBS; i++) {
      const lo = i * LIMB_BITS;
      const hi = lo + LIMB_BITS;
      if (hi <= 32 * w || lo >= 32 * (w + 1)) continue;
      const shift = lo - 32 * w;
      parts.push(shift >= 0 ? `(u32(a[${i}]) << ${shift}u)` : `(u32(a[${i}]) >> ${-shift}u)`);
    }
    return parts.join(" | ");
  });
  return `fn fe_to_words(a: Fe) -> array<u32, 8> {
  return array<u32, 8>(
${words.map((w) => `    ${w}`).join(",\n")});
}`;
}

/** 8 little-endian 32-bit words (< 2^256) -> canonical limbs. */
function fromWordsWgsl(): string {
  const limbs = range(LIMBS).map((i) => {
    const lo = i * LIMB_BITS;
    const w = lo >> 5;
    const shift = lo & 31;
    let e = `(w[${w}] >> ${shift}u)`;
    if (shift + LIMB_BITS > 32 && w + 1 < 8) e = `(${e} | (w[${w + 1}] << ${32 - shift}u))`;
    return `i32(${e} & ${MASK}u)`;
  });
  return `fn fe_from_words(w: array<u32, 8>) -> Fe {
  return Fe(${limbs.join(", ")});
}`;
}

/** Columns t0..t38 of a product carried into r0..r38 in [0, 8191] and r39, the (signed) carry out. */
function columnsCarry(): string[] {
  const lines = ["fn fe_reduce(t: array<i32, 39>) -> Fe {", "  var v: i32;\n  var c: i32 = 0;"];
  for (let k = 0; k < 39; k++) lines.push(`  v = t[${k}] + c; let r${k} = v & ${MASK}; c = v >> 13u;`);
  lines.push("  let r39 = c;");
  return lines;
}

/**
 * 2^255 - 19: r20..r39 fold once with 608 (o_i = r_i + 608 r_(20+i): at most 8191 + 608 * 8191 below limb 19,
 * and |r39| stays near 2^13 for mul inputs within +-10000), one carry pass leaves a carry c with |c| < 1000
 * out of limb 19, and 608 c folded into limb 0 carries through limb 2 only: limbs 0, 1 end in [0, 8191],
 * limb 2 in [-1, 8192] (a carry of at most 70, then at most 1): tight.
 */
function edReduce(): string {
  const lines = columnsCarry();
  for (let i = 0; i < LIMBS; i++) lines.push(`  var o${i} = r${i} + ${ED_FOLD} * r${20 + i};`);
  lines.push(carryPass(limbNames("o")));
  lines.push(`  o0 += ${ED_FOLD} * c;`);
  lines.push("  v = o0; o0 = v & 8191; o1 += v >> 13u;\n  v = o1; o1 = v & 8191; o2 += v >> 13u;");
  lines.push(`  return Fe(${limbNames("o").join(", ")});`);
  lines.push("}");
  return lines.join("\n");
}

/** 2^255 - 19, any limbs within +-2^15: a carry pass, 608 c into limb 0 (|c| <= 5), a carry through limb 1: tight. */
function edNorm(): string {
  const o = limbNames("o");
  const lines = ["fn fe_norm(a: Fe) -> Fe {", "  var v: i32;\n  var c: i32;"];
  for (let i = 0; i < LIMBS; i++) lines.push(`  var o${i} = a[${i}];`);
  lines.push(carryPass(o));
  lines.push(`  o0 += ${ED_FOLD} * c;`);
  lines.push("  v = o0; o0 = v & 8191; o1 += v >> 13u;");
  lines.push(`  return Fe(${o.join(", ")});`);
  lines.push("}");
  return lines.join("\n");
}

/**
 * 2^255 - 19, any limbs within +-2^15, to the unique value in [0, p): three carry passes, the first two
 * followed by folding their carry out of 2^260 (608 c, |c| <= 4, then at most 1) into limb 0, leave [0, 2^260)
 * (a second carry of 1 or -1 leaves a value within 2432 of 0 or 2^260, which 608 cannot cross again);
 * bits 255..259 (limb 19 from bit 8) fold twice with 2^255 = 19; then p is subtracted when value + 19 reaches
 * 2^255.
 */
function edCanon(): string {
  const o = limbNames("o");
  const lines = ["fn fe_canon(a: Fe) -> Fe {", "  var v: i32;\n  var c: i32;"];
  for (let i = 0; i < LIMBS; i++) lines.push(`  var o${i} = a[${i}];`);
  for (let pass = 0; pass < 3; pass++) {
    lines.push(carryPass(o));
    if (pass < 2) lines.push(`  o0 += ${ED_FOLD} * c;`);
  }
  for (let pass = 0; pass < 2; pass++) {
    lines.push("  c = o19 >> 8u;\n  o19 = o19 & 255;\n  o0 += 19 * c;");
    lines.push(carryPass(o));
  }
  for (let i = 0; i < LIMBS; i++) lines.push(`  var w${i} = o${i};`);
  lines.push("  w0 += 19;");
  lines.push(carryPass(limbNames("w")));
  lines.push("  let ge = (w19 >> 8u) != 0;\n  w19 = w19 & 255;");
  lines.push(
    `  return Fe(${range(LIMBS)
      .map((i) => `select(o${i}, w${i}, ge)`)
      .join(", ")});`,
  );
  lines.push("}");
  return lines.join("\n");
}

/**
 * An addition chain for a^(p-2): each step is r = r^(2^n) * m, then maybe save r in a slot; m is a saved power
 * (slot 0 holds a) or, for slot `saved`, r as it was before the squarings. One loop runs the steps, so the
 * multiply and the square are each generated once.
 */
type InvChain = { saved: number; steps: [squarings: number, multiplier: number, save: number][] };

/** libsecp256k1's chain: 255 squarings, 15 multiplications. */
const SECP_INV: InvChain = {
  saved: 6,
  steps: [
    [1, 0, 1], // x2
    [1, 0, 2], // x3
    [3, 6, -1], // x6
    [3, 2, -1], // x9
    [2, 1, 3], // x11
    [11, 6, 4], // x22
    [22, 6, 5], // x44
    [44, 6, -1], // x88
    [88, 6, -1], // x176
    [44, 5, -1], // x220
    [3, 2, -1], // x223
    [23, 4, -1],
    [5, 0, -1],
    [3, 1, -1],
    [2, 0, -1],
  ],
};

/** 2^255 - 21 = (2^250 - 1) 2^5 + 0b01011: 254 squarings, 13 multiplications. */
const ED_INV: InvChain = {
  saved: 7,
  steps: [
    [1, 0, 1], // a^3
    [1, 0, -1], // a^7
    [1, 0, -1], // a^15
    [1, 0, 2], // a^(2^5 - 1)
    [5, 2, 3], // 2^10 - 1
    [10, 3, 4], // 2^20 - 1
    [20, 4, -1], // 2^40 - 1
    [10, 3, 5], // 2^50 - 1
    [50, 5, 6], // 2^100 - 1
    [100, 6, -1], // 2^200 - 1
    [50, 5, -1], // 2^250 - 1
    [2, 0, -1], // 2^252 - 3 (appends bits 01)
    [3, 1, -1], // 2^255 - 21 (appends bits 011)
  ],
};

function inv({ saved, steps }: InvChain): string {
  // the steps come from a switch, not a const array indexed at run time (which a compiler may copy into
  // every invocation's private memory)
  return `fn fe_inv_step(s: i32) -> vec3<i32> {
  switch s {
${steps.map(([n, m, v], i) => `    case ${i}: { return vec3<i32>(${n}, ${m}, ${v}); }`).join("\n")}
    default: { return vec3<i32>(0, 0, -1); }
  }
}

fn fe_sqr_n(a: Fe, n: i32) -> Fe {
  var r = a;
  for (var i = 0; i < n; i++) { r = fe_sqr(r); }
  return r;
}

fn fe_inv(a: Fe) -> Fe {
  var saved: array<Fe, ${saved}>;
  saved[0] = a;
  var r = a;
  for (var s = 0; s < ${steps.length}; s++) {
    let step = fe_inv_step(s);
    let before = r;
    r = fe_sqr_n(r, step.x);
    var m = before;
    if (step.y < ${saved}) { m = saved[step.y]; }
    r = fe_mul(r, m);
    if (step.z >= 0) { saved[step.z] = r; }
  }
  return r;
}`;
}

export type FieldSpec = {
  name: string;
  p: bigint;
  reduce: () => string;
  norm: () => string;
  canon: () => string;
  inv: InvChain;
};

export const SECP256K1_FIELD: FieldSpec = {
  name: "secp256k1",
  p: 2n ** 256n - 2n ** 32n - 977n,
  reduce: secpReduce,
  norm: secpNorm,
  canon: secpCanon,
  inv: SECP_INV,
};
export const ED25519_FIELD: FieldSpec = { name: "2^255 - 19", p: 2n ** 255n - 19n, reduce: edReduce, norm: edNorm, canon: edCanon, inv: ED_INV };

/** A field's WGSL: alias Fe, fe_mul, fe_sqr, fe_sqr_n, fe_inv, fe_add, fe_sub, fe_norm, fe_canon, words. */
export function fieldWgsl(field: FieldSpec = SECP256K1_FIELD): string {
  return [
    `// the field mod ${field.name}, generated by gpu/field.wgsl.ts`,
    `alias Fe = array<i32, ${LIMBS}>;`,
    field.reduce(),
    mul(),
    sqr(),
    limbwise("fe_add", "+"),
    limbwise("fe_sub", "-"),
    field.norm(),
    field.canon(),
    `fn fe_is_zero(a: Fe) -> bool {
  return (${range(LIMBS)
    .map((i) => `a[${i}]`)
    .join(" | ")}) == 0;
}`,
    toWordsWgsl(),
    fromWordsWgsl(),
    inv(field.inv),
  ].join("\n\n");
}

// Host side of the same representation.

/** secp256k1's p (the Ethereum kernel's field). */
export const FIELD_P = SECP256K1_FIELD.p;

/** bigint in [0, 2^260) -> 20 limbs (canonical when < p). */
export function toLimbs(x: bigint, out: Int32Array = new Int32Array(LIMBS), offset = 0): Int32Array {
  for (let i = 0; i < LIMBS; i++) out[offset + i] = Number((x >> BigInt(LIMB_BITS * i)) & BigInt(MASK));
  return out;
}

/** Signed limbs -> bigint (any limbs, not reduced mod p). */
export function fromLimbs(limbs: ArrayLike<number>, offset = 0): bigint {
  let x = 0n;
  for (let i = LIMBS - 1; i >= 0; i--) x = (x << BigInt(LIMB_BITS)) + BigInt(limbs[offset + i]);
  return x;
}

/** bigint in [0, 2^256) -> 8 little-endian 32-bit words. */
export function toWords(x: bigint, out: Uint32Array = new Uint32Array(8), offset = 0): Uint32Array {
  for (let i = 0; i < 8; i++) out[offset + i] = Number((x >> BigInt(32 * i)) & 0xffffffffn);
  return out;
}
