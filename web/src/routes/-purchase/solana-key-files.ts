// The two forms Solana wallets import a key in: the CLI's keypair file (`solana-keygen`, `solana config
// set --keypair`: a JSON array of the 64-byte secret key, seed then public key) and Phantom's / Solflare's
// "Import private key" text (base58 of the same 64 bytes). Both are checked against the purchased address
// before they are offered, so a file saved here always opens the wallet that was bought.
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";

export type SolanaKeyForms = { address: string; keypairJson: string; base58: string };

export class SolanaKeyError extends Error {
  override name = "SolanaKeyError";
}

/** The 64-byte secret key behind a base58 64-byte key, a base58 32-byte seed or a JSON byte array. */
function secretKeyBytes(privateKey: string): Uint8Array {
  const text = privateKey.trim();
  let bytes: Uint8Array;
  if (text.startsWith("[")) {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed) || !parsed.every((n) => Number.isInteger(n) && n >= 0 && n <= 255)) throw new SolanaKeyError("The key is not a byte array.");
    bytes = Uint8Array.from(parsed as number[]);
  } else {
    try {
      bytes = base58.decode(text);
    } catch {
      throw new SolanaKeyError("The key is not base58.");
    }
  }
  if (bytes.length !== 32 && bytes.length !== 64) throw new SolanaKeyError("The key is neither a 64-byte secret key nor a 32-byte seed.");
  const seed = bytes.slice(0, 32);
  const publicKey = ed25519.getPublicKey(seed);
  if (bytes.length === 64 && base58.encode(bytes.subarray(32)) !== base58.encode(publicKey)) {
    throw new SolanaKeyError("The key's embedded public key does not match its seed.");
  }
  const secretKey = new Uint8Array(64);
  secretKey.set(seed);
  secretKey.set(publicKey, 32);
  return secretKey;
}

/** Both import forms of a Solana key, refused unless the key derives `expectedAddress`. */
export function solanaKeyForms(privateKey: string, expectedAddress: string): SolanaKeyForms {
  const secretKey = secretKeyBytes(privateKey);
  const address = base58.encode(secretKey.subarray(32));
  if (address !== expectedAddress) throw new SolanaKeyError("The key does not derive the purchased address.");
  return { address, keypairJson: JSON.stringify(Array.from(secretKey)), base58: base58.encode(secretKey) };
}
