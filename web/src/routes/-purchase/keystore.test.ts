import { describe, expect, it } from "vitest";
import { DEV_ACCOUNTS } from "../../../../scripts/dev-accounts";
import { decryptKeystore, encryptKeystore, ethereumAddressOf, KEYSTORE_SCRYPT, keystoreFileName, KeystoreError } from "./keystore";
import { hexToBytes } from "@noble/hashes/utils.js";

// The scrypt vector of the Web3 Secret Storage Definition (go-ethereum's accounts/keystore tests use it).
const GETH_VECTOR = {
  crypto: {
    cipher: "aes-128-ctr",
    cipherparams: { iv: "83dbcc02d8ccb40e466191a123791e0e" },
    ciphertext: "d172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c",
    kdf: "scrypt",
    kdfparams: { dklen: 32, n: 262144, p: 8, r: 1, salt: "ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19" },
    mac: "2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097",
  },
  id: "3198bc9c-6672-5ab3-d995-4942343ae5b6",
  version: 3,
};
const GETH_VECTOR_KEY = "0x7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d";

// Cheap parameters for the round trips; the cost parameters themselves are checked separately.
const FAST = { n: 1024, r: 8, p: 1 };
const buyer = DEV_ACCOUNTS.buyer;

describe("V3 keystore", () => {
  it("opens go-ethereum's published scrypt test vector", async () => {
    expect(await decryptKeystore(GETH_VECTOR, "testpassword")).toBe(GETH_VECTOR_KEY);
  }, 30_000);

  it("refuses the vector with a wrong password (MAC check)", async () => {
    await expect(decryptKeystore(GETH_VECTOR, "testpassworD")).rejects.toThrow(/MAC mismatch/);
  }, 30_000);

  it("reproduces the vector's ciphertext and MAC from its key, salt and IV", async () => {
    const ks = await encryptKeystore(GETH_VECTOR_KEY, "testpassword", {
      salt: hexToBytes(GETH_VECTOR.crypto.kdfparams.salt),
      iv: hexToBytes(GETH_VECTOR.crypto.cipherparams.iv),
      scrypt: { n: 262144, r: 1, p: 8 },
    });
    expect(ks.crypto.ciphertext).toBe(GETH_VECTOR.crypto.ciphertext);
    expect(ks.crypto.mac).toBe(GETH_VECTOR.crypto.mac);
  }, 30_000);

  it("writes the MetaMask / geth shape and decrypts back to the same key", async () => {
    const ks = await encryptKeystore(buyer.privateKey, "correct horse battery", { scrypt: FAST });
    expect(ks.version).toBe(3);
    expect(ks.crypto.cipher).toBe("aes-128-ctr");
    expect(ks.crypto.kdf).toBe("scrypt");
    expect(ks.crypto.kdfparams).toMatchObject({ dklen: 32, n: 1024, r: 8, p: 1 });
    expect(ks.crypto.kdfparams.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(ks.crypto.cipherparams.iv).toMatch(/^[0-9a-f]{32}$/);
    expect(ks.crypto.ciphertext).toMatch(/^[0-9a-f]{64}$/);
    expect(ks.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ks.address).toBe(buyer.address.slice(2).toLowerCase());
    expect(await decryptKeystore(JSON.parse(JSON.stringify(ks)), "correct horse battery")).toBe(buyer.privateKey.toLowerCase());
    await expect(decryptKeystore(ks, "correct horse batterY")).rejects.toBeInstanceOf(KeystoreError);
  });

  it("uses a fresh salt and IV each time", async () => {
    const a = await encryptKeystore(buyer.privateKey, "password-one", { scrypt: FAST });
    const b = await encryptKeystore(buyer.privateKey, "password-one", { scrypt: FAST });
    expect(a.crypto.kdfparams.salt).not.toBe(b.crypto.kdfparams.salt);
    expect(a.crypto.cipherparams.iv).not.toBe(b.crypto.cipherparams.iv);
    expect(a.crypto.ciphertext).not.toBe(b.crypto.ciphertext);
  });

  it("defaults to scrypt N=2^17, r=8, p=1", () => {
    expect(KEYSTORE_SCRYPT).toEqual({ n: 131072, r: 8, p: 1 });
  });

  it("treats the password as UTF-8 bytes (no normalisation), like geth", async () => {
    const composed = "pässwörd-é"; // é as one code point
    const decomposed = composed.normalize("NFD");
    const ks = await encryptKeystore(buyer.privateKey, composed, { scrypt: FAST });
    expect(await decryptKeystore(ks, composed)).toBe(buyer.privateKey.toLowerCase());
    await expect(decryptKeystore(ks, decomposed)).rejects.toThrow(KeystoreError);
  });

  it("refuses short passwords, malformed keys and keys outside secp256k1", async () => {
    await expect(encryptKeystore(buyer.privateKey, "short")).rejects.toThrow(/at least 8/);
    await expect(encryptKeystore("0x1234", "long enough password")).rejects.toThrow(/64 hexadecimal/);
    await expect(encryptKeystore(`0x${"0".repeat(64)}`, "long enough password")).rejects.toThrow(/outside the range/);
    await expect(encryptKeystore(`0x${"f".repeat(64)}`, "long enough password")).rejects.toThrow(/outside the range/);
  });

  it("refuses what is not a V3 scrypt keystore", async () => {
    await expect(decryptKeystore({ ...GETH_VECTOR, version: 1 }, "testpassword")).rejects.toThrow(/Not a V3/);
    await expect(decryptKeystore({ ...GETH_VECTOR, crypto: { ...GETH_VECTOR.crypto, kdf: "pbkdf2" } }, "x")).rejects.toThrow(/Not a V3/);
    await expect(decryptKeystore(null, "x")).rejects.toThrow(/Not a V3/);
  });

  it("derives the address of a key", () => {
    expect(ethereumAddressOf(hexToBytes(DEV_ACCOUNTS.admin.privateKey.slice(2)))).toBe(DEV_ACCOUNTS.admin.address.slice(2).toLowerCase());
  });

  it("names the file as geth does", () => {
    expect(keystoreFileName("0xABCDEF", new Date("2026-11-23T10:00:00.000Z"))).toBe("UTC--2026-11-23T10-00-00.000Z--abcdef.json");
  });
});
