import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { parseBulkCsv } from "../../schema/bulk-csv";
import { keylessAddress } from "./keyless";
import { analyzeAddress } from "./rarity";

const eth = (hexBody: string) => `0x${hexBody.padStart(40, "0")}`;
const solanaPoint = (p: InstanceType<typeof ed25519.Point>) => base58.encode(p.toBytes());
const randomSolanaKeyPoint = () => ed25519.Point.fromBytes(ed25519.getPublicKey(ed25519.utils.randomSecretKey()));

describe("Ethereum addresses without a key", () => {
  it("the zero address", () => {
    expect(keylessAddress(eth("0"), "ethereum")?.reason).toBe("zero-address");
  });

  it("precompiles 0x01-0x11 and P256VERIFY at 0x100; other low addresses by their 2^128+ pattern", () => {
    for (const n of [1, 2, 9, 0x0a, 0x11, 0x100]) expect(keylessAddress(eth(n.toString(16)), "ethereum")?.reason, n.toString(16)).toBe("precompile");
    for (const n of [0x12, 0xffff]) expect(keylessAddress(eth(n.toString(16)), "ethereum")?.reason, n.toString(16)).toBe("unreachable-pattern");
  });

  it("burn addresses by name (0x…dEaD, 0xdead0…42069) or by a pattern past 2^128 (0xfff…f)", () => {
    expect(keylessAddress("0x000000000000000000000000000000000000dEaD", "ethereum")?.reason).toBe("burn-address");
    expect(keylessAddress("0xdEAD000000000000000042069420694206942069", "ethereum")?.reason).toBe("burn-address");
    expect(keylessAddress("0x00000000000000000000000000000000000beef1", "ethereum")?.message).toMatch(/2\^140/);
    expect(keylessAddress("0xffffffffffffffffffffffffffffffffffffffff", "ethereum")?.reason).toBe("unreachable-pattern");
  });

  it("ordinary and hard-but-grindable vanity addresses have keys", () => {
    for (const address of ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "0x00000000000018f948a94ee613f77fe997891c7b" /* 12 zeros: 2^48 */]) {
      expect(keylessAddress(address, "ethereum"), address).toBeNull();
    }
  });

  it("the bound sits at 2^128: 31 leading zeros have a key in principle, 32 do not", () => {
    const below = `0x${"0".repeat(31)}123456789`;
    const at = `0x${"0".repeat(32)}12345678`;
    expect(analyzeAddress(below, "ethereum").difficulty.log2).toBe(124);
    expect(keylessAddress(below, "ethereum")).toBeNull();
    expect(keylessAddress(at, "ethereum")?.reason).toBe("unreachable-pattern");
  });
});

describe("Solana addresses no seed produces", () => {
  it("the system program id 1111…1111 (32 zero bytes: a point of order 4)", () => {
    const k = keylessAddress("11111111111111111111111111111111", "solana");
    expect(k?.reason).toBe("small-order-point");
    expect(k?.message).toMatch(/no seed/);
  });

  it("every small-order point, the identity included", () => {
    // The eight torsion points: multiples of a point of order 8, found from the zero-y point of order 4.
    const order4 = ed25519.Point.fromBytes(new Uint8Array(32), true);
    const torsion = [ed25519.Point.ZERO, order4, order4.negate(), order4.double()];
    for (const p of torsion) expect(keylessAddress(solanaPoint(p), "solana")?.reason).toBe("small-order-point");
  });

  it("a key's point plus a torsion part is outside the key subgroup", () => {
    const order4 = ed25519.Point.fromBytes(new Uint8Array(32), true);
    const mixed = randomSolanaKeyPoint().add(order4);
    expect(keylessAddress(solanaPoint(mixed), "solana")?.reason).toBe("outside-key-subgroup");
  });

  it("real keys are never refused", () => {
    for (let i = 0; i < 200; i++) expect(keylessAddress(solanaPoint(randomSolanaKeyPoint()), "solana")).toBeNull();
  });
});

describe("the demo inventory", () => {
  it("has a key for every row", () => {
    const parsed = parseBulkCsv(fs.readFileSync("scripts/demo/listings.csv", "utf8"));
    if (!parsed.ok) throw new Error(parsed.message);
    for (const row of parsed.rows) expect(keylessAddress(row.address, row.platform === "solana" ? "solana" : "ethereum"), row.address).toBeNull();
  });
});
