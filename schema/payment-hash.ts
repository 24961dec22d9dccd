// What a payment's transaction hash or signature must be before anything is written for it (docs/payments.md#deadlines):
// an Ethereum transaction hash is 32 bytes as 0x-prefixed hex; a Solana signature is base58 that decodes to exactly
// 64 bytes. Text in the right alphabet is not enough: a node refuses "2".repeat(64) (47 bytes) as an invalid
// parameter, and a purchase must never wait on a report no node can look up.
import { base58 } from "@scure/base";
import type { Network } from "./db";

const ETHEREUM_HASH = /^0x[0-9a-fA-F]{64}$/;
/** 64 bytes are 64 to 88 base58 characters (each leading zero byte is one "1"); the alphabet alone is checked first. */
const SOLANA_SIGNATURE_TEXT = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

export function isEthereumHash(text: string): boolean {
  return ETHEREUM_HASH.test(text);
}

export function isSolanaSignature(text: string): boolean {
  if (!SOLANA_SIGNATURE_TEXT.test(text)) return false;
  return base58.decode(text).length === 64;
}

/** The network whose transaction id `text` can be, or null when it is neither. */
export function paymentHashNetwork(text: string): Network | null {
  if (isEthereumHash(text)) return "ethereum";
  return isSolanaSignature(text) ? "solana" : null;
}
