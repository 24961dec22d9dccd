import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { isEthereumHash, isSolanaSignature, paymentHashNetwork } from "./payment-hash";

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

describe("isSolanaSignature: base58 of exactly 64 bytes", () => {
  it("64 bytes, whatever their value: all zeros (64 ones), all 0xff (88 characters), a real-looking one", () => {
    expect(isSolanaSignature(base58.encode(bytes(64, 0)))).toBe(true);
    expect(base58.encode(bytes(64, 0))).toBe("1".repeat(64));
    expect(base58.encode(bytes(64, 255))).toHaveLength(88);
    expect(isSolanaSignature(base58.encode(bytes(64, 255)))).toBe(true);
    expect(isSolanaSignature(base58.encode(Uint8Array.from({ length: 64 }, (_, i) => i * 3 + 1)))).toBe(true);
  });

  it("the review's text and its kin: the alphabet is right, the length is not", () => {
    expect(isSolanaSignature("2".repeat(64))).toBe(false);
    expect(isSolanaSignature(base58.encode(bytes(63, 255)))).toBe(false);
    expect(isSolanaSignature(base58.encode(bytes(65, 1)))).toBe(false);
    expect(isSolanaSignature("1".repeat(65))).toBe(false);
    expect(isSolanaSignature("z".repeat(89))).toBe(false);
  });

  it("not base58 at all", () => {
    expect(isSolanaSignature(`0${"2".repeat(80)}`)).toBe(false);
    expect(isSolanaSignature(`${base58.encode(bytes(64, 7))} `)).toBe(false);
    expect(isSolanaSignature("")).toBe(false);
  });
});

describe("isEthereumHash: 0x and 32 bytes of hex", () => {
  it("either case; not one digit more or less, no other prefix", () => {
    expect(isEthereumHash(`0x${"aB".repeat(32)}`)).toBe(true);
    expect(isEthereumHash(`0x${"a".repeat(63)}`)).toBe(false);
    expect(isEthereumHash(`0x${"a".repeat(65)}`)).toBe(false);
    expect(isEthereumHash(`0X${"a".repeat(64)}`)).toBe(false);
    expect(isEthereumHash(`x0x${"a".repeat(64)}`)).toBe(false);
    expect(isEthereumHash(`0x${"g".repeat(64)}`)).toBe(false);
  });
});

describe("paymentHashNetwork", () => {
  it("names the network a well-formed id belongs to, else null", () => {
    expect(paymentHashNetwork(`0x${"12".repeat(32)}`)).toBe("ethereum");
    expect(paymentHashNetwork(base58.encode(bytes(64, 9)))).toBe("solana");
    expect(paymentHashNetwork("2".repeat(64))).toBeNull();
    expect(paymentHashNetwork("0x12")).toBeNull();
  });
});
