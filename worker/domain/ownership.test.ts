import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { Keypair } from "@solana/web3.js";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { OWNERSHIP_MESSAGES } from "../../schema/listings";
import { normalizePrivateKey, proveOwnership, verifyOwnership } from "./ownership";

// anvil's dev account 0: a public key everyone has, fine for a test.
const ETH_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ETH_ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const OTHER_ETH_ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const seed = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 0xff);
const pub = ed25519.getPublicKey(seed);
const SOL_ADDRESS = base58.encode(pub);
const secret64 = new Uint8Array([...seed, ...pub]);
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const SOL_CANONICAL = base58.encode(secret64);

describe("Ethereum keys", () => {
  it("64 hex with or without 0x, any case, surrounding spaces", () => {
    for (const key of [ETH_KEY, ETH_KEY.slice(2), ETH_KEY.toUpperCase().replace("0X", "0x"), ETH_KEY.slice(2).toUpperCase(), `  ${ETH_KEY}\n`]) {
      expect(verifyOwnership("ethereum", ETH_ADDRESS, key), key).toEqual({ verified: true });
      expect(normalizePrivateKey("ethereum", key)).toBe(ETH_KEY);
    }
  });

  it("compares the address case-insensitively and returns it checksummed", () => {
    expect(proveOwnership("ethereum", ETH_ADDRESS.toLowerCase(), ETH_KEY)).toEqual({ verified: true, address: ETH_ADDRESS, privateKey: ETH_KEY });
  });

  it("agrees with viem on random keys", () => {
    for (let i = 0; i < 20; i++) {
      const key = `0x${hex(crypto.getRandomValues(new Uint8Array(32)))}` as const;
      expect(proveOwnership("ethereum", privateKeyToAddress(key), key).verified).toBe(true);
    }
  });

  it("a key for another address is a mismatch", () => {
    expect(verifyOwnership("ethereum", OTHER_ETH_ADDRESS, ETH_KEY)).toEqual({ verified: false, error: OWNERSHIP_MESSAGES.mismatch });
  });

  it("malformed and out-of-range keys are refused without echoing them", () => {
    const cases = [ETH_KEY.slice(0, 60), `${ETH_KEY}00`, "0x" + "g".repeat(64), "[1,2,3]", SOL_CANONICAL, "0x" + "0".repeat(64), "0x" + "f".repeat(64)];
    for (const key of cases) {
      const r = verifyOwnership("ethereum", ETH_ADDRESS, key);
      expect(r.verified, key).toBe(false);
      expect(r.error).toMatch(/^(Unrecognised private key format for ethereum|Invalid Ethereum private key)/);
      expect(r.error).not.toContain(key.slice(2, 12));
    }
  });

  it("an invalid address is reported as such", () => {
    expect(proveOwnership("ethereum", "0x123", ETH_KEY)).toMatchObject({ verified: false, reason: "invalid-address" });
  });

  it("an empty key", () => {
    expect(proveOwnership("ethereum", ETH_ADDRESS, "  ")).toEqual({ verified: false, reason: "invalid-key", error: OWNERSHIP_MESSAGES.keyRequired });
  });
});

describe("Solana keys", () => {
  const formats: [string, string][] = [
    ["base58 64-byte secret key", SOL_CANONICAL],
    ["base58 32-byte seed", base58.encode(seed)],
    ["hex seed", hex(seed)],
    ["0x hex seed", `0x${hex(seed)}`],
    ["hex 64-byte secret key", hex(secret64)],
    ["JSON 64-byte array", JSON.stringify(Array.from(secret64))],
    ["JSON 32-byte array", JSON.stringify(Array.from(seed))],
    ["JSON with spaces", ` [ ${Array.from(secret64).join(", ")} ] `],
  ];
  for (const [name, key] of formats) {
    it(`accepts a ${name} and stores the base58 64-byte form`, () => {
      expect(proveOwnership("solana", SOL_ADDRESS, key)).toEqual({ verified: true, address: SOL_ADDRESS, privateKey: SOL_CANONICAL });
    });
  }

  it("compares the address exactly", () => {
    const other = base58.encode(ed25519.getPublicKey(new Uint8Array(32).fill(9)));
    expect(verifyOwnership("solana", other, SOL_CANONICAL)).toEqual({ verified: false, error: OWNERSHIP_MESSAGES.mismatch });
  });

  it("a 64-byte key whose embedded public key is not its own is refused", () => {
    const forged = new Uint8Array([...seed, ...ed25519.getPublicKey(new Uint8Array(32).fill(1))]);
    const r = verifyOwnership("solana", SOL_ADDRESS, base58.encode(forged));
    expect(r).toEqual({ verified: false, error: "Invalid Solana secret key: its embedded public key does not match its seed" });
  });

  it("unrecognised formats say what was expected, never the key", () => {
    const cases = [
      "[1,2,3]",
      JSON.stringify(Array.from(seed).map((b, i) => (i === 0 ? 256 : b))),
      JSON.stringify([...Array.from(seed).slice(0, 31), 1.5]),
      `[${"1,".repeat(31)}"a"]`,
      "[not json",
      base58.encode(seed.slice(0, 20)),
      "0OIl" + "1".repeat(40),
      "z".repeat(200),
      "key with spaces",
      "\u0000\u0001",
    ];
    for (const key of cases) {
      const r = verifyOwnership("solana", SOL_ADDRESS, key);
      expect(r.verified, key).toBe(false);
      expect(r.error, key).toMatch(/^Unrecognised private key format for solana: expected/);
    }
  });

  it("refuses keys longer than any real one without parsing them", () => {
    expect(verifyOwnership("solana", SOL_ADDRESS, `[${"1,".repeat(2000)}1]`).verified).toBe(false);
  });

  it("an off-curve (program-derived) address cannot be owned", () => {
    expect(proveOwnership("solana", "4MD31b2GFAWVDYQT8KG7E5GcZiFyy4MpDUt4BcyEdJRP", SOL_CANONICAL)).toMatchObject({
      verified: false,
      reason: "invalid-address",
    });
  });
});

// The peer for Solana keys: @solana/web3.js's Keypair (what the CLI's keypair file and most tools load with).
describe("Solana keys against @solana/web3.js Keypair", () => {
  it("for random keypairs every export form proves the keypair's address and stores its 64 bytes", () => {
    for (let i = 0; i < 20; i++) {
      const kp = Keypair.generate();
      const address = kp.publicKey.toBase58();
      const canonical = base58.encode(kp.secretKey);
      for (const key of [canonical, JSON.stringify(Array.from(kp.secretKey)), base58.encode(kp.secretKey.slice(0, 32)), hex(kp.secretKey.slice(0, 32))]) {
        expect(proveOwnership("solana", address, key)).toEqual({ verified: true, address, privateKey: canonical });
      }
    }
  });

  it("refuses a 64-byte key exactly when Keypair.fromSecretKey does", () => {
    const kp = Keypair.generate();
    const other = Keypair.generate();
    const mixed = new Uint8Array([...kp.secretKey.slice(0, 32), ...other.secretKey.slice(32)]);
    for (const bytes of [kp.secretKey, mixed]) {
      let theirs = true;
      try {
        Keypair.fromSecretKey(bytes);
      } catch {
        theirs = false;
      }
      expect(verifyOwnership("solana", base58.encode(bytes.slice(32)), base58.encode(bytes)).verified).toBe(theirs);
    }
  });
});
