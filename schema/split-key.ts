// Split-key arithmetic for custom orders. The buyer keeps a secret a and publishes A = a·G; the
// grinder searches offsets k until the address of A + k·G matches the pattern; the final key a + k mod n is
// known to the buyer alone. The same functions run in the Worker (checking a submitted k), in the grinder
// (checking before it submits) and in the browser (computing the final key), so all three agree by
// construction.
//
// The grinder checks six addresses per point for almost nothing (scripts/grind/ethereum.ts): P, -P and the
// secp256k1 endomorphism images λ·P = (β·x, y), λ²·P and their negations. A match on one of them is still a
// split key: the point is f·(A + k·G) = f·(a + k)·G for the variant's factor f, so the buyer's final key is
// f·(a + k) mod n. A result is therefore (k, variant), and the variant travels with k to the buyer.
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex } from "@noble/hashes/utils.js";

const Point = secp256k1.Point;
/** The order n of secp256k1's group: keys and offsets live in [1, n-1]. */
export const CURVE_ORDER = Point.Fn.ORDER;
/** λ with λ·(x, y) = (β·x, y): the curve's endomorphism; λ³ = 1 mod n. */
export const LAMBDA = 0x5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd72n;
const LAMBDA2 = (LAMBDA * LAMBDA) % CURVE_ORDER;

/**
 * The six points the grinder tests per candidate, in the order its searcher numbers them, with the factor
 * that maps a key of A + k·G to the key of the matching point.
 */
export const SPLIT_KEY_VARIANTS = [
  { id: 0, name: "P", factor: 1n },
  { id: 1, name: "-P", factor: CURVE_ORDER - 1n },
  { id: 2, name: "λP", factor: LAMBDA },
  { id: 3, name: "-λP", factor: CURVE_ORDER - LAMBDA },
  { id: 4, name: "λ²P", factor: LAMBDA2 },
  { id: 5, name: "-λ²P", factor: CURVE_ORDER - LAMBDA2 },
] as const;
export type SplitKeyVariant = (typeof SPLIT_KEY_VARIANTS)[number]["id"];
export const VARIANT_IDS = SPLIT_KEY_VARIANTS.map((v) => v.id) as SplitKeyVariant[];

export class SplitKeyError extends Error {
  override name = "SplitKeyError";
}

const mod = (x: bigint) => ((x % CURVE_ORDER) + CURVE_ORDER) % CURVE_ORDER;
const strip0x = (hex: string) => (/^0[xX]/.test(hex) ? hex.slice(2) : hex);

function factorOf(variant: number): bigint {
  const v = SPLIT_KEY_VARIANTS.find((x) => x.id === variant);
  if (!v) throw new SplitKeyError(`variant must be one of ${VARIANT_IDS.join(", ")}`);
  return v.factor;
}

/** A scalar in [1, n-1] from 0x-hex (64 digits); anything else throws SplitKeyError. */
export function parseScalar(hex: string, what = "scalar"): bigint {
  const body = strip0x(hex);
  if (!/^[0-9a-fA-F]{64}$/.test(body)) throw new SplitKeyError(`${what} must be 64 hexadecimal digits`);
  const s = BigInt("0x" + body);
  if (s === 0n || s >= CURVE_ORDER) throw new SplitKeyError(`${what} must be between 1 and n-1`);
  return s;
}

export const scalarToHex = (s: bigint) => "0x" + s.toString(16).padStart(64, "0");

/** A public key as 0x + 66 hex (SEC1 compressed), checked to be a point on the curve (not infinity). */
export function parsePublicKey(hex: string): InstanceType<typeof Point> {
  const body = strip0x(hex);
  if (!/^0[23][0-9a-fA-F]{64}$/.test(body)) throw new SplitKeyError("publicKey must be a compressed secp256k1 point: 0x02 or 0x03 and 64 hex digits");
  try {
    const p = Point.fromHex(body.toLowerCase());
    p.assertValidity();
    return p;
  } catch {
    throw new SplitKeyError("publicKey is not a point on secp256k1");
  }
}

/** The buyer's A = a·G, compressed, as stored with the order. */
export function publicKeyOf(secret: bigint): string {
  return "0x" + Point.BASE.multiply(secret).toHex(true);
}

/** EIP-55 checksummed address of a point. */
export function addressOfPoint(p: InstanceType<typeof Point>): string {
  const lower = bytesToHex(keccak_256(p.toBytes(false).subarray(1)).subarray(12));
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = "0x";
  for (let i = 0; i < 40; i++) out += ((hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 15) >= 8 ? lower[i].toUpperCase() : lower[i];
  return out;
}

/**
 * The point a result (k, variant) names for the order's A: f·(A + k·G). The server recomputes it to
 * check a submitted k; it never needs a.
 */
export function orderPoint(publicKeyHex: string, offset: bigint, variant: number): InstanceType<typeof Point> {
  if (offset <= 0n || offset >= CURVE_ORDER) throw new SplitKeyError("offset must be between 1 and n-1");
  const sum = parsePublicKey(publicKeyHex).add(Point.BASE.multiply(offset));
  if (sum.equals(Point.ZERO)) throw new SplitKeyError("A + k·G is the point at infinity");
  return sum.multiply(factorOf(variant));
}

/** The address a result (k, variant) gives the order with public key A. */
export function orderAddress(publicKeyHex: string, offset: bigint, variant: number): string {
  return addressOfPoint(orderPoint(publicKeyHex, offset, variant));
}

/** The buyer's final private key f·(a + k) mod n, as 0x + 64 hex. Runs only in the buyer's browser. */
export function finalPrivateKey(secret: bigint, offset: bigint, variant: number): string {
  const key = mod(factorOf(variant) * mod(secret + offset));
  if (key === 0n) throw new SplitKeyError("a + k is 0 mod n: this offset gives no key");
  return scalarToHex(key);
}

/** The address of a private key (0x-hex), for checking the final key before it is offered. */
export function addressOfPrivateKey(privateKeyHex: string): string {
  return addressOfPoint(Point.BASE.multiply(parseScalar(privateKeyHex, "private key")));
}

/** A fresh secret a from the platform's CSPRNG (crypto.getRandomValues through noble). */
export function randomSecret(): bigint {
  return BigInt("0x" + bytesToHex(secp256k1.utils.randomSecretKey()));
}
