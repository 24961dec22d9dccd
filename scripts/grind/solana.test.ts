import { createPrivateKey, randomBytes, sign } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { base58Digits32 } from "./base58.ts";
import { BASE58_ALPHABET, matchesAddress, type PatternSpec } from "../../schema/grind-pattern.ts";
import { SolanaSearcher } from "./solana.ts";
import { solanaAddressFromSecretKey, verifiedRow } from "./verify.ts";

const sol = (prefix: string, suffix = "", caseSensitive = false, mirror = 0): PatternSpec => ({ network: "solana", prefix, suffix, caseSensitive, mirror });

function digitsToText(bytes: Uint8Array): string {
  const out = new Uint8Array(45);
  const n = base58Digits32(bytes, out, new Float64Array(16));
  return [...out.subarray(0, n)].map((d) => BASE58_ALPHABET[d]).join("");
}

describe("base58Digits32", () => {
  it("agrees with @scure/base, including leading zero bytes", () => {
    const cases = [new Uint8Array(32), new Uint8Array(32).fill(255), Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0))];
    for (let z = 0; z <= 5; z++) {
      for (let t = 0; t < 200; t++) {
        const b = randomBytes(32);
        b.fill(0, 0, z);
        cases.push(b);
      }
    }
    for (const b of cases) expect(digitsToText(b)).toBe(base58.encode(b));
  });
});

describe("SolanaSearcher", () => {
  it("digit matcher agrees with the reference string matcher", () => {
    const specs = [sol("A"), sol("ab"), sol("", "x"), sol("", "Zz", true), sol("2", "1"), sol("", "", true, 1), sol("", "", false, 1)];
    const searchers = specs.map((s) => new SolanaSearcher(s));
    for (let t = 0; t < 3000; t++) {
      const pub = randomBytes(32);
      if (t % 50 === 0) pub[0] = 0;
      const address = base58.encode(pub);
      specs.forEach((spec, i) => expect(searchers[i].matchesPublicKey(pub), `${JSON.stringify(spec)} ${address}`).toBe(matchesAddress(spec, address)));
    }
  });

  it("refuses a pattern with a non-ASCII character instead of matching only some of its case forms", () => {
    // the Kelvin sign lower-cases to k: read as a letter it matched k but never K, half the addresses asked for
    expect(() => new SolanaSearcher(sol("\u212A"))).toThrow(/"\u212A" \(U\+212A\)/);
    expect(() => new SolanaSearcher(sol("", "ſ"))).toThrow(/U\+017F/);
  });

  it("exports Phantom / solana-keygen style secret keys that round-trip", () => {
    const spec = sol("", "a");
    const s = new SolanaSearcher(spec);
    let found = 0;
    while (found < 5) {
      const r = s.step();
      if (!r.found) continue;
      found++;
      const row = verifiedRow(spec, r.found.address, r.found.privateKey);
      const secret = base58.decode(row.private_key);
      expect(secret.length).toBe(64);
      const seed = secret.subarray(0, 32);
      const pub = secret.subarray(32);
      expect(base58.encode(pub)).toBe(row.address);
      expect(solanaAddressFromSecretKey(row.private_key)).toBe(row.address);
      // a signature made by OpenSSL from the seed verifies under the address with noble
      const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
      const msg = randomBytes(40);
      const sig = sign(null, msg, createPrivateKey({ key: der, format: "der", type: "pkcs8" }));
      expect(ed25519.verify(sig, msg, pub)).toBe(true);
    }
  });

  it("finds case-insensitive matches the way they appear", () => {
    const spec = sol("", "sL");
    const s = new SolanaSearcher(spec);
    for (let n = 0; n < 2; ) {
      const r = s.step();
      if (!r.found) continue;
      n++;
      const row = verifiedRow(spec, r.found.address, r.found.privateKey);
      expect(row.pattern_matched.toLowerCase()).toBe("sl");
      expect(row.address.endsWith(row.pattern_matched)).toBe(true);
    }
  });
});
