// Solana's wire format, for the one thing the Worker needs: System Program transfers. Reading them out of a
// transaction as the node returns it (getTransaction, encoding base64, maxSupportedTransactionVersion 0), and
// writing the unsigned transfer the buyer's wallet signs (Solana Pay transaction request). The wire format is
// @solana/kit's codecs (the transaction and compiled-message encoders and decoders, nothing of its RPC); the
// System transfer's 12 bytes are read and written here. The tests check both directions against transactions
// @solana/web3.js builds and parses.
import { base58 } from "@scure/base";
import {
  address,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type TransactionMessageBytes,
} from "@solana/kit";

export const SYSTEM_PROGRAM = "11111111111111111111111111111111";
/** System Program instruction index of Transfer (u32 little-endian), followed by lamports (u64 little-endian). */
const TRANSFER = 2;
/** An absent signature on the wire: 64 zero bytes. */
const NO_SIGNATURE = new Uint8Array(64);

export type SolanaTransfer = { from: string; to: string; lamports: bigint; accounts: string[] };

/** getTransaction's answer, the parts read here. */
export type SolanaTransactionResponse = {
  slot: number;
  /** Seconds since the epoch (the validators' estimate); null or absent when the node does not know. */
  blockTime?: number | null;
  transaction: [string, "base64"] | unknown;
  meta: {
    err: unknown;
    loadedAddresses?: { writable: string[]; readonly: string[] } | null;
    /** Lamports of each account key (loaded ones last) before and after the transaction. */
    preBalances?: number[];
    postBalances?: number[];
    /** Lamports the transaction paid the network. */
    fee?: number;
  } | null;
};

/** A wire transaction as far as the Worker reads it: its signatures, its account keys (loaded ones last), its instructions. */
export type DecodedTransaction = {
  signatures: string[];
  keys: string[];
  instructions: { program: string | undefined; indexes: number[]; data: Uint8Array }[];
};

export function decodeTransaction(wire: Uint8Array, loaded: { writable: string[]; readonly: string[] } | null = null): DecodedTransaction {
  const { messageBytes, signatures } = getTransactionDecoder().decode(wire);
  const message = getCompiledTransactionMessageDecoder().decode(messageBytes);
  // Legacy and v0 are what getTransaction returns with maxSupportedTransactionVersion 0.
  if (message.version !== "legacy" && message.version !== 0) throw new RangeError("unsupported transaction version");
  const keys: string[] = [...message.staticAccounts, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
  return {
    // kit maps an all-zero (absent) signature to null; as text it is 64 zeros in base58, like any other.
    signatures: Object.values(signatures).map((signature) => base58.encode(signature ?? NO_SIGNATURE)),
    keys,
    instructions: message.instructions.map((ix) => ({
      program: keys[ix.programAddressIndex],
      indexes: [...(ix.accountIndices ?? [])],
      data: Uint8Array.from(ix.data ?? []),
    })),
  };
}

/** Every System transfer in a wire transaction, with the accounts its instruction names (payer, receiver, then extras such as a reference key). */
export function systemTransfers(wire: Uint8Array, loaded: { writable: string[]; readonly: string[] } | null = null): SolanaTransfer[] {
  return transfersOf(decodeTransaction(wire, loaded));
}

export function transfersOf(tx: DecodedTransaction): SolanaTransfer[] {
  const transfers: SolanaTransfer[] = [];
  for (const { program, indexes, data } of tx.instructions) {
    if (program !== SYSTEM_PROGRAM || data.length !== 12 || indexes.length < 2) continue;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (view.getUint32(0, true) !== TRANSFER) continue;
    const accounts = indexes.map((k) => tx.keys[k]);
    if (accounts.some((a) => a === undefined)) continue;
    transfers.push({ from: accounts[0], to: accounts[1], lamports: view.getBigUint64(4, true), accounts });
  }
  return transfers;
}

/**
 * An unsigned legacy transaction with one System transfer of `lamports` from `payer` (also the fee payer) to
 * `recipient`, with `reference` as a read-only non-signer account on the transfer (Solana Pay).
 */
export function unsignedTransfer(input: { payer: string; recipient: string; reference: string; lamports: bigint; recentBlockhash: string }): Uint8Array {
  const keys = [input.payer, input.recipient, input.reference, SYSTEM_PROGRAM];
  if (new Set(keys).size !== keys.length) throw new RangeError("payer, recipient and reference must differ");
  const decoded = keys.map((k) => base58.decode(k));
  const blockhash = base58.decode(input.recentBlockhash);
  if (decoded.some((k) => k.length !== 32) || blockhash.length !== 32) throw new RangeError("not a 32-byte key");
  if (input.lamports <= 0n || input.lamports >= 2n ** 64n) throw new RangeError("lamports out of range");
  const data = new Uint8Array(12);
  const view = new DataView(data.buffer);
  view.setUint32(0, TRANSFER, true);
  view.setBigUint64(4, input.lamports, true);
  // Header: 1 signer (the payer, writable); the reference and the program are read-only non-signers.
  const messageBytes = getCompiledTransactionMessageEncoder().encode({
    version: "legacy",
    header: { numSignerAccounts: 1, numReadonlySignerAccounts: 0, numReadonlyNonSignerAccounts: 2 },
    staticAccounts: keys.map((k) => address(k)),
    lifetimeToken: input.recentBlockhash,
    instructions: [{ programAddressIndex: 3, accountIndices: [0, 1, 2], data }],
  });
  // The encoder's output is a message's bytes: the brand says so to the transaction encoder.
  return Uint8Array.from(
    getTransactionEncoder().encode({ messageBytes: messageBytes as TransactionMessageBytes, signatures: { [address(input.payer)]: null } }),
  );
}

function base64ToBytes(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** The transaction's wire bytes from a getTransaction answer (encoding base64), or null if it is not that shape. */
export function wireBytes(response: SolanaTransactionResponse): Uint8Array | null {
  const tx = response.transaction;
  if (!Array.isArray(tx) || typeof tx[0] !== "string" || tx[1] !== "base64") return null;
  try {
    return base64ToBytes(tx[0]);
  } catch {
    return null;
  }
}
