// The Solana kernel's entry point, `grind` (gpu/solana.wgsl.ts has the functions it calls): per invocation, batches
// of candidates, each batch's Z inverted at once (Montgomery's trick), each key traced or matched. Two forms:
// one inversion per invocation and batch, or one per workgroup and batch (sharedInversion).

/** What one candidate of a batch does once its 1/Z is known: its key, then the trace or the pattern test. */
const FINISH_CANDIDATE = /* wgsl */ `
      let key = compress(px[j], py[j], zinv);
      let n = b * BATCH + j;
      if (params.trace != 0u) {
        let o = ((t * params.batches + b) * BATCH + j) * 8u;
        for (var w = 0u; w < 8u; w++) { trace_out[o + w] = key[w]; }
      } else if (key_matches(key)) {
        report(t, n, key);
        FOUND
      }`;

/** The batch: X, Y, Z of each candidate and the prefix products of the Z (Montgomery's trick). */
const BATCH_POINTS = /* wgsl */ `
    for (var j = 0u; j < BATCH; j++) {
      let p = scalar_mult(candidate(base, b * BATCH + j).scalar);
      px[j] = p.x;
      py[j] = p.y;
      pz[j] = p.z;
      if (j == 0u) {
        acc[0] = p.z;
      } else {
        acc[j] = fe_mul(acc[j - 1u], p.z);
      }
    }`;

/** The backward pass from inv = 1/acc[BATCH - 1]: each 1/Z_j, then the candidate (FOUND: what a match does). */
const backwardPass = (found: string) => /* wgsl */ `
    for (var k = 0u; k < BATCH; k++) {
      let j = BATCH - 1u - k;
      // 1/Z_j = inv · acc[j - 1]; then inv becomes 1/acc[j - 1] = inv · Z_j
      var zinv = inv;
      if (j > 0u) {
        for (var step = 0u; step < 2u; step++) {
          var m = pz[j];
          if (step == 0u) { m = acc[j - 1u]; }
          let r = fe_mul(inv, m);
          if (step == 0u) { zinv = r; } else { inv = r; }
        }
      }${FINISH_CANDIDATE.replace("FOUND", found)}
    }`;

/** Each invocation inverts its own batch's product. */
function ownGrind(workgroupSize: number, batch: number): string {
  return /* wgsl */ `@compute @workgroup_size(${workgroupSize})
fn grind(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  if (t >= params.threads) { return; }
  var base: array<u32, 8>;
  // the host uploads the base's bytes as drawn; SHA-512 reads them as big-endian words
  for (var k = 0u; k < 8u; k++) { base[k] = bswap(bases[t * 8u + k]); }
  // per candidate of a batch: X, Y, Z, and the prefix products of the Z
  var px: array<Fe, ${batch}>;
  var py: array<Fe, ${batch}>;
  var pz: array<Fe, ${batch}>;
  var acc: array<Fe, ${batch}>;
  for (var b = 0u; b < params.batches; b++) {${BATCH_POINTS}
    // acc[BATCH - 1] is never 0: Z stays non-zero under the complete addition law
    var inv = fe_inv(acc[BATCH - 1u]);${backwardPass("return;")}
  }
}`;
}

/**
 * One inversion per workgroup and batch. Every invocation of the workgroup takes part in every barrier, so
 * none returns early: one past the last (t >= threads) or one that has found its match takes part with the
 * product 1. The products' prefix and suffix products are scanned in workgroup memory (log2(size) steps of
 * one multiplication each), the first invocation inverts the total, and invocation i's inverse is
 * total^-1 · prefix(i - 1) · suffix(i + 1).
 */
function sharedGrind(workgroupSize: number, batch: number): string {
  return /* wgsl */ `const WG = ${workgroupSize}u;
var<workgroup> wg_prefix: array<Fe, WG>;
var<workgroup> wg_suffix: array<Fe, WG>;
var<workgroup> wg_total_inv: Fe;

/** 1/v for each invocation's v, with one inversion for the workgroup (v is never 0). Every invocation must call it. */
fn workgroup_inverse(v: Fe, lid: u32) -> Fe {
  wg_prefix[lid] = v;
  wg_suffix[lid] = v;
  workgroupBarrier();
  for (var off = 1u; off < WG; off <<= 1u) {
    var p = wg_prefix[lid];
    var q = wg_suffix[lid];
    // one multiplication call site for both scans
    for (var side = 0u; side < 2u; side++) {
      let other = select(lid - off, lid + off, side == 1u);
      let has = select(lid >= off, lid + off < WG, side == 1u);
      if (has) {
        var x = p;
        var y = wg_prefix[min(other, WG - 1u)];
        if (side == 1u) { x = q; y = wg_suffix[min(other, WG - 1u)]; }
        let r = fe_mul(x, y);
        if (side == 0u) { p = r; } else { q = r; }
      }
    }
    workgroupBarrier();
    wg_prefix[lid] = p;
    wg_suffix[lid] = q;
    workgroupBarrier();
  }
  if (lid == 0u) { wg_total_inv = fe_inv(wg_prefix[WG - 1u]); }
  workgroupBarrier();
  var r = wg_total_inv;
  for (var side = 0u; side < 2u; side++) {
    let has = select(lid > 0u, lid + 1u < WG, side == 1u);
    if (has) {
      var y = wg_prefix[max(lid, 1u) - 1u];
      if (side == 1u) { y = wg_suffix[min(lid + 1u, WG - 1u)]; }
      r = fe_mul(r, y);
    }
  }
  // before the next batch writes the scans again
  workgroupBarrier();
  return r;
}

@compute @workgroup_size(${workgroupSize})
fn grind(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let t = gid.x;
  // no early return: every invocation takes part in the workgroup's inversion
  var live = t < params.threads;
  var base: array<u32, 8>;
  if (live) {
    // the host uploads the base's bytes as drawn; SHA-512 reads them as big-endian words
    for (var k = 0u; k < 8u; k++) { base[k] = bswap(bases[t * 8u + k]); }
  }
  var px: array<Fe, ${batch}>;
  var py: array<Fe, ${batch}>;
  var pz: array<Fe, ${batch}>;
  var acc: array<Fe, ${batch}>;
  for (var b = 0u; b < params.batches; b++) {
    var product = FE_ONE;
    if (live) {${BATCH_POINTS}
      product = acc[BATCH - 1u];
    }
    // product is never 0 (Z stays non-zero under the complete addition law; 1 for an idle invocation)
    var inv = workgroup_inverse(product, lid);
    if (live) {
      var found = false;
      for (var k = 0u; k < BATCH; k++) {
        if (found) { continue; }
        let j = BATCH - 1u - k;
        var zinv = inv;
        if (j > 0u) {
          for (var step = 0u; step < 2u; step++) {
            var m = pz[j];
            if (step == 0u) { m = acc[j - 1u]; }
            let r = fe_mul(inv, m);
            if (step == 0u) { zinv = r; } else { inv = r; }
          }
        }${FINISH_CANDIDATE.replace("FOUND", "found = true;")}
      }
      // this dispatch is over for an invocation that found its match: one reported key per base
      live = !found;
    }
  }
}`;
}

/** The `grind` entry point for a workgroup size, with one inversion per invocation or per workgroup. */
export function grindEntry(workgroupSize: number, batch: number, sharedInversion: boolean): string {
  return sharedInversion ? sharedGrind(workgroupSize, batch) : ownGrind(workgroupSize, batch);
}
