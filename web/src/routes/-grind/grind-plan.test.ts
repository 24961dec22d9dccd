import { describe, expect, it } from "vitest";
import { addressMatchesOrder } from "../../../../schema/custom-order-pattern";
import { addressOfPrivateKey, CURVE_ORDER, scalarToHex, SPLIT_KEY_VARIANTS } from "../../../../schema/split-key";
import type { GpuHit } from "../../../../gpu/grinder";
import { expectedSeconds, KernelFault, MAX_BROWSER_BITS, tooHardForBrowser, verifyHit } from "./grind-plan";

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
    expect(tooHardForBrowser(MAX_BROWSER_BITS + 1)).toMatch(/custom address/);
  });

  it("expects 2^bits / rate seconds, and never at rate 0", () => {
    expect(expectedSeconds(20, 2 ** 20)).toBe(1);
    expect(expectedSeconds(8, 0)).toBe(Infinity);
  });
});
