// SLIP-0010 Ed25519 derivation (hardened only), as Phantom and Solflare derive m/44'/501'/i'/0': the tests
// check the public dev accounts against it (schema/dev-accounts.test.ts, worker/deployment/payment-rules.test.ts).
import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";

export function slip10Ed25519(seed: Uint8Array, path: number[]): Uint8Array {
  let node = hmac(sha512, new TextEncoder().encode("ed25519 seed"), seed);
  for (const index of path) {
    const data = new Uint8Array(37);
    data.set(node.slice(0, 32), 1);
    new DataView(data.buffer).setUint32(33, (index | 0x80000000) >>> 0);
    node = hmac(sha512, node.slice(32), data);
  }
  return node.slice(0, 32);
}
