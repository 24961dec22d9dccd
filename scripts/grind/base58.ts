// Allocation-free base58 of a 32-byte value into digit indices (0..57), most significant first,
// exactly as base58 text would read ('1' = digit 0 for each leading zero byte).

const CHUNK = 58 ** 5; // 656356768 < 2^30: one remainder per pass gives five digits

/**
 * Writes the base58 digits of bytes[0..32) into out (capacity >= 45) and returns the count.
 * `limbs` is scratch space of 16 entries.
 */
export function base58Digits32(bytes: Uint8Array, out: Uint8Array, limbs: Float64Array): number {
  let zeros = 0;
  while (zeros < 32 && bytes[zeros] === 0) zeros++;
  // 16-bit big-endian limbs: r * 2^16 + limb < 2^46, exact in float64
  for (let i = 0; i < 16; i++) limbs[i] = bytes[2 * i] * 256 + bytes[2 * i + 1];
  let start = zeros >> 1;
  // digits are produced least significant first into the tail of out, then moved
  let n = 0;
  const tmp = out;
  const cap = 45;
  while (start < 16) {
    let r = 0;
    for (let i = start; i < 16; i++) {
      const cur = r * 65536 + limbs[i];
      const q = Math.floor(cur / CHUNK);
      r = cur - q * CHUNK;
      limbs[i] = q;
    }
    while (start < 16 && limbs[start] === 0) start++;
    for (let d = 0; d < 5; d++) {
      const q = Math.floor(r / 58);
      tmp[cap - 1 - n] = r - q * 58;
      r = q;
      n++;
    }
  }
  // drop leading zero digits of the number itself, then prepend one '1' per zero byte
  let first = cap - n;
  while (first < cap && tmp[first] === 0) first++;
  const len = zeros + (cap - first);
  out.copyWithin(zeros, first, cap);
  out.fill(0, 0, zeros);
  return len;
}
