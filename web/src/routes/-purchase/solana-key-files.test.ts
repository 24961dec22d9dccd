import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { solanaKeyForms } from "./solana-key-files";

const seed = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const publicKey = ed25519.getPublicKey(seed);
const address = base58.encode(publicKey);
const secretKey = new Uint8Array([...seed, ...publicKey]);

describe("solanaKeyForms", () => {
  it("gives the CLI's 64-byte JSON array and Phantom's base58 for the canonical stored key", () => {
    const forms = solanaKeyForms(base58.encode(secretKey), address);
    expect(forms.address).toBe(address);
    const array = JSON.parse(forms.keypairJson) as number[];
    expect(array).toHaveLength(64);
    expect(Uint8Array.from(array)).toEqual(secretKey);
    expect(base58.decode(forms.base58)).toEqual(secretKey);
    // What `solana-keygen pubkey` reads back from the file: the last 32 bytes are the address.
    expect(base58.encode(Uint8Array.from(array.slice(32)))).toBe(address);
  });

  it("accepts a 32-byte seed and a JSON array, completing the public half", () => {
    expect(solanaKeyForms(base58.encode(seed), address).base58).toBe(base58.encode(secretKey));
    expect(solanaKeyForms(JSON.stringify(Array.from(secretKey)), address).base58).toBe(base58.encode(secretKey));
  });

  it("refuses a key for another address", () => {
    const other = base58.encode(ed25519.getPublicKey(new Uint8Array(32).fill(9)));
    expect(() => solanaKeyForms(base58.encode(secretKey), other)).toThrow(/does not derive/);
  });

  it("refuses a 64-byte key whose public half is not its seed's", () => {
    const forged = new Uint8Array(secretKey);
    forged[40] ^= 1;
    expect(() => solanaKeyForms(base58.encode(forged), address)).toThrow(/embedded public key/);
  });

  it("refuses text that is no key", () => {
    expect(() => solanaKeyForms("0OIl", address)).toThrow(/base58/);
    expect(() => solanaKeyForms(base58.encode(new Uint8Array(16)), address)).toThrow(/64-byte/);
    expect(() => solanaKeyForms("[1,2,300]", address)).toThrow(/byte array/);
  });
});

// The peer: @solana/web3.js's Keypair, which reads the CLI's keypair file (fromSecretKey on its 64 bytes,
// validating the public half) and a seed (fromSeed). Same keys in, same accept or refuse, same address out.
describe("solanaKeyForms against @solana/web3.js Keypair", () => {
  it("for random keys both forms load in Keypair as the purchased address, and a seed completes as fromSeed does", () => {
    for (let i = 0; i < 20; i++) {
      const kp = Keypair.generate();
      const address = kp.publicKey.toBase58();
      const forms = solanaKeyForms(base58.encode(kp.secretKey), address);
      expect(Keypair.fromSecretKey(Uint8Array.from(JSON.parse(forms.keypairJson) as number[])).publicKey.toBase58()).toBe(address);
      expect(Keypair.fromSecretKey(base58.decode(forms.base58)).publicKey.toBase58()).toBe(address);
      const fromSeed = Keypair.fromSeed(kp.secretKey.slice(0, 32));
      expect(solanaKeyForms(base58.encode(kp.secretKey.slice(0, 32)), address).base58).toBe(base58.encode(fromSeed.secretKey));
    }
  });

  it("accepts exactly the 64-byte keys Keypair.fromSecretKey accepts", () => {
    const kp = Keypair.generate();
    const flipped = (i: number) => {
      const b = new Uint8Array(kp.secretKey);
      b[i] ^= 1;
      return b;
    };
    const zeroSeed = Keypair.fromSeed(new Uint8Array(32)).secretKey;
    const corpus = [
      kp.secretKey,
      flipped(0),
      flipped(31),
      flipped(32),
      flipped(63),
      zeroSeed,
      new Uint8Array(64),
      new Uint8Array([...kp.secretKey.slice(0, 32), ...zeroSeed.slice(32)]),
    ];
    for (const bytes of corpus) {
      let theirs: string | null;
      try {
        theirs = Keypair.fromSecretKey(bytes).publicKey.toBase58();
      } catch {
        theirs = null;
      }
      const claimed = base58.encode(bytes.slice(32));
      let ours: string | null;
      try {
        ours = solanaKeyForms(JSON.stringify(Array.from(bytes)), claimed).address;
      } catch {
        ours = null;
      }
      expect(ours, base58.encode(bytes)).toBe(theirs);
    }
  });
});
