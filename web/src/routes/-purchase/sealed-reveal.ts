// The buyer's side of sealed delivery (docs/key-custody.md#sealed-delivery): a one-time X25519 key pair made in
// this page, its public half sent with the reveal, the answer opened here. The private half is non-extractable
// where the browser allows it (Web Crypto X25519): no script, this page's included, can read it out, and it
// is gone with the page. The opened key must derive the purchased address before the page offers it: HPKE's
// base mode proves who may open an answer, not who sealed it, so this check is what refuses a key swapped in
// on the way. HPKE and the curve libraries load only when a key is revealed, like the key-file savers.
import { base64urlnopad } from "@scure/base";
import type { Network } from "../../../../schema/db";
import type { SupportInfo } from "../../../../schema/purchases";
import { type RevealAnswer, revealPrivateKey } from "../../api/purchases";

const hpke = () => import("../../../../schema/sealed-delivery");

export type DeliveryKey = {
  pair: CryptoKeyPair;
  /** the public half as the reveal sends it: 32 bytes, base64url without padding */
  publicKey: string;
  /** true when the private half is a non-extractable Web Crypto key */
  nonExtractable: boolean;
};

class DeliveryKeyError extends Error {
  override name = "DeliveryKeyError";
}

/**
 * A fresh one-time key pair: Web Crypto's X25519 with a non-extractable private key, else the extractable one
 * @hpke/core makes (still only in this page's memory). Throws DeliveryKeyError when the browser has no X25519.
 */
export async function makeDeliveryKey(
  subtle: Pick<SubtleCrypto, "generateKey" | "exportKey"> = crypto.subtle,
  fallback: () => Promise<Omit<DeliveryKey, "nonExtractable">> = async () => (await hpke()).extractableDeliveryKey(),
): Promise<DeliveryKey> {
  try {
    const pair = (await subtle.generateKey({ name: "X25519" }, false, ["deriveBits"])) as CryptoKeyPair;
    const raw = new Uint8Array(await subtle.exportKey("raw", pair.publicKey));
    return { pair, publicKey: base64urlnopad.encode(raw), nonExtractable: true };
  } catch {
    // Falls through to @hpke/core's own key pair.
  }
  try {
    return { ...(await fallback()), nonExtractable: false };
  } catch {
    throw new DeliveryKeyError(
      "This browser cannot make the X25519 key the key is sealed to (Web Crypto X25519: Chrome 133, Firefox 130, Safari 17 or later). Update it, then reload this page.",
    );
  }
}

/** The reveal as the page shows it: the opened key, or the route's refusal (the server's words, any supportInfo). */
export type OpenedReveal =
  | { success: true; privateKey: string; address: string; network: Network }
  | { success: false; error: string; message: string; supportInfo?: SupportInfo };

/** Whether `privateKey` derives `address` on `network` (the forms the store keeps: 0x-hex, base58 or a JSON byte array). */
export async function derivesAddress(network: Network, privateKey: string, address: string): Promise<boolean> {
  if (network === "solana") {
    const { SolanaKeyError, solanaKeyForms } = await import("./solana-key-files");
    try {
      solanaKeyForms(privateKey, address);
      return true;
    } catch (err) {
      if (err instanceof SolanaKeyError || err instanceof SyntaxError) return false;
      throw err;
    }
  }
  const hex = privateKey.trim().replace(/^0x/i, "");
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false;
  const { ethereumAddressOf } = await import("../../payments/keystore");
  try {
    const secret = Uint8Array.from(hex.match(/../g)!, (h) => Number.parseInt(h, 16));
    const derived = ethereumAddressOf(secret);
    secret.fill(0);
    return derived === address.trim().replace(/^0x/i, "").toLowerCase();
  } catch {
    return false; // outside secp256k1's range
  }
}

type Deps = { makeKey?: () => Promise<DeliveryKey>; reveal?: (id: string, publicKey: string) => Promise<RevealAnswer> };

/**
 * Reveals purchase `id`'s key sealed to a fresh key pair and opens it here; refuses a key that does not derive
 * `expectedAddress` (the purchase's address as the page shows it). The key pair is dropped on return.
 */
export async function revealSealedKey(id: string, network: Network, expectedAddress: string, deps: Deps = {}): Promise<OpenedReveal> {
  const { makeKey = makeDeliveryKey, reveal = revealPrivateKey } = deps;
  let key: DeliveryKey;
  try {
    key = await makeKey();
  } catch (err) {
    if (err instanceof DeliveryKeyError) return { success: false, error: "Unsupported Browser", message: err.message };
    throw err;
  }
  const answer = await reveal(id, key.publicKey);
  if (!answer.success) return answer;
  const { openSealedKey, SealedKeyError } = await hpke();
  let privateKey: string;
  try {
    privateKey = await openSealedKey(key.pair, id, answer.sealed);
  } catch (err) {
    if (!(err instanceof SealedKeyError)) throw err;
    return { success: false, error: "Sealed Key Refused", message: `The key could not be opened in this page (${err.message}). Reload the page to try again.` };
  }
  if (!(await derivesAddress(network, privateKey, expectedAddress))) {
    return {
      success: false,
      error: "Sealed Key Refused",
      message:
        "The key that arrived does not derive the purchased address, so it is not shown. Do not pay again; reload the page, and contact support if it happens again.",
    };
  }
  return { success: true, privateKey, address: answer.address, network: answer.network };
}
