import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base58 } from "@scure/base";
import { Keypair, PublicKey } from "@solana/web3.js";
import { getAddress as ethersGetAddress, isAddress as ethersIsAddress } from "ethers";
import { describe, expect, it } from "vitest";
import {
  BASE58_ALPHABET,
  HEX_CHARS,
  detectAddressType,
  detectNetworkForForm,
  guessNetwork,
  isOnEd25519Curve,
  sameAddress,
  toChecksumAddress,
  validateAddress,
} from "./address";

// The test vectors of EIP-55 itself.
const EIP55_MIXED = [
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
];
const EIP55_ALL_CAPS = ["0x52908400098527886E0F7030069857D2E4169EE7", "0x8617E340B3D01FA5F11F306F4090FD50E238070D"];
const EIP55_ALL_LOWER = ["0xde709f2102306220921060314715629080e2fb77", "0x27b1fdb04752bbc536007a920d24acb045561c26"];

/** Solana's find_program_address: the first bump (from 255 down) whose hash is off the curve. */
function findProgramAddress(seeds: Uint8Array[], programId: Uint8Array): Uint8Array {
  const marker = new TextEncoder().encode("ProgramDerivedAddress");
  for (let bump = 255; bump >= 0; bump--) {
    const parts = [...seeds, Uint8Array.of(bump), programId, marker];
    const buf = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      buf.set(p, at);
      at += p.length;
    }
    const hash = sha256(buf);
    try {
      ed25519.Point.fromBytes(hash, true);
    } catch {
      return hash;
    }
  }
  throw new Error("no bump");
}

describe("constants", () => {
  it("base58 has 58 digits and none of 0, O, I, l", () => {
    expect(BASE58_ALPHABET).toHaveLength(58);
    expect(new Set(BASE58_ALPHABET).size).toBe(58);
    for (const c of "0OIl") expect(BASE58_ALPHABET).not.toContain(c);
    expect(HEX_CHARS).toBe("0123456789abcdef");
  });
});

describe("detectAddressType", () => {
  it("recognises Ethereum as 0x + 40 hex", () => {
    expect(detectAddressType(EIP55_MIXED[0])).toBe("ethereum");
    expect(detectAddressType(EIP55_ALL_LOWER[0])).toBe("ethereum");
    expect(detectAddressType("0x" + "g".repeat(40))).toBe("unknown");
    expect(detectAddressType("0x" + "a".repeat(39))).toBe("unknown");
  });
  it("recognises Solana as 32 to 44 base58 characters", () => {
    expect(detectAddressType("11111111111111111111111111111111")).toBe("solana");
    expect(detectAddressType("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")).toBe("solana");
    expect(detectAddressType("1".repeat(31))).toBe("unknown");
    expect(detectAddressType("1".repeat(45))).toBe("unknown");
    expect(detectAddressType("0" + "1".repeat(40))).toBe("unknown");
  });
});

describe("guessNetwork (checker rule)", () => {
  it("0x and 42 characters is ethereum; 32-44 without 0x is solana; otherwise ethereum", () => {
    expect(guessNetwork(EIP55_MIXED[0])).toBe("ethereum");
    expect(guessNetwork("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")).toBe("solana");
    expect(guessNetwork("0x1234")).toBe("ethereum");
    expect(guessNetwork("hello")).toBe("ethereum");
    expect(guessNetwork("0x" + "1".repeat(38))).toBe("ethereum");
  });
});

describe("detectNetworkForForm (listing form rule)", () => {
  it("0x and 40 to 44 characters is ETH; 32 to 44 without 0x is SOL; else none", () => {
    expect(detectNetworkForForm(EIP55_MIXED[0])).toEqual({ network: "ethereum", currency: "ETH" });
    expect(detectNetworkForForm("0x" + "a".repeat(38))).toEqual({ network: "ethereum", currency: "ETH" });
    expect(detectNetworkForForm("0x" + "a".repeat(43))).toBeNull();
    expect(detectNetworkForForm("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")).toEqual({ network: "solana", currency: "SOL" });
    expect(detectNetworkForForm("abc")).toBeNull();
  });
});

describe("validateAddress: ethereum", () => {
  it("accepts the EIP-55 vectors and normalises to the checksummed form", () => {
    for (const a of [...EIP55_MIXED, ...EIP55_ALL_CAPS, ...EIP55_ALL_LOWER]) {
      const r = validateAddress(a, "ethereum");
      expect(r.isValid, a).toBe(true);
    }
    expect(validateAddress(EIP55_MIXED[0].toLowerCase(), "ethereum")).toEqual({ isValid: true, network: "ethereum", normalized: EIP55_MIXED[0] });
  });

  it("computes the EIP-55 checksum", () => {
    for (const a of EIP55_MIXED) expect(toChecksumAddress(a.toLowerCase())).toBe(a);
    expect(toChecksumAddress(EIP55_ALL_CAPS[0].slice(2).toLowerCase())).toBe(EIP55_ALL_CAPS[0]);
  });

  it("accepts an all-lower-case or all-upper-case body (no checksum claimed)", () => {
    const body = EIP55_MIXED[1].slice(2);
    expect(validateAddress("0x" + body.toLowerCase(), "ethereum").isValid).toBe(true);
    expect(validateAddress("0x" + body.toUpperCase(), "ethereum").isValid).toBe(true);
  });

  it("rejects a mixed-case address whose checksum is wrong", () => {
    // Flip the case of one letter of a valid checksummed address.
    const good = EIP55_MIXED[0];
    const bad = good.slice(0, 3) + good[3].toUpperCase() + good.slice(4); // 0x5aA... -> 0x5AA...
    expect(bad).not.toBe(good);
    const r = validateAddress(bad, "ethereum");
    expect(r.isValid).toBe(false);
    if (!r.isValid) expect(r.message).toMatch(/checksum/i);
  });

  it("rejects wrong lengths, a missing 0x and non-hex characters", () => {
    for (const a of ["0x" + "a".repeat(39), "0x" + "a".repeat(41), "a".repeat(42)]) {
      const r = validateAddress(a, "ethereum");
      expect(r.isValid, a).toBe(false);
    }
    const r = validateAddress("0x" + "g" + "a".repeat(39), "ethereum");
    expect(r.isValid).toBe(false);
    if (!r.isValid) expect(r.message).toMatch(/hexadecimal/);
    const short = validateAddress("0x1234", "ethereum");
    if (!short.isValid) expect(short.message).toMatch(/40 hexadecimal/);
  });

  it("trims and rejects empty input", () => {
    expect(validateAddress(`  ${EIP55_MIXED[0]} `, "ethereum").isValid).toBe(true);
    expect(validateAddress("   ", "ethereum")).toEqual({ isValid: false, message: "Please enter an address" });
  });
});

describe("validateAddress: solana", () => {
  it("accepts an on-curve public key derived from an ed25519 secret key", () => {
    const secret = new Uint8Array(32).fill(7);
    const address = base58.encode(ed25519.getPublicKey(secret));
    expect(validateAddress(address, "solana")).toEqual({ isValid: true, network: "solana", normalized: address });
  });

  it("accepts well-known on-curve keys, including the 32-zero-byte system program", () => {
    expect(validateAddress("11111111111111111111111111111111", "solana").isValid).toBe(true);
    expect(validateAddress("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "solana").isValid).toBe(true);
  });

  it("rejects a program-derived (off-curve) address: no private key exists", () => {
    const tokenProgram = base58.decode("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
    const ataProgram = base58.decode("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
    const wallet = ed25519.getPublicKey(new Uint8Array(32).fill(9));
    const mint = ed25519.getPublicKey(new Uint8Array(32).fill(11));
    // The associated token account of (wallet, mint): seeds wallet, token program, mint.
    const pda = findProgramAddress([wallet, tokenProgram, mint], ataProgram);
    expect(isOnEd25519Curve(pda)).toBe(false);
    const r = validateAddress(base58.encode(pda), "solana");
    expect(r.isValid).toBe(false);
    if (!r.isValid) {
      expect(r.message).toMatch(/program-derived/);
      expect(r.message).toMatch(/no private key/);
    }
  });

  it("rejects 32 bytes that are not an Ed25519 point encoding", () => {
    // y = 2: x^2 = (y^2 - 1) / (d y^2 + 1) has no square root mod p, so no point has this y.
    const bytes = new Uint8Array(32);
    bytes[0] = 2;
    expect(isOnEd25519Curve(bytes)).toBe(false);
    expect(validateAddress(base58.encode(bytes), "solana").isValid).toBe(false);
  });

  it("rejects strings that do not decode to exactly 32 bytes", () => {
    const thirtyOne = base58.encode(new Uint8Array(31).fill(200));
    expect(thirtyOne.length).toBeGreaterThanOrEqual(32);
    const r = validateAddress(thirtyOne, "solana");
    expect(r.isValid).toBe(false);
    if (!r.isValid) expect(r.message).toMatch(/32 bytes/);
    const tooBig = validateAddress("z".repeat(44), "solana"); // 58^44 > 2^256: 33 bytes
    expect(tooBig.isValid).toBe(false);
    if (!tooBig.isValid) expect(tooBig.message).toMatch(/32 bytes/);
  });

  it("rejects the characters base58 leaves out (0, O, I, l) and wrong lengths", () => {
    const good = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
    for (const c of ["0", "O", "I", "l"]) {
      const r = validateAddress(c + good.slice(1), "solana");
      expect(r.isValid, c).toBe(false);
      if (!r.isValid) expect(r.message).toMatch(/base58/);
    }
    expect(validateAddress("1".repeat(31), "solana").isValid).toBe(false);
    expect(validateAddress(good + "1", "solana").isValid).toBe(false);
  });
});

// Peers: ethers' isAddress/getAddress (EIP-55: all-lower and all-upper claim no checksum, mixed case must
// match it) and @solana/web3.js's PublicKey (32 bytes of base58) with PublicKey.isOnCurve.
describe("validateAddress against ethers and @solana/web3.js", () => {
  it("Ethereum: accepts what ethers accepts and normalises to ethers' checksummed form", () => {
    const account = Keypair.generate(); // any bytes: an address is 20 of them
    const lower = `0x${Array.from(account.publicKey.toBytes().slice(0, 20), (b) => b.toString(16).padStart(2, "0")).join("")}`;
    const checksummed = ethersGetAddress(lower);
    const corpus = [
      lower,
      checksummed,
      `0x${lower.slice(2).toUpperCase()}`,
      checksummed.replace(/[a-f]/, (c) => c.toUpperCase()),
      ...EIP55_MIXED,
      ...EIP55_ALL_CAPS,
      ...EIP55_ALL_LOWER,
      lower.slice(0, 41),
      `${lower}0`,
      lower.replace("0x", "0X"),
      lower.slice(2),
      `0x${"g".repeat(40)}`,
    ];
    for (const a of corpus) {
      const ours = validateAddress(a, "ethereum");
      // ethers also takes the 40 digits without 0x; the marketplace asks for the 0x form.
      expect(ours.isValid, a).toBe(ethersIsAddress(a) && a.startsWith("0x"));
      if (ours.isValid) expect(ours.normalized).toBe(ethersGetAddress(a));
    }
  });

  it("Solana: accepts exactly the strings PublicKey reads as 32 bytes that are on the curve", () => {
    const pda = PublicKey.findProgramAddressSync([Buffer.from("vanity")], new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"))[0].toBase58();
    const corpus = [
      Keypair.generate().publicKey.toBase58(),
      Keypair.generate().publicKey.toBase58(),
      "11111111111111111111111111111111",
      pda,
      "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
      base58.encode(new Uint8Array(31).fill(200)),
      base58.encode(new Uint8Array(33).fill(1)),
      "0OIl".repeat(9),
    ];
    for (const s of corpus) {
      let theirs: boolean;
      try {
        const key = new PublicKey(s);
        theirs = key.toBase58() === s && PublicKey.isOnCurve(key.toBytes());
      } catch {
        theirs = false;
      }
      expect(validateAddress(s, "solana").isValid, s).toBe(theirs);
    }
  });
});

describe("sameAddress", () => {
  it("Ethereum ignores letter case, and only letter case", () => {
    expect(sameAddress("ethereum", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266")).toBe(true);
    expect(sameAddress("ethereum", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92267")).toBe(false);
  });
  it("Solana compares exactly: base58 letter case is part of the value", () => {
    expect(sameAddress("solana", "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96", "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96")).toBe(true);
    expect(sameAddress("solana", "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96", "OEYF6KAJKLYHBUR8CIGC6L4D4XTFEPR85FUDGA9KQ96")).toBe(false);
  });
});
