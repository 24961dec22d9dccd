import { Wallet as EthereumjsWallet } from "@ethereumjs/wallet";
import { hexToBytes } from "@noble/hashes/utils.js";
import { decryptKeystoreJson, encryptKeystoreJson } from "ethers";
import { describe, expect, it } from "vitest";
import { DEV_ACCOUNTS } from "../../../schema/dev-accounts";
import { decryptKeystore, encryptKeystore, ethereumAddressOf, KEYSTORE_LIMITS, KEYSTORE_SCRYPT, keystoreFileName, KeystoreError } from "./keystore";

// go-ethereum's published V3 test vectors, copied as literal test data from
// accounts/keystore/testdata/v3_test_vector.json (the first two are the Web3 Secret Storage Definition wiki
// page's scrypt and PBKDF2 vectors; the last two are keys whose leading zero bytes geth drops).
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
const GETH_PBKDF2_VECTOR = {
  crypto: {
    cipher: "aes-128-ctr",
    cipherparams: { iv: "6087dab2f9fdbbfaddc31a909735c1e6" },
    ciphertext: "5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46",
    kdf: "pbkdf2",
    kdfparams: { c: 262144, dklen: 32, prf: "hmac-sha256", salt: "ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd" },
    mac: "517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2",
  },
  id: "3198bc9c-6672-5ab3-d995-4942343ae5b6",
  version: 3,
};
const GETH_VECTOR_KEY = "0x7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d";
const GETH_31_BYTE_KEY = {
  json: {
    crypto: {
      cipher: "aes-128-ctr",
      cipherparams: { iv: "e0c41130a323adc1446fc82f724bca2f" },
      ciphertext: "9517cd5bdbe69076f9bf5057248c6c050141e970efa36ce53692d5d59a3984",
      kdf: "scrypt",
      kdfparams: { dklen: 32, n: 2, r: 8, p: 1, salt: "711f816911c92d649fb4c84b047915679933555030b3552c1212609b38208c63" },
      mac: "d5e116151c6aa71470e67a7d42c9620c75c4d23229847dcc127794f0732b0db5",
    },
    id: "fecfc4ce-e956-48fd-953b-30f8b52ed66c",
    version: 3,
  },
  password: "foo",
  priv: "fa7b3db73dc7dfdf8c5fbdb796d741e4488628c41fc4febd9160a866ba0f35",
};
const GETH_30_BYTE_KEY = {
  json: {
    crypto: {
      cipher: "aes-128-ctr",
      cipherparams: { iv: "3ca92af36ad7c2cd92454c59cea5ef00" },
      ciphertext: "108b7d34f3442fc26ab1ab90ca91476ba6bfa8c00975a49ef9051dc675aa",
      kdf: "scrypt",
      kdfparams: { dklen: 32, n: 2, r: 8, p: 1, salt: "d0769e608fb86cda848065642a9c6fa046845c928175662b8e356c77f914cd3b" },
      mac: "75d0e6759f7b3cefa319c3be41680ab6beea7d8328653474bd06706d4cc67420",
    },
    id: "a37e1559-5955-450d-8075-7b8931b392b2",
    version: 3,
  },
  password: "foo",
  priv: "81c29e8142bb6a81bef5a92bda7a8328a5c85bb2f9542e76f9b0f94fc018",
};

// Cheap parameters for the round trips; the cost parameters themselves are checked separately.
const FAST = { n: 1024, r: 8, p: 1 };
const buyer = DEV_ACCOUNTS.buyer;

describe("V3 keystore", () => {
  it("opens go-ethereum's published scrypt test vector", async () => {
    expect(await decryptKeystore(GETH_VECTOR, "testpassword")).toBe(GETH_VECTOR_KEY);
  }, 30_000);

  it("opens go-ethereum's published PBKDF2 test vector, and refuses it with a wrong password", async () => {
    expect(await decryptKeystore(GETH_PBKDF2_VECTOR, "testpassword")).toBe(GETH_VECTOR_KEY);
    await expect(decryptKeystore(GETH_PBKDF2_VECTOR, "testpassworD")).rejects.toThrow(/^Wrong password, or the file is damaged\.$/);
  }, 30_000);

  it("opens go-ethereum's 31- and 30-byte key vectors as the zero-padded 32-byte keys", async () => {
    for (const v of [GETH_31_BYTE_KEY, GETH_30_BYTE_KEY]) {
      expect(await decryptKeystore(v.json, v.password)).toBe(`0x${v.priv.padStart(64, "0")}`);
    }
  });

  it("refuses the vector with a wrong password (MAC check)", async () => {
    await expect(decryptKeystore(GETH_VECTOR, "testpassworD")).rejects.toThrow(/^Wrong password, or the file is damaged\.$/);
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

  it("refuses what is not a version 3 keystore, naming what is wrong", async () => {
    await expect(decryptKeystore({ ...GETH_VECTOR, version: 1 }, "testpassword")).rejects.toThrow(/version 1: only version 3/);
    await expect(decryptKeystore(null, "x")).rejects.toThrow(/expected a JSON object/);
    await expect(decryptKeystore([GETH_VECTOR], "x")).rejects.toThrow(/expected a JSON object/);
    await expect(decryptKeystore({ version: 3 }, "x")).rejects.toThrow(/no crypto section/);
  });
  it("derives the address of a key", () => {
    expect(ethereumAddressOf(hexToBytes(DEV_ACCOUNTS.admin.privateKey.slice(2)))).toBe(DEV_ACCOUNTS.admin.address.slice(2).toLowerCase());
  });

  it("names the file as geth does", () => {
    expect(keystoreFileName("0xABCDEF", new Date("2026-11-23T10:00:00.000Z"))).toBe("UTC--2026-11-23T10-00-00.000Z--abcdef.json");
  });
});

// Files other tools write, made at test time by the peer libraries themselves (devDependencies), and the
// files this page writes opened by them. Cheap KDF settings where a tool lets us choose them.
describe("V3 keystores from every wallet tool", () => {
  const key = buyer.privateKey.toLowerCase();
  const password = "correct horse battery staple";

  it("opens ethers 6's encryptKeystoreJson file, which names the section Crypto", async () => {
    const json = JSON.parse(await encryptKeystoreJson({ address: buyer.address, privateKey: key }, password, { scrypt: { N: 1024 } }));
    expect(json.Crypto).toBeDefined();
    expect(json.crypto).toBeUndefined();
    expect(await decryptKeystore(json, password)).toBe(key);
    await expect(decryptKeystore(json, `${password}!`)).rejects.toThrow(/^Wrong password, or the file is damaged\.$/);
  });

  it("opens ethers 6's file at its default cost (scrypt N = 2^17)", async () => {
    const json = JSON.parse(await encryptKeystoreJson({ address: buyer.address, privateKey: key }, password));
    expect(json.Crypto.kdfparams.n).toBe(131072);
    expect(await decryptKeystore(json, password)).toBe(key);
  }, 60_000);

  it("opens @ethereumjs/wallet's toV3 files, scrypt and PBKDF2 (its default c = 262,144)", async () => {
    const wallet = EthereumjsWallet.fromPrivateKey(hexToBytes(key.slice(2)));
    const scrypt = await wallet.toV3(password, { kdf: "scrypt", n: 1024 });
    const pbkdf2 = await wallet.toV3(password, { kdf: "pbkdf2" });
    expect(scrypt.crypto.kdf).toBe("scrypt");
    expect(pbkdf2.crypto.kdfparams).toMatchObject({ prf: "hmac-sha256", c: 262144 });
    expect(await decryptKeystore(scrypt, password)).toBe(key);
    expect(await decryptKeystore(pbkdf2, password)).toBe(key);
    await expect(decryptKeystore(pbkdf2, "wrong password")).rejects.toThrow(/^Wrong password, or the file is damaged\.$/);
  }, 60_000);

  it("writes files that ethers and @ethereumjs/wallet open to the same key", async () => {
    const ks = await encryptKeystore(key, password, { scrypt: FAST });
    const text = JSON.stringify(ks);
    const account = await decryptKeystoreJson(text, password);
    expect(account.privateKey).toBe(key);
    expect(account.address).toBe(buyer.address);
    const wallet = await EthereumjsWallet.fromV3(text, password);
    expect(wallet.getPrivateKeyString()).toBe(key);
    await expect(decryptKeystoreJson(text, "wrong password")).rejects.toThrow();
  });

  it("writes a file at its default cost that ethers opens", async () => {
    const ks = await encryptKeystore(key, password);
    expect((await decryptKeystoreJson(JSON.stringify(ks), password)).privateKey).toBe(key);
  }, 60_000);
});

describe("what a keystore may not ask for", () => {
  const withParams = (base: typeof GETH_VECTOR | typeof GETH_PBKDF2_VECTOR, over: Record<string, unknown>, crypto: Record<string, unknown> = {}) => ({
    ...base,
    crypto: { ...base.crypto, ...crypto, kdfparams: { ...base.crypto.kdfparams, ...over } },
  });

  it("names the unsupported cipher, key derivation and PBKDF2 function", async () => {
    await expect(decryptKeystore(withParams(GETH_VECTOR, {}, { cipher: "aes-128-cbc" }), "testpassword")).rejects.toThrow(/Unsupported cipher "aes-128-cbc"/);
    await expect(decryptKeystore(withParams(GETH_VECTOR, {}, { kdf: "argon2id" }), "testpassword")).rejects.toThrow(/Unsupported key derivation "argon2id"/);
    await expect(decryptKeystore(withParams(GETH_PBKDF2_VECTOR, { prf: "hmac-sha512" }), "testpassword")).rejects.toThrow(
      /Unsupported PBKDF2 function "hmac-sha512"/,
    );
    await expect(decryptKeystore(withParams(GETH_VECTOR, { dklen: 64 }), "testpassword")).rejects.toThrow(/derived key length 64/);
  });

  it("refuses scrypt and PBKDF2 settings past the limits before computing anything", async () => {
    // Each of these would take minutes or gigabytes if it were computed; the refusal comes first.
    const hostile: [Record<string, unknown>, typeof GETH_VECTOR | typeof GETH_PBKDF2_VECTOR][] = [
      [{ n: 2 ** 20, r: 8, p: 1 }, GETH_VECTOR], // 1 GiB
      [{ n: 2 ** 18, r: 1, p: 64 }, GETH_VECTOR], // 2^24 work in 32 MiB
      [{ n: 2 ** 30, r: 1, p: 1 }, GETH_VECTOR],
      [{ c: 2 ** 31 }, GETH_PBKDF2_VECTOR],
    ];
    for (const [over, base] of hostile) {
      await expect(decryptKeystore(withParams(base, over), "testpassword"), JSON.stringify(over)).rejects.toThrow(/more than this page computes/);
    }
    expect(128 * 2 ** 18 * 8).toBeLessThanOrEqual(KEYSTORE_LIMITS.scryptMemoryBytes); // geth's standard fits
  });

  it("refuses malformed parameters and fields with a KeystoreError, never a TypeError", async () => {
    const damaged: unknown[] = [
      withParams(GETH_VECTOR, { n: 1000 }),
      withParams(GETH_VECTOR, { n: "262144" }),
      withParams(GETH_VECTOR, { r: 0 }),
      withParams(GETH_VECTOR, { p: -1 }),
      withParams(GETH_VECTOR, { salt: "xyz" }),
      withParams(GETH_PBKDF2_VECTOR, { c: 1.5 }),
      withParams(GETH_VECTOR, {}, { ciphertext: "abc" }),
      withParams(GETH_VECTOR, {}, { ciphertext: "00".repeat(33) }),
      withParams(GETH_VECTOR, {}, { mac: "00" }),
      withParams(GETH_VECTOR, {}, { cipherparams: { iv: "00" } }),
      withParams(GETH_VECTOR, {}, { cipherparams: null }),
      { ...GETH_VECTOR, crypto: { ...GETH_VECTOR.crypto, kdfparams: null } },
      { ...GETH_VECTOR, crypto: "yes" },
    ];
    for (const file of damaged) {
      await expect(decryptKeystore(file, "testpassword"), JSON.stringify(file)).rejects.toBeInstanceOf(KeystoreError);
    }
  });

  it("refuses a file with both a crypto and a Crypto section, and one whose address is not its key's", async () => {
    await expect(decryptKeystore({ ...GETH_VECTOR, Crypto: GETH_VECTOR.crypto }, "testpassword")).rejects.toThrow(/both a crypto and a Crypto/);
    const ks = await encryptKeystore(buyer.privateKey, "password-one", { scrypt: FAST });
    await expect(decryptKeystore({ ...ks, address: DEV_ACCOUNTS.admin.address.slice(2).toLowerCase() }, "password-one")).rejects.toThrow(
      /address does not belong/,
    );
    expect(await decryptKeystore({ ...ks, address: `0x${ks.address.toUpperCase()}` }, "password-one")).toBe(buyer.privateKey.toLowerCase());
  });
});
