// Security tests of the key vault (docs/key-custody.md). Each refusal test asserts the exact failure
// ("authentication-failed" from the MAC check), so it fails if the protection it covers is removed: a
// ciphertext or iv change would otherwise decrypt to garbage or a padding error, a wrapped-key change would
// fail later inside AES-KW, and a record moved to another row would open.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { base64 } from "@scure/base";
import { constantTimeEqual, lengthPrefixed } from "../vault/encoding";
import { type EncryptedKeyRecord, isSealedUnder, openingSecrets, openKey, rewrapKey, sealingKey, sealKey, VaultError, type VaultErrorCode } from "../vault";

const SECRET = "vault-test-secret-A-0123456789abcdefghij";
const OTHER_SECRET = "vault-test-secret-B-0123456789abcdefghij";
const ETH_KEY = "0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63";
const SOL_KEY = "4NMwxzmYj2uvHuq8xoqhY8RXg63KSVJM1DXkpbmkUY7YQWuoyQgFnnzn6yo3CMnqZasnNPNuAT2TLwQsCaKkUddp";
const A = { listingId: 101, address: "0x00000000000000000000000000000000DeaDBeef" };
const B = { listingId: 102, address: "So1ana1111111111111111111111111111111111111" };

afterEach(() => vi.restoreAllMocks());

async function expectRefused(promise: Promise<unknown>, code: VaultErrorCode = "authentication-failed") {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, "the vault must refuse").toBeInstanceOf(VaultError);
  expect((err as VaultError).code).toBe(code);
  // Never any key material in what a caller might log or return.
  for (const secretish of [ETH_KEY, ETH_KEY.slice(2), SOL_KEY, SECRET, OTHER_SECRET]) expect(String(err)).not.toContain(secretish);
}

/** Flips one bit of a base64 field at byte `index` (negative counts from the end). */
function flip(field: string, index: number): string {
  const bytes = base64.decode(field);
  bytes[(index + bytes.length) % bytes.length] ^= 0x01;
  return base64.encode(bytes);
}

/** A second spelling of a "…x==" base64 field: the last character's 4 unused low bits set to 1. */
function nonCanonical(field: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const last = field.length - 3;
  return `${field.slice(0, last)}${alphabet[alphabet.indexOf(field[last]) | 0b1111]}==`;
}

const sealA = () => sealKey({ secret: SECRET, ...A, privateKey: ETH_KEY });

describe("round trip", () => {
  it("opens what it sealed, for both networks' key forms", async () => {
    const a = await sealA();
    const b = await sealKey({ secret: SECRET, ...B, privateKey: SOL_KEY });
    expect(await openKey({ secret: SECRET, ...A, record: a })).toBe(ETH_KEY);
    expect(await openKey({ secret: SECRET, ...B, record: b })).toBe(SOL_KEY);
  });

  it("stores fields of the documented sizes and never the plaintext", async () => {
    const r = await sealA();
    expect(base64.decode(r.salt)).toHaveLength(32);
    expect(base64.decode(r.iv)).toHaveLength(16);
    expect(base64.decode(r.wrappedKey)).toHaveLength(40);
    expect(base64.decode(r.mac)).toHaveLength(32);
    expect(base64.decode(r.encryptedPrivateKey)).toHaveLength(80); // 66 bytes + PKCS#7 padding
    expect(r.keyVersion).toBe(1);
    const stored = JSON.stringify(r);
    expect(stored).not.toContain(ETH_KEY.slice(2, 20));
    expect(stored).not.toContain(base64.encode(new TextEncoder().encode(ETH_KEY)).slice(0, 20));
  });

  it("uses a fresh data key, iv and salt for every record", async () => {
    const [r1, r2] = await Promise.all([sealA(), sealA()]);
    for (const field of ["encryptedPrivateKey", "salt", "iv", "wrappedKey", "mac"] as const) expect(r1[field]).not.toBe(r2[field]);
  });

  it("round-trips non-ASCII text and a key at the size limit; refuses empty and oversized keys", async () => {
    for (const privateKey of ["ключ-🔑", "k".repeat(2048)]) {
      const r = await sealKey({ secret: SECRET, ...A, privateKey });
      expect(await openKey({ secret: SECRET, ...A, record: r })).toBe(privateKey);
    }
    await expectRefused(sealKey({ secret: SECRET, ...A, privateKey: "" }), "invalid-input");
    await expectRefused(sealKey({ secret: SECRET, ...A, privateKey: "k".repeat(2049) }), "invalid-input");
  });

  it("refuses a short secret, a bad listing id or an empty address", async () => {
    await expectRefused(sealKey({ secret: "too-short", ...A, privateKey: ETH_KEY }), "invalid-input");
    for (const listingId of [0, -1, 1.5, Number.NaN])
      await expectRefused(sealKey({ secret: SECRET, listingId, address: A.address, privateKey: ETH_KEY }), "invalid-input");
    await expectRefused(sealKey({ secret: SECRET, listingId: 1, address: "", privateKey: ETH_KEY }), "invalid-input");
    await expectRefused(openKey({ secret: [], ...A, record: await sealA() }), "invalid-input");
  });
});

describe("tampering is refused by the MAC before anything is decrypted", () => {
  it("tampered ciphertext: first, middle and last byte", async () => {
    const r = await sealA();
    for (const i of [0, 20, -1]) await expectRefused(openKey({ secret: SECRET, ...A, record: { ...r, encryptedPrivateKey: flip(r.encryptedPrivateKey, i) } }));
  });

  it("truncated or extended ciphertext", async () => {
    const r = await sealA();
    const bytes = base64.decode(r.encryptedPrivateKey);
    await expectRefused(openKey({ secret: SECRET, ...A, record: { ...r, encryptedPrivateKey: base64.encode(bytes.slice(0, 64)) } }));
    await expectRefused(
      openKey({ secret: SECRET, ...A, record: { ...r, encryptedPrivateKey: base64.encode(new Uint8Array([...bytes, ...bytes.slice(0, 16)])) } }),
    );
  });

  it("tampered MAC", async () => {
    const r = await sealA();
    for (const i of [0, 31]) await expectRefused(openKey({ secret: SECRET, ...A, record: { ...r, mac: flip(r.mac, i) } }));
  });

  it("tampered iv", async () => {
    const r = await sealA();
    await expectRefused(openKey({ secret: SECRET, ...A, record: { ...r, iv: flip(r.iv, 0) } }));
  });

  it("tampered salt", async () => {
    const r = await sealA();
    await expectRefused(openKey({ secret: SECRET, ...A, record: { ...r, salt: flip(r.salt, 5) } }));
  });

  it("tampered wrapped key (caught by the MAC, not left to AES-KW's own check)", async () => {
    const r = await sealA();
    for (const i of [0, -1]) await expectRefused(openKey({ secret: SECRET, ...A, record: { ...r, wrappedKey: flip(r.wrappedKey, i) } }));
  });

  it("a changed keyVersion", async () => {
    const r = await sealA();
    await expectRefused(openKey({ secret: SECRET, ...A, record: { ...r, keyVersion: 2 } }));
  });

  it("nothing is unwrapped or decrypted for a record that fails the MAC", async () => {
    const r = await sealA();
    const unwrap = vi.spyOn(crypto.subtle, "unwrapKey");
    const decrypt = vi.spyOn(crypto.subtle, "decrypt");
    await expectRefused(openKey({ secret: SECRET, ...A, record: { ...r, encryptedPrivateKey: flip(r.encryptedPrivateKey, -1) } }));
    await expectRefused(openKey({ secret: OTHER_SECRET, ...A, record: r }));
    expect(unwrap).not.toHaveBeenCalled();
    expect(decrypt).not.toHaveBeenCalled();
    // The same spies do see an authentic open, so the assertions above are not vacuous.
    await openKey({ secret: SECRET, ...A, record: r });
    expect(decrypt).toHaveBeenCalledTimes(1);
  });
});

describe("a record is bound to its listing", () => {
  it("ciphertexts swapped between two listings are refused, both ways", async () => {
    const a = await sealA();
    const b = await sealKey({ secret: SECRET, ...B, privateKey: SOL_KEY });
    // Just the encrypted key and its iv moved into the other row.
    await expectRefused(openKey({ secret: SECRET, ...A, record: { ...a, encryptedPrivateKey: b.encryptedPrivateKey, iv: b.iv } }));
    await expectRefused(openKey({ secret: SECRET, ...B, record: { ...b, encryptedPrivateKey: a.encryptedPrivateKey, iv: a.iv } }));
    // Whole records swapped between the rows.
    await expectRefused(openKey({ secret: SECRET, ...A, record: b }));
    await expectRefused(openKey({ secret: SECRET, ...B, record: a }));
  });

  it("a record moved to another listing id (same address) or another address (same id) is refused", async () => {
    const r = await sealA();
    await expectRefused(openKey({ secret: SECRET, listingId: A.listingId + 1, address: A.address, record: r }));
    await expectRefused(openKey({ secret: SECRET, listingId: A.listingId, address: A.address.toLowerCase(), record: r }));
    await expectRefused(openKey({ secret: SECRET, listingId: A.listingId, address: B.address, record: r }));
  });

  it("field boundaries are unambiguous: id 1 + address '23abc' is not id 12 + address '3abc'", async () => {
    const r = await sealKey({ secret: SECRET, listingId: 1, address: "23abc", privateKey: ETH_KEY });
    await expectRefused(openKey({ secret: SECRET, listingId: 12, address: "3abc", record: r }));
    await expectRefused(openKey({ secret: SECRET, listingId: 123, address: "abc", record: r }));
    expect(await openKey({ secret: SECRET, listingId: 1, address: "23abc", record: r })).toBe(ETH_KEY);
  });
});

describe("secrets", () => {
  it("the wrong secret is refused", async () => {
    const r = await sealA();
    await expectRefused(openKey({ secret: OTHER_SECRET, ...A, record: r }));
    expect(await isSealedUnder({ secret: OTHER_SECRET, ...A, record: r })).toBe(false);
    expect(await isSealedUnder({ secret: SECRET, ...A, record: r })).toBe(true);
  });

  it("a keyring opens a record sealed under any of its secrets, and only those", async () => {
    const r = await sealA();
    expect(await openKey({ secret: [OTHER_SECRET, SECRET], ...A, record: r })).toBe(ETH_KEY);
    await expectRefused(openKey({ secret: [OTHER_SECRET, `${OTHER_SECRET}-2`], ...A, record: r }));
  });

  it("reads the sealing key and the opening keyring from the env", () => {
    expect(sealingKey({ KEY_ENCRYPTION_SECRET: SECRET })).toEqual({ secret: SECRET, keyVersion: 1 });
    expect(sealingKey({ KEY_ENCRYPTION_SECRET: SECRET, KEY_ENCRYPTION_VERSION: " 3 " })).toEqual({ secret: SECRET, keyVersion: 3 });
    expect(openingSecrets({ KEY_ENCRYPTION_SECRET: SECRET })).toEqual([SECRET]);
    expect(openingSecrets({ KEY_ENCRYPTION_SECRET: SECRET, KEY_ENCRYPTION_SECRET_PREVIOUS: OTHER_SECRET })).toEqual([SECRET, OTHER_SECRET]);
    expect(() => sealingKey({})).toThrow(VaultError);
    expect(() => sealingKey({ KEY_ENCRYPTION_SECRET: "short" })).toThrow(VaultError);
    for (const bad of ["0", "-1", "1.5", "two"]) expect(() => sealingKey({ KEY_ENCRYPTION_SECRET: SECRET, KEY_ENCRYPTION_VERSION: bad })).toThrow(VaultError);
    expect(() => openingSecrets({ KEY_ENCRYPTION_SECRET: SECRET, KEY_ENCRYPTION_SECRET_PREVIOUS: "short" })).toThrow(VaultError);
  });

  it("the Worker's own env seals at wrangler.toml's KEY_ENCRYPTION_VERSION and opens what it sealed", async () => {
    const key = sealingKey(env);
    expect(key.keyVersion).toBe(Number(env.KEY_ENCRYPTION_VERSION));
    const r = await sealKey({ ...key, ...A, privateKey: ETH_KEY });
    expect(await openKey({ secret: openingSecrets(env), ...A, record: r })).toBe(ETH_KEY);
  });
});

describe("malformed records", () => {
  it("are refused as malformed without touching the crypto", async () => {
    const r = await sealA();
    const cases: Partial<EncryptedKeyRecord>[] = [
      { salt: "not base64!" },
      { iv: r.iv.replace(/==$/, "") }, // unpadded
      { iv: nonCanonical(r.iv) }, // the same 16 bytes spelled with non-zero padding bits
      { salt: base64.encode(new Uint8Array(16)) },
      { iv: base64.encode(new Uint8Array(12)) },
      { wrappedKey: base64.encode(new Uint8Array(32)) },
      { mac: base64.encode(new Uint8Array(16)) },
      { encryptedPrivateKey: "" },
      { encryptedPrivateKey: base64.encode(new Uint8Array(17)) },
      { encryptedPrivateKey: base64.encode(new Uint8Array(4096)) },
      { keyVersion: 0 },
      { keyVersion: 1.5 },
      { keyVersion: "1" as unknown as number },
      { mac: null as unknown as string },
    ];
    for (const patch of cases) await expectRefused(openKey({ secret: SECRET, ...A, record: { ...r, ...patch } }), "malformed-record");
    expect(await isSealedUnder({ secret: SECRET, ...A, record: { ...r, salt: "x" } })).toBe(false);
  });
});

describe("format", () => {
  // Sealed once (in Node, as the rotation script runs) and frozen here: a change to the derivation labels,
  // the MAC layout or the encodings would make every stored key unreadable, and fails this test first.
  // The private key is the widely published web3.js documentation example: public, never use it for funds.
  const KNOWN = {
    secret: "known-answer-secret-do-not-use-0123456789",
    listingId: 42,
    address: "0x000000000000000000000000000000000000dEaD",
    privateKey: "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
    record: {
      encryptedPrivateKey: "AHagNWkP0LfrgOaKTOHAKppbImdjIxpXG83lsxxNycDDodn6uwYLcZoZbMYykRdRpLIY2eEHn6cTdbQY1GeFJGD5u5sJdX3Y2j2AUIZqwmg=",
      salt: "rpWqtduDSHUVPIO2/zJwby9iTBBzlbzVb7ozityqYk4=",
      iv: "SIo+EA09DZz7tgGPGs08Ew==",
      wrappedKey: "YwwMFfY3EJqL/vOTKRvDc+cg2GUsqVmrGt9M1xEXzy93I9EkuDzMlw==",
      mac: "UCzluM3/v0Mff+kzjihYTHNIcPH9SU1rDAoAHHka2SM=",
      keyVersion: 1,
    },
  };

  it("opens a record sealed by an earlier build (and by Node's Web Crypto)", async () => {
    expect(await openKey(KNOWN)).toBe(KNOWN.privateKey);
  });

  it("the MAC is HMAC-SHA256 over the documented length-prefixed layout, keyed by HKDF(secret, salt)", async () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const r = KNOWN.record;
    const ikm = await crypto.subtle.importKey("raw", enc(KNOWN.secret), "HKDF", false, ["deriveBits"]);
    const macKeyBytes = await crypto.subtle.deriveBits(
      { name: "HKDF", hash: "SHA-256", salt: base64.decode(r.salt), info: enc("vanity-market vault v1 record-mac") },
      ikm,
      256,
    );
    const macKey = await crypto.subtle.importKey("raw", macKeyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const fields = [
      enc("vanity-market vault v1 encrypted-key-record"),
      enc(String(r.keyVersion)),
      enc(String(KNOWN.listingId)),
      enc(KNOWN.address),
      base64.decode(r.salt),
      base64.decode(r.iv),
      base64.decode(r.wrappedKey),
      base64.decode(r.encryptedPrivateKey),
    ];
    const input: number[] = [];
    for (const f of fields) input.push((f.length >>> 24) & 255, (f.length >>> 16) & 255, (f.length >>> 8) & 255, f.length & 255, ...f);
    const tag = new Uint8Array(await crypto.subtle.sign("HMAC", macKey, new Uint8Array(input)));
    expect(base64.encode(tag)).toBe(r.mac);
  });

  it("length-prefixing separates field boundaries; the comparison needs equal bytes and lengths", () => {
    const b = (s: string) => new TextEncoder().encode(s);
    expect(lengthPrefixed([b("ab"), b("c")])).not.toEqual(lengthPrefixed([b("a"), b("bc")]));
    expect(Array.from(lengthPrefixed([b("ab")]))).toEqual([0, 0, 0, 2, 97, 98]);
    expect(constantTimeEqual(b("abc"), b("abc"))).toBe(true);
    expect(constantTimeEqual(b("abc"), b("abd"))).toBe(false);
    expect(constantTimeEqual(b("abc"), b("ab"))).toBe(false);
    expect(constantTimeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });
});

describe("rewrapKey", () => {
  it("re-wraps under the new secret without decrypting: same ciphertext and iv, new salt, version bumped", async () => {
    const r = await sealA();
    const decrypt = vi.spyOn(crypto.subtle, "decrypt");
    const next = await rewrapKey({ record: r, oldSecret: SECRET, newSecret: OTHER_SECRET, ...A });
    expect(decrypt).not.toHaveBeenCalled();
    expect(next.encryptedPrivateKey).toBe(r.encryptedPrivateKey);
    expect(next.iv).toBe(r.iv);
    expect(next.salt).not.toBe(r.salt);
    expect(next.keyVersion).toBe(2);
    expect(await openKey({ secret: OTHER_SECRET, ...A, record: next })).toBe(ETH_KEY);
    await expectRefused(openKey({ secret: SECRET, ...A, record: next }));
  });

  it("stamps an explicit version and refuses an invalid one", async () => {
    const r = await sealA();
    expect((await rewrapKey({ record: r, oldSecret: SECRET, newSecret: OTHER_SECRET, ...A, keyVersion: 7 })).keyVersion).toBe(7);
    await expectRefused(rewrapKey({ record: r, oldSecret: SECRET, newSecret: OTHER_SECRET, ...A, keyVersion: 0 }), "invalid-input");
  });

  it("refuses a record that is not authentic under the old secret or not for this listing", async () => {
    const r = await sealA();
    await expectRefused(rewrapKey({ record: r, oldSecret: OTHER_SECRET, newSecret: SECRET, ...A }));
    await expectRefused(rewrapKey({ record: r, oldSecret: SECRET, newSecret: OTHER_SECRET, ...B }));
    await expectRefused(rewrapKey({ record: { ...r, wrappedKey: flip(r.wrappedKey, 3) }, oldSecret: SECRET, newSecret: OTHER_SECRET, ...A }));
  });
});
