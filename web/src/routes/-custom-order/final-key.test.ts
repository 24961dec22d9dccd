import { encryptKeystoreJson } from "ethers";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { orderAddress, publicKeyOf, randomSecret, scalarToHex } from "../../../../schema/split-key";
import { encryptKeystore, KeystoreError } from "../../payments/keystore";
import { FinalKeyError, openFinalKey } from "./final-key";

const FAST = { n: 1024, r: 8, p: 1 };

async function delivered(variant = 4) {
  const secret = randomSecret();
  const offset = randomSecret();
  const file = JSON.stringify(await encryptKeystore(scalarToHex(secret), "password-123", { scrypt: FAST }));
  const order = { publicKey: publicKeyOf(secret), address: orderAddress(publicKeyOf(secret), offset, variant), offset: scalarToHex(offset), variant };
  return { secret, offset, file, order };
}

describe("openFinalKey", () => {
  it("opens the file, applies offset and variant, and returns a key that derives the ordered address", async () => {
    for (const variant of [0, 1, 2, 3, 4, 5]) {
      const { file, order } = await delivered(variant);
      const key = await openFinalKey(order, file, "password-123");
      expect(privateKeyToAddress(key as `0x${string}`)).toBe(order.address);
    }
  });

  it("refuses a wrong password, another order's file, a damaged answer and an undelivered order", async () => {
    const { file, order } = await delivered();
    await expect(openFinalKey(order, file, "wrong-password")).rejects.toBeInstanceOf(KeystoreError);
    const other = await delivered();
    await expect(openFinalKey(order, other.file, "password-123")).rejects.toThrow(/different secret/);
    const tampered = { ...order, variant: (order.variant + 1) % 6 };
    await expect(openFinalKey(tampered, file, "password-123")).rejects.toThrow(/do not use it/);
    await expect(openFinalKey({ ...order, offset: null, variant: null }, file, "password-123")).rejects.toBeInstanceOf(FinalKeyError);
    await expect(openFinalKey(order, "not json", "password-123")).rejects.toThrow(/not JSON/);
  });

  it("opens the secret file after ethers re-saved it (its Crypto spelling), reporting progress", async () => {
    const { secret, order } = await delivered();
    const resaved = await encryptKeystoreJson(
      { address: privateKeyToAddress(scalarToHex(secret) as `0x${string}`), privateKey: scalarToHex(secret) },
      "another-password",
      { scrypt: { N: 1024 } },
    );
    expect(JSON.parse(resaved).Crypto).toBeDefined();
    const seen: number[] = [];
    const key = await openFinalKey(order, resaved, "another-password", (f) => seen.push(f));
    expect(privateKeyToAddress(key as `0x${string}`)).toBe(order.address);
    expect(seen.at(-1)).toBe(1);
  });
});
