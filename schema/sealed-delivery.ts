// Sealed delivery: how a bought key reaches the buyer's page without ever being plain text on the wire
// (docs/key-custody.md#sealed-delivery). The page makes a one-time X25519 key pair, sends the public half
// with the reveal, and the Worker answers the key sealed to it with HPKE (RFC 9180, base mode, the same suite
// as sealed intake, through @hpke/core). The info string names the purchase, so an answer sealed for one
// purchase does not open as another's. Shared by the Worker (sealing), the web app and the scripts (opening).
import * as v from "valibot";
import { fromBase64Url, INTAKE_SUITE, intakeSuite, toBase64Url } from "./sealed-intake";

/** The HPKE suite of a sealed key: the intake's, so one suite is reviewed and one library does both. */
export const DELIVERY_SUITE = INTAKE_SUITE;

/** HPKE info: binds a sealed key to this use and to the purchase it was revealed for. */
export const deliveryInfo = (transactionId: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(new TextEncoder().encode(`vanity-market sealed delivery v1 ${transactionId}`));

/** The refusal an old page gets: it asked for the plain key, which the Worker no longer sends. */
export const RELOAD_FOR_SEALED_REVEAL =
  "This page is out of date: reload it to reveal the key. The key is now sealed to a one-time key your browser makes, and this page did not send one.";

/** A 32-byte X25519 public key, base64url without padding (43 characters). */
const isDeliveryPublicKey = (text: string): boolean => fromBase64Url(text, 32) !== null;

/** POST /api/transactions/:id/reveal-private-key: the page's one-time public key. */
export const RevealRequest = v.object({
  publicKey: v.pipe(
    v.string("must be a string"),
    v.check(isDeliveryPublicKey, "must be a 32-byte X25519 public key, base64url without padding (43 characters)"),
  ),
});
export type RevealRequest = v.InferOutput<typeof RevealRequest>;

/** The key as the reveal answers it: HPKE's enc (the Worker's one-time public key) and the ciphertext, base64url. */
export type SealedKey = { suite: typeof DELIVERY_SUITE; enc: string; ciphertext: string };

/** Seals one key for one purchase: made from the page's public key before anything is read, used once. */
export type DeliverySealer = (privateKey: string) => Promise<SealedKey>;

/**
 * The sealer for the page's public key and `transactionId`. HPKE's key agreement runs here, so a public key
 * that is not a usable X25519 point (one of small order, whose shared secret would be all zeros) throws now,
 * before the purchase is read.
 */
export async function deliverySealer(publicKey: string, transactionId: string): Promise<DeliverySealer> {
  const raw = fromBase64Url(publicKey, 32);
  if (!raw) throw new Error("the public key is not 32 bytes of base64url");
  const suite = intakeSuite();
  const recipientPublicKey = await suite.kem.deserializePublicKey(raw.buffer);
  const sender = await suite.createSenderContext({ recipientPublicKey, info: deliveryInfo(transactionId) });
  const enc = toBase64Url(new Uint8Array(sender.enc));
  return async (privateKey) => {
    const plain = new TextEncoder().encode(privateKey);
    try {
      return { suite: DELIVERY_SUITE, enc, ciphertext: toBase64Url(new Uint8Array(await sender.seal(plain))) };
    } finally {
      plain.fill(0);
    }
  };
}

/** Why a sealed key did not open: another suite, malformed fields, or an AEAD failure (another key, purchase, or an altered answer). */
export class SealedKeyError extends Error {
  override name = "SealedKeyError";
}

/**
 * Opens a sealed key with the page's key pair (the pair, not the private key alone: a non-extractable private
 * key cannot give its public half back, and HPKE needs it). Throws SealedKeyError when it does not open.
 */
export async function openSealedKey(recipientKey: CryptoKeyPair, transactionId: string, sealed: SealedKey): Promise<string> {
  if (sealed.suite !== DELIVERY_SUITE) throw new SealedKeyError(`the key is sealed with ${JSON.stringify(sealed.suite)}, not ${DELIVERY_SUITE}`);
  const enc = fromBase64Url(sealed.enc, 32);
  const ciphertext = fromBase64Url(sealed.ciphertext);
  if (!enc || !ciphertext) throw new SealedKeyError("the sealed key's enc and ciphertext must be base64url (enc: 32 bytes)");
  let plain: ArrayBuffer;
  try {
    plain = await intakeSuite().open({ recipientKey, enc: enc.buffer, info: deliveryInfo(transactionId) }, ciphertext.buffer);
  } catch {
    throw new SealedKeyError("the sealed key does not open with this page's key for this purchase");
  }
  const bytes = new Uint8Array(plain);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } finally {
    bytes.fill(0);
  }
}

/** A one-time delivery key pair made by @hpke/core (extractable: for the scripts, tests and browsers that refuse a non-extractable X25519 key). */
export async function extractableDeliveryKey(): Promise<{ pair: CryptoKeyPair; publicKey: string }> {
  const suite = intakeSuite();
  const pair = await suite.kem.generateKeyPair();
  return { pair, publicKey: toBase64Url(new Uint8Array(await suite.kem.serializePublicKey(pair.publicKey))) };
}
