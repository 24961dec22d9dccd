// The split-key arithmetic against independent derivations: viem's privateKeyToAddress for the final key,
// and the grinder's coordinate shortcuts ((x, -y), (β·x, y), (β²·x, y), ...) for each variant's factor.
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { SigningKey } from "ethers";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  addressOfPrivateKey,
  CURVE_ORDER,
  finalPrivateKey,
  orderAddress,
  orderPoint,
  parsePublicKey,
  parseScalar,
  publicKeyOf,
  randomSecret,
  scalarToHex,
  SPLIT_KEY_VARIANTS,
  SplitKeyError,
} from "./split-key";

const Point = secp256k1.Point;
const P = Point.Fp.ORDER;
const BETA = 0x7ae96a2b657c07106e64479eac3434e99cf0497512f58995c1396c28719501een;

/** The point the grinder hashes for a variant, built from coordinates only (no scalar factor involved). */
function grinderVariantPoint(base: InstanceType<typeof Point>, variant: number) {
  const { x, y } = base.toAffine();
  const xs = [x, x, (BETA * x) % P, (BETA * x) % P, (BETA * BETA * x) % P, (BETA * BETA * x) % P];
  const ys = [y, P - y, y, P - y, y, P - y];
  return Point.fromAffine({ x: xs[variant], y: ys[variant] });
}

const randomOffset = () => randomSecret();

describe("split-key arithmetic", () => {
  it("for random secrets, offsets and every variant: the final key derives the address the server computes from A alone", () => {
    for (let round = 0; round < 40; round++) {
      const a = randomSecret();
      const k = randomOffset();
      const A = publicKeyOf(a);
      for (const { id } of SPLIT_KEY_VARIANTS) {
        const finalKey = finalPrivateKey(a, k, id);
        const expected = privateKeyToAddress(finalKey as `0x${string}`);
        expect(orderAddress(A, k, id)).toBe(expected);
        expect(addressOfPrivateKey(finalKey)).toBe(expected);
      }
    }
  });

  it("each variant's factor maps A + k·G to exactly the point the grinder's coordinate shortcut tests", () => {
    for (let round = 0; round < 10; round++) {
      const A = publicKeyOf(randomSecret());
      const k = randomOffset();
      const base = parsePublicKey(A).add(Point.BASE.multiply(k));
      for (const { id } of SPLIT_KEY_VARIANTS) expect(orderPoint(A, k, id).equals(grinderVariantPoint(base, id))).toBe(true);
    }
  });

  it("variants give six different addresses, and a wrong variant or offset gives a different one", () => {
    const a = randomSecret();
    const k = randomOffset();
    const A = publicKeyOf(a);
    const addresses = SPLIT_KEY_VARIANTS.map(({ id }) => orderAddress(A, k, id));
    expect(new Set(addresses).size).toBe(6);
    expect(orderAddress(A, k + 1n, 0)).not.toBe(addresses[0]);
    // another buyer's A with the same k does not give this buyer's address
    expect(orderAddress(publicKeyOf(randomSecret()), k, 0)).not.toBe(addresses[0]);
  });

  it("keys near the ends of the range wrap modulo n", () => {
    const a = CURVE_ORDER - 1n;
    const k = 5n;
    const key = finalPrivateKey(a, k, 0);
    expect(key).toBe(scalarToHex(4n));
    expect(orderAddress(publicKeyOf(a), k, 0)).toBe(privateKeyToAddress(key as `0x${string}`));
  });

  it("refuses an offset that cancels the secret (the point at infinity) and offsets outside [1, n-1]", () => {
    const a = 7n;
    expect(() => orderAddress(publicKeyOf(a), CURVE_ORDER - a, 0)).toThrow(SplitKeyError);
    expect(() => finalPrivateKey(a, CURVE_ORDER - a, 0)).toThrow(SplitKeyError);
    expect(() => orderAddress(publicKeyOf(a), 0n, 0)).toThrow(SplitKeyError);
    expect(() => orderAddress(publicKeyOf(a), CURVE_ORDER, 0)).toThrow(SplitKeyError);
    expect(() => orderAddress(publicKeyOf(a), 1n, 6)).toThrow(SplitKeyError);
    expect(() => finalPrivateKey(a, 1n, -1)).toThrow(SplitKeyError);
  });

  it("parses only compressed points on the curve and scalars in range", () => {
    const A = publicKeyOf(randomSecret());
    expect(parsePublicKey(A).toHex(true)).toBe(A.slice(2));
    expect(parsePublicKey(A.slice(2).toUpperCase()).toHex(true)).toBe(A.slice(2));
    const uncompressed = "0x" + parsePublicKey(A).toHex(false);
    for (const bad of [uncompressed, "0x04" + A.slice(4), A.slice(0, -2), "0x02" + "0".repeat(64), "0x02" + "f".repeat(64), "0x02" + "g".repeat(64), ""]) {
      expect(() => parsePublicKey(bad), bad).toThrow(SplitKeyError);
    }
    expect(parseScalar(scalarToHex(1n))).toBe(1n);
    for (const bad of ["0x" + "0".repeat(64), scalarToHex(CURVE_ORDER), "0x" + "f".repeat(64), "0x1", "0x" + "z".repeat(64)]) {
      expect(() => parseScalar(bad), bad).toThrow(SplitKeyError);
    }
  });
});

// The custom-order public key (what a buyer's browser sends) against ethers' SigningKey, which reads SEC1 keys
// with its own curve code: a compressed key is accepted exactly when ethers can decompress it, to the same point.
describe("parsePublicKey against ethers SigningKey", () => {
  it("accepts and refuses the same compressed keys", () => {
    const notOnCurve = (() => {
      for (let x = 1n; ; x++) {
        const hex = "0x02" + x.toString(16).padStart(64, "0");
        try {
          Point.fromHex(hex.slice(2));
        } catch {
          return hex;
        }
      }
    })();
    const corpus = [
      ...Array.from({ length: 10 }, () => publicKeyOf(randomSecret())),
      publicKeyOf(1n),
      publicKeyOf(CURVE_ORDER - 1n),
      notOnCurve,
      "0x02" + "0".repeat(64),
      "0x02" + P.toString(16),
      "0x03" + (P - 1n).toString(16),
      "0x02" + "f".repeat(64),
      "0x05" + publicKeyOf(2n).slice(4),
    ];
    for (const key of corpus) {
      let theirs: string | null;
      try {
        theirs = SigningKey.computePublicKey(key, true);
      } catch {
        theirs = null;
      }
      let ours: string | null;
      try {
        ours = "0x" + parsePublicKey(key).toHex(true);
      } catch {
        ours = null;
      }
      expect(ours, key).toBe(theirs);
    }
  });
});
