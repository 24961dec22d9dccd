// After settlement: the buyer's browser opens the saved secret-key file with its password, adds the offset the
// grinder found (with its variant's factor) and checks that the result derives the ordered address before
// offering it. Nothing here is sent anywhere.
import { addressOfPrivateKey, finalPrivateKey, parseScalar, publicKeyOf } from "../../../../schema/split-key";
import { decryptKeystore } from "../../payments/keystore";

export class FinalKeyError extends Error {
  override name = "FinalKeyError";
}

export type DeliveredOrder = { publicKey: string; address: string | null; offset: string | null; variant: number | null };

/**
 * The final private key (0x + 64 hex) for a delivered order, from the saved keystore text and its password.
 * The file may since have been re-saved by another tool (ethers writes `Crypto`, ethereumjs may use PBKDF2):
 * decryptKeystore opens what they write.
 */
export async function openFinalKey(order: DeliveredOrder, keystoreText: string, password: string, onProgress?: (fraction: number) => void): Promise<string> {
  if (!order.offset || order.variant === null || !order.address) throw new FinalKeyError("This order has not been delivered yet.");
  let keystore: unknown;
  try {
    keystore = JSON.parse(keystoreText);
  } catch {
    throw new FinalKeyError("That file is not a key file (it is not JSON).");
  }
  const secretHex = await decryptKeystore(keystore, password, { onProgress }); // KeystoreError: wrong password, unsupported file
  const secret = parseScalar(secretHex, "secret");
  if (publicKeyOf(secret) !== order.publicKey.toLowerCase()) {
    throw new FinalKeyError("This file holds a different secret than the one this order was placed with; choose the file you saved for this order.");
  }
  const key = finalPrivateKey(secret, parseScalar(order.offset, "offset"), order.variant);
  const derived = addressOfPrivateKey(key);
  if (derived !== order.address) throw new FinalKeyError(`The computed key derives ${derived}, not ${order.address}; do not use it and contact support.`);
  return key;
}
