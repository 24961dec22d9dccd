import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { addressMatchesOrder } from "../../../../schema/custom-order-pattern";
import { addressOfPrivateKey, CURVE_ORDER, scalarToHex, SPLIT_KEY_VARIANTS } from "../../../../schema/split-key";
import type { GpuHit } from "../../../../gpu/grinder";
import { solanaKeyForms } from "../-purchase/solana-key-files";
import {
  browserWorkSizes,
  expectedSeconds,
  KernelFault,
  MAX_BROWSER_BITS,
  MAX_BROWSER_BITS_SOLANA,
  readSolanaPattern,
  tooHardForBrowser,
  verifyHit,
  verifySolanaHit,
} from "./grind-plan";

/** A hit as the GPU would report it for walked scalar s and variant v (its address is the true one). */
function hitFor(s: bigint, variant: number): GpuHit {
  const key = (SPLIT_KEY_VARIANTS[variant].factor * s) % CURVE_ORDER;
  return { invocation: 3, scalar: s, variant, address: addressOfPrivateKey(scalarToHex(key)).slice(2).toLowerCase() };
}

describe("verifyHit", () => {
  const s = 0x1234567890abcdef1234567890abcdefn;

  it("returns the key and checksummed address of a true hit, for every variant", () => {
    for (let v = 0; v < 6; v++) {
      const hit = hitFor(s, v);
      const pattern = { prefix: hit.address.slice(0, 2), suffix: "", caseSensitive: false };
      const { address, privateKey } = verifyHit(pattern, hit);
      expect(address.toLowerCase()).toBe("0x" + hit.address);
      expect(addressOfPrivateKey(privateKey)).toBe(address);
      expect(addressMatchesOrder(pattern, address)).toBe(true);
    }
  });

  it("refuses a hit whose key gives another address (a kernel fault)", () => {
    const hit = { ...hitFor(s, 0), scalar: s + 1n };
    expect(() => verifyHit({ prefix: hit.address.slice(0, 1), suffix: "", caseSensitive: false }, hit)).toThrow(KernelFault);
  });

  it("refuses a true address that does not match the pattern, or only in the wrong case", () => {
    const hit = hitFor(s, 1);
    const first = hit.address[0];
    const other = first === "0" ? "1" : "0";
    expect(() => verifyHit({ prefix: other, suffix: "", caseSensitive: false }, hit)).toThrow(/does not match the pattern/);
    const checksummed = addressOfPrivateKey(scalarToHex((SPLIT_KEY_VARIANTS[1].factor * s) % CURVE_ORDER)).slice(2);
    const letter = [...checksummed].findIndex((c) => /[a-fA-F]/.test(c));
    const flipped = checksummed[letter] === checksummed[letter].toUpperCase() ? checksummed[letter].toLowerCase() : checksummed[letter].toUpperCase();
    expect(() => verifyHit({ prefix: checksummed.slice(0, letter) + flipped, suffix: "", caseSensitive: true }, hit)).toThrow(KernelFault);
  });
});

describe("the browser's limits and estimates", () => {
  it("grinds up to 2^40 attempts and sends longer patterns to a custom order", () => {
    expect(tooHardForBrowser(MAX_BROWSER_BITS)).toBeNull();
    expect(tooHardForBrowser(MAX_BROWSER_BITS + 1)).toBe(
      "This pattern needs about 2.2 trillion attempts; this page grinds up to 1.1 trillion. Order it as a custom address instead.",
    );
  });

  it("expects 2^bits / rate seconds, and never at rate 0", () => {
    expect(expectedSeconds(20, 2 ** 20)).toBe(1);
    expect(expectedSeconds(8, 0)).toBe(Infinity);
  });
});

describe("Solana in the browser", () => {
  const seed = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1);
  const publicKey = ed25519.getPublicKey(seed);
  const address = base58.encode(publicKey);
  const pattern = (prefix: string, suffix = "", caseSensitive = true) => readSolanaPattern({ prefix, suffix, caseSensitive }).pattern;

  it("accepts a true hit and gives the 64-byte secret key that the wallets' import forms accept", () => {
    const found = verifySolanaHit(pattern(address.slice(0, 2)), { invocation: 0, candidate: 3, seed, publicKey });
    expect(found.address).toBe(address);
    // the same key the keypair file and Phantom's text are made from
    const forms = solanaKeyForms(found.privateKey, address);
    expect(JSON.parse(forms.keypairJson)).toEqual([...seed, ...publicKey]);
    expect(forms.base58).toBe(found.privateKey);
  });

  it("refuses a hit whose seed gives another key (a kernel fault), or whose address misses the pattern", () => {
    const other = ed25519.getPublicKey(Uint8Array.from({ length: 32 }, () => 9));
    expect(() => verifySolanaHit(pattern(address.slice(0, 1)), { invocation: 0, candidate: 0, seed, publicKey: other })).toThrow(KernelFault);
    const wrong = address[0] === "2" ? "3" : "2";
    expect(() => verifySolanaHit(pattern(wrong), { invocation: 0, candidate: 0, seed, publicKey })).toThrow(/does not match the pattern/);
  });

  it("reads a pattern with the CPU grinder's rules: problems in the page's words, an exact difficulty", () => {
    expect(readSolanaPattern({ prefix: "", suffix: "", caseSensitive: false }).problems).toEqual(["Enter a prefix, a suffix or both"]);
    expect(readSolanaPattern({ prefix: "0l", suffix: "", caseSensitive: true }).problems[0]).toMatch(/outside the base58 alphabet.*turn off exact case/);
    expect(readSolanaPattern({ prefix: "abcdefghjkmnp", suffix: "", caseSensitive: false }).problems[0]).toMatch(/too many case variants/);
    expect(readSolanaPattern({ prefix: "ſol", suffix: "", caseSensitive: false }).problems.join("\n")).toMatch(/"ſ" \(U\+017F\).*not ASCII/);
    expect(readSolanaPattern({ prefix: "", suffix: "\u212A", caseSensitive: false }).problems.join("\n")).toContain("U+212A");
    // a leading '1' is a zero byte: 1 in 256, 8 bits, not log2(58)
    expect(readSolanaPattern({ prefix: "1", suffix: "", caseSensitive: true }).bits).toBeCloseTo(8, 6);
    // a suffix character is 1 in 58; a case-insensitive letter 2 in 58
    expect(readSolanaPattern({ prefix: "", suffix: "z", caseSensitive: true }).bits).toBeCloseTo(Math.log2(58), 6);
    expect(readSolanaPattern({ prefix: "", suffix: "z", caseSensitive: false }).bits).toBeCloseTo(Math.log2(29), 6);
    expect(readSolanaPattern({ prefix: " 2 ", suffix: "", caseSensitive: true }).pattern.prefix).toBe("2");
  });

  it("grinds up to 2^36 Solana attempts, and sizes the work from a laptop's up to a large GPU's", () => {
    expect(tooHardForBrowser(MAX_BROWSER_BITS_SOLANA, "solana")).toBeNull();
    expect(tooHardForBrowser(MAX_BROWSER_BITS_SOLANA + 0.5, "solana")).toMatch(/up to 68.7 billion\.$/);
    expect(browserWorkSizes("solana", false).invocations).toEqual([8192, 16_384, 32_768, 65_536]);
    expect(browserWorkSizes("solana", true).invocations).toEqual([32]);
    // the 11-bit comb on a GPU (its table built in a Web Worker), the 8-bit one on a software adapter
    expect(browserWorkSizes("solana", false).windowBits).toBe(11);
    expect(browserWorkSizes("solana", true).windowBits).toBe(8);
  });
});
