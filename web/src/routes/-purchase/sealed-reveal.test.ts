// The buyer's side of sealed delivery against the real sealing code (schema/sealed-delivery.ts, what the Worker
// runs): the page's key pair, opening, and each way an answer is refused.
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import type { Network } from "../../../../schema/db";
import { deliverySealer, extractableDeliveryKey } from "../../../../schema/sealed-delivery";
import type { RevealAnswer } from "../../api/purchases";
import { derivesAddress, makeDeliveryKey, revealSealedKey } from "./sealed-reveal";

// anvil's first development account: a public test key.
const ETH_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ETH_ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const seed = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);
const SOL_ADDRESS = base58.encode(ed25519.getPublicKey(seed));
const SOL_KEY = base58.encode(new Uint8Array([...seed, ...ed25519.getPublicKey(seed)]));
const ID = "0b8f7c1e-4a2d-4f5e-9c3b-7d6e5f4a3b2c";

/** A reveal that seals `privateKey` the way the Worker does, to the public key it is given, for `sealedFor`. */
const worker =
  (privateKey: string, network: Network, address: string, sealedFor = ID) =>
  async (_id: string, publicKey: string): Promise<RevealAnswer> => {
    const seal = await deliverySealer(publicKey, sealedFor);
    return { success: true, sealed: await seal(privateKey), address, network };
  };

describe("makeDeliveryKey", () => {
  it("makes a non-extractable X25519 pair, a fresh one each time, whose public half is 32 bytes of base64url", async () => {
    const a = await makeDeliveryKey();
    const b = await makeDeliveryKey();
    expect(a.nonExtractable).toBe(true);
    expect(a.pair.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey("jwk", a.pair.privateKey)).rejects.toThrow();
    expect(a.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b.publicKey).not.toBe(a.publicKey);
  });

  it("falls back to @hpke/core's key pair where Web Crypto refuses a non-extractable X25519 key, and says so", async () => {
    const refusing = {
      generateKey: () => Promise.reject(new DOMException("Unrecognized name", "NotSupportedError")),
      exportKey: crypto.subtle.exportKey.bind(crypto.subtle),
    };
    const key = await makeDeliveryKey(refusing as unknown as Pick<SubtleCrypto, "generateKey" | "exportKey">);
    expect(key.nonExtractable).toBe(false);
    const opened = await revealSealedKey(ID, "ethereum", ETH_ADDRESS, { makeKey: async () => key, reveal: worker(ETH_KEY, "ethereum", ETH_ADDRESS) });
    expect(opened).toEqual({ success: true, privateKey: ETH_KEY, address: ETH_ADDRESS, network: "ethereum" });
  });
});

describe("revealSealedKey", () => {
  it("opens the key sealed to this page's key pair, for Ethereum and Solana", async () => {
    expect(await revealSealedKey(ID, "ethereum", ETH_ADDRESS, { reveal: worker(ETH_KEY, "ethereum", ETH_ADDRESS) })).toEqual({
      success: true,
      privateKey: ETH_KEY,
      address: ETH_ADDRESS,
      network: "ethereum",
    });
    expect(await revealSealedKey(ID, "solana", SOL_ADDRESS, { reveal: worker(SOL_KEY, "solana", SOL_ADDRESS) })).toEqual({
      success: true,
      privateKey: SOL_KEY,
      address: SOL_ADDRESS,
      network: "solana",
    });
  });

  it("sends only the public half: the request carries 43 base64url characters, never key material", async () => {
    const sent: string[] = [];
    await revealSealedKey(ID, "ethereum", ETH_ADDRESS, {
      reveal: (id, publicKey) => {
        sent.push(publicKey);
        return worker(ETH_KEY, "ethereum", ETH_ADDRESS)(id, publicKey);
      },
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("refuses an answer sealed to another key pair: it does not open", async () => {
    const other = await extractableDeliveryKey();
    const opened = await revealSealedKey(ID, "ethereum", ETH_ADDRESS, { reveal: (id) => worker(ETH_KEY, "ethereum", ETH_ADDRESS)(id, other.publicKey) });
    expect(opened).toMatchObject({ success: false, error: "Sealed Key Refused" });
    expect(JSON.stringify(opened)).not.toContain(ETH_KEY.slice(2));
  });

  it("refuses an answer sealed for another purchase (replayed): the purchase id is in HPKE's info", async () => {
    const opened = await revealSealedKey(ID, "ethereum", ETH_ADDRESS, { reveal: worker(ETH_KEY, "ethereum", ETH_ADDRESS, crypto.randomUUID()) });
    expect(opened).toMatchObject({ success: false, error: "Sealed Key Refused", message: expect.stringContaining("could not be opened") });
  });

  it("refuses an altered ciphertext", async () => {
    const opened = await revealSealedKey(ID, "ethereum", ETH_ADDRESS, {
      reveal: async (id, publicKey) => {
        const answer = await worker(ETH_KEY, "ethereum", ETH_ADDRESS)(id, publicKey);
        if (!answer.success) return answer;
        const c = answer.sealed.ciphertext;
        return { ...answer, sealed: { ...answer.sealed, ciphertext: `${c[0] === "A" ? "B" : "A"}${c.slice(1)}` } };
      },
    });
    expect(opened).toMatchObject({ success: false, error: "Sealed Key Refused" });
  });

  it("refuses a well-sealed key that does not derive the purchased address (one sealed by someone in the middle)", async () => {
    const swapped = `0x${"11".repeat(32)}`;
    const opened = await revealSealedKey(ID, "ethereum", ETH_ADDRESS, { reveal: worker(swapped, "ethereum", ETH_ADDRESS) });
    expect(opened).toMatchObject({ success: false, message: expect.stringContaining("does not derive the purchased address") });
    expect(await revealSealedKey(ID, "solana", SOL_ADDRESS, { reveal: worker(ETH_KEY, "solana", SOL_ADDRESS) })).toMatchObject({ success: false });
  });

  it("passes the route's refusal through, and says when the browser has no X25519", async () => {
    const refusal = { success: false as const, error: "Conflict", message: "The private key has been permanently destroyed" };
    expect(await revealSealedKey(ID, "ethereum", ETH_ADDRESS, { reveal: async () => refusal })).toEqual(refusal);
    const noX25519 = () => Promise.reject(new DOMException("Unrecognized name", "NotSupportedError"));
    const none = await revealSealedKey(ID, "ethereum", ETH_ADDRESS, {
      makeKey: () => makeDeliveryKey({ generateKey: noX25519, exportKey: noX25519 }, noX25519),
      reveal: async () => {
        throw new Error("must not be called without a key");
      },
    });
    expect(none).toMatchObject({ success: false, error: "Unsupported Browser", message: expect.stringContaining("Update it, then reload") });
  });
});

describe("derivesAddress", () => {
  it("accepts the stored forms and refuses another address or a malformed key", async () => {
    expect(await derivesAddress("ethereum", ETH_KEY, ETH_ADDRESS)).toBe(true);
    expect(await derivesAddress("ethereum", ETH_KEY.slice(2).toUpperCase(), ETH_ADDRESS.toLowerCase())).toBe(true);
    expect(await derivesAddress("ethereum", ETH_KEY, `0x${"0".repeat(40)}`)).toBe(false);
    expect(await derivesAddress("ethereum", `0x${"0".repeat(64)}`, ETH_ADDRESS)).toBe(false);
    expect(await derivesAddress("ethereum", "0x1234", ETH_ADDRESS)).toBe(false);
    expect(await derivesAddress("solana", SOL_KEY, SOL_ADDRESS)).toBe(true);
    expect(await derivesAddress("solana", JSON.stringify([...base58.decode(SOL_KEY)]), SOL_ADDRESS)).toBe(true);
    expect(await derivesAddress("solana", SOL_KEY, ETH_ADDRESS)).toBe(false);
    expect(await derivesAddress("solana", "[1,2", SOL_ADDRESS)).toBe(false);
  });
});
