import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
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
