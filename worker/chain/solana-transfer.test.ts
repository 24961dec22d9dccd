// Decoding real serialized transactions built with @solana/web3.js: legacy and v0, signed and unsigned.
import { Keypair, type PublicKey, SystemInstruction, SystemProgram, Transaction, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { base58 } from "@scure/base";
import { formatLamports, observeSolanaPayment, solanaReceipt } from "./solana-payments";
import {
  bytesToBase64,
  type DecodedTransaction,
  decodeTransaction,
  SYSTEM_PROGRAM,
  systemTransfers,
  transfersOf,
  unsignedTransfer,
  wireBytes,
} from "./solana-transfer";

const buyer = Keypair.generate();
const platform = Keypair.generate().publicKey;
const reference = Keypair.generate().publicKey;
const blockhash = "EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k";

function transfer(lamports: number | bigint, to: PublicKey = platform, from: Keypair = buyer, refs: PublicKey[] = [reference]) {
  const ix = SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports });
  for (const r of refs) ix.keys.push({ pubkey: r, isSigner: false, isWritable: false });
  return ix;
}

function legacy(...ixs: ReturnType<typeof transfer>[]): Uint8Array {
  const tx = new Transaction({ feePayer: buyer.publicKey, recentBlockhash: blockhash }).add(...ixs);
  tx.sign(buyer);
  return tx.serialize();
}

function v0(...ixs: ReturnType<typeof transfer>[]): Uint8Array {
  const message = new TransactionMessage({ payerKey: buyer.publicKey, recentBlockhash: blockhash, instructions: ixs }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  tx.sign([buyer]);
  return tx.serialize();
}

const response = (wire: Uint8Array, err: unknown = null, balances: { pre: number[]; post: number[] } = { pre: [], post: [] }) => ({
  slot: 42,
  blockTime: 1_700_000_000,
  transaction: [Buffer.from(wire).toString("base64"), "base64"] as [string, "base64"],
  meta: { err, loadedAddresses: { writable: [], readonly: [] }, preBalances: balances.pre, postBalances: balances.post },
});
/** The first signature of a wire transaction (what getTransaction was asked for). */
const signatureOf = (wire: Uint8Array) => base58.encode(wire.slice(1, 65));
const expectation = { buyer: buyer.publicKey.toBase58(), recipient: platform.toBase58(), reference: reference.toBase58() };
const observe = (wire: Uint8Array, err: unknown = null) => observeSolanaPayment(response(wire, err), { ...expectation, signature: signatureOf(wire) });

describe("systemTransfers", () => {
  it("reads payer, receiver, exact lamports and the reference from a signed legacy transaction", () => {
    const [t] = systemTransfers(legacy(transfer(1_234_567_891n)));
    expect(t).toEqual({
      from: buyer.publicKey.toBase58(),
      to: platform.toBase58(),
      lamports: 1_234_567_891n,
      accounts: [buyer.publicKey.toBase58(), platform.toBase58(), reference.toBase58()],
    });
  });

  it("reads a v0 transaction the same way", () => {
    expect(systemTransfers(v0(transfer(5n)))[0]).toMatchObject({ lamports: 5n, to: platform.toBase58() });
  });

  it("reads an unsigned transaction (as the Worker builds it for the wallet)", () => {
    const tx = new Transaction({ feePayer: buyer.publicKey, recentBlockhash: blockhash }).add(transfer(7n));
    const wire = tx.serialize({ requireAllSignatures: false, verifySignatures: false });
    expect(systemTransfers(wire)[0].lamports).toBe(7n);
  });

  it("ignores other System instructions", () => {
    const create = SystemProgram.createAccount({
      fromPubkey: buyer.publicKey,
      newAccountPubkey: reference,
      lamports: 999,
      space: 0,
      programId: SystemProgram.programId,
    });
    const wire = new Transaction({ feePayer: buyer.publicKey, recentBlockhash: blockhash })
      .add(create)
      .serialize({ requireAllSignatures: false, verifySignatures: false });
    expect(systemTransfers(wire)).toEqual([]);
  });

  it("refuses truncated bytes", () => {
    expect(() => systemTransfers(new Uint8Array([1]))).toThrow();
  });
});

describe("transfersOf: only a System Transfer instruction with its payer and receiver counts", () => {
  const keys = [buyer.publicKey.toBase58(), platform.toBase58(), reference.toBase58(), SYSTEM_PROGRAM, "Other111111111111111111111111111111111111111"];
  const data = (kind: number, lamports: bigint, length = 12) => {
    const bytes = new Uint8Array(length);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, kind, true);
    if (length >= 12) view.setBigUint64(4, lamports, true);
    return bytes;
  };
  const tx = (...instructions: DecodedTransaction["instructions"]): DecodedTransaction => ({ signatures: [], keys, instructions });
  const good = { program: SYSTEM_PROGRAM, indexes: [0, 1, 2], data: data(2, 500n) };

  it("reads a System transfer's payer, receiver, lamports and every account it names", () => {
    expect(transfersOf(tx(good))).toEqual([{ from: keys[0], to: keys[1], lamports: 500n, accounts: [keys[0], keys[1], keys[2]] }]);
  });

  it("ignores the same bytes sent to another program, another System instruction, a short or long payload, one account, an unknown index", () => {
    expect(transfersOf(tx({ ...good, program: keys[4] }))).toEqual([]);
    expect(transfersOf(tx({ ...good, program: undefined }))).toEqual([]);
    expect(transfersOf(tx({ ...good, data: data(3, 500n) }))).toEqual([]);
    expect(transfersOf(tx({ ...good, data: data(2, 500n, 13) }))).toEqual([]);
    expect(transfersOf(tx({ ...good, data: data(2, 500n, 8) }))).toEqual([]);
    expect(transfersOf(tx({ ...good, indexes: [0] }))).toEqual([]);
    expect(transfersOf(tx({ ...good, indexes: [0, 9] }))).toEqual([]);
    expect(transfersOf(tx({ ...good, indexes: [0, 1, 9] }))).toEqual([]);
  });

  it("keeps every transfer of a transaction, in order, skipping the others", () => {
    const second = { ...good, indexes: [2, 1], data: data(2, 7n) };
    expect(transfersOf(tx(good, { ...good, data: data(0, 1n) }, second)).map((t) => [t.from, t.lamports])).toEqual([
      [keys[0], 500n],
      [keys[2], 7n],
    ]);
  });
});

describe("wireBytes: a getTransaction answer's bytes", () => {
  const answer = (transaction: unknown) => ({ slot: 1, transaction, meta: null });

  it("reads base64 and nothing else", () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    expect(wireBytes(answer([bytesToBase64(bytes), "base64"]))).toEqual(bytes);
    expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
    for (const shape of ["AAEC", { 0: "AAEC", 1: "base64" }, [7, "base64"], ["AAEC", "base58"], ["AAEC"], ["not base64!", "base64"]])
      expect(wireBytes(answer(shape))).toBeNull();
  });
});

describe("observeSolanaPayment", () => {
  it("a transfer of the buyer to the platform with the reference: found, every fact true", () => {
    expect(observe(legacy(transfer(100n)))).toEqual({
      kind: "found",
      succeeded: true,
      onExpectedChain: true,
      toPlatform: true,
      fromBuyer: true,
      carriesReference: true,
      amount: 100n,
      confirmations: 1,
      block: "42",
      blockNumber: 42,
      minedAt: 1_700_000_000_000,
      fee: null,
    });
  });

  it("the fee the node reports (meta.fee, lamports) is carried for the gas audit", () => {
    const wire = legacy(transfer(100n));
    const withFee = { ...response(wire), meta: { ...response(wire).meta, fee: 5000 } };
    expect(observeSolanaPayment(withFee, { ...expectation, signature: signatureOf(wire) })).toMatchObject({ fee: { used: null, price: null, total: 5000n } });
  });

  it("a failed transaction is not succeeded", () => {
    expect(observe(legacy(transfer(100n)), { InstructionError: [0, "Custom"] })).toMatchObject({ succeeded: false });
  });

  it("to someone else: not to the platform", () => {
    expect(observe(legacy(transfer(100n, Keypair.generate().publicKey)))).toMatchObject({ toPlatform: false, amount: 0n });
  });

  it("from another wallet: not from the buyer", () => {
    const other = Keypair.generate();
    const tx = new Transaction({ feePayer: other.publicKey, recentBlockhash: blockhash }).add(transfer(100n, platform, other));
    tx.sign(other);
    expect(observe(tx.serialize())).toMatchObject({ toPlatform: true, fromBuyer: false, amount: 0n });
  });

  it("without the reference key, or with it only elsewhere in the transaction", () => {
    expect(observe(legacy(transfer(100n, platform, buyer, [])))).toMatchObject({ carriesReference: false });
    const elsewhere = legacy(transfer(100n, platform, buyer, []), transfer(1n, Keypair.generate().publicKey, buyer, [reference]));
    expect(observe(elsewhere)).toMatchObject({ carriesReference: false });
  });

  it("sums several buyer-to-platform transfers", () => {
    expect(observe(v0(transfer(60n), transfer(40n, platform, buyer, [])))).toMatchObject({ amount: 100n, carriesReference: true });
  });

  it("an answer that is not base64 wire bytes reads as missing", () => {
    expect(observeSolanaPayment({ slot: 1, transaction: { message: {} }, meta: null }, { ...expectation, signature: "x" })).toEqual({ kind: "missing" });
  });

  it("no block time: minedAt is unknown", () => {
    const wire = legacy(transfer(100n));
    expect(observeSolanaPayment({ ...response(wire), blockTime: null }, { ...expectation, signature: signatureOf(wire) })).toMatchObject({ minedAt: null });
  });

  it("a node answering with another transaction than the one asked for is not trusted", () => {
    const asked = legacy(transfer(1n));
    const answered = legacy(transfer(100n));
    expect(observeSolanaPayment(response(answered), { ...expectation, signature: signatureOf(asked) })).toEqual({ kind: "unavailable" });
    expect(solanaReceipt(response(answered), signatureOf(asked), platform.toBase58())).toEqual({ kind: "unavailable" });
  });
});

describe("decodeTransaction", () => {
  it("reads the signatures and the account keys, loaded ones last", () => {
    const wire = legacy(transfer(5n));
    const tx = decodeTransaction(wire, { writable: ["W"], readonly: ["R"] });
    expect(tx.signatures).toEqual([signatureOf(wire)]);
    expect(tx.keys.slice(0, 2)).toEqual([buyer.publicKey.toBase58(), platform.toBase58()]);
    expect(tx.keys.slice(-2)).toEqual(["W", "R"]);
  });
});

describe("solanaReceipt: what the platform received, however it was moved", () => {
  const keysOf = (wire: Uint8Array) => decodeTransaction(wire).keys;
  const balancesFor = (wire: Uint8Array, platformDelta: number) => {
    const keys = keysOf(wire);
    const pre = keys.map(() => 1_000_000);
    const post = keys.map((k) => (k === platform.toBase58() ? 1_000_000 + platformDelta : 1_000_000));
    return { pre, post };
  };

  it("a plain transfer: its amount, its payer, direct, the references it carries", () => {
    const wire = legacy(transfer(700n));
    expect(solanaReceipt(response(wire, null, balancesFor(wire, 700)), signatureOf(wire), platform.toBase58())).toEqual({
      kind: "found",
      succeeded: true,
      amount: 700n,
      senders: [buyer.publicKey.toBase58()],
      direct: true,
      references: [reference.toBase58()],
      confirmations: 1,
      blockNumber: 42,
    });
  });

  it("value the transfers do not explain (a program moved it): the balance change, not direct, the fee payer as sender", () => {
    const create = SystemProgram.createAccount({
      fromPubkey: buyer.publicKey,
      newAccountPubkey: platform,
      lamports: 999,
      space: 0,
      programId: SystemProgram.programId,
    });
    const tx = new Transaction({ feePayer: buyer.publicKey, recentBlockhash: blockhash }).add(create);
    tx.sign(buyer);
    const wire = tx.serialize({ requireAllSignatures: false, verifySignatures: false });
    expect(solanaReceipt(response(wire, null, balancesFor(wire, 999)), signatureOf(wire), platform.toBase58())).toMatchObject({
      amount: 999n,
      direct: false,
      senders: [buyer.publicKey.toBase58()],
      references: [],
    });
  });

  it("a transfer plus more from elsewhere is not direct; a failed one received nothing; an outflow is nothing received", () => {
    const wire = legacy(transfer(700n));
    const sig = signatureOf(wire);
    expect(solanaReceipt(response(wire, null, balancesFor(wire, 900)), sig, platform.toBase58())).toMatchObject({ amount: 900n, direct: false });
    expect(solanaReceipt(response(wire, { InstructionError: [0, "Custom"] }, balancesFor(wire, 700)), sig, platform.toBase58())).toMatchObject({
      succeeded: false,
      amount: 0n,
    });
    expect(solanaReceipt(response(wire, null, balancesFor(wire, -5)), sig, platform.toBase58())).toMatchObject({ amount: 0n });
  });

  it("the platform not in the transaction: nothing received; not base64: missing", () => {
    const wire = legacy(transfer(5n, Keypair.generate().publicKey));
    expect(solanaReceipt(response(wire, null, balancesFor(wire, 0)), signatureOf(wire), platform.toBase58())).toMatchObject({ amount: 0n, direct: false });
    expect(solanaReceipt({ slot: 1, transaction: "x", meta: null }, "s", platform.toBase58())).toEqual({ kind: "missing" });
  });
});

describe("unsignedTransfer (the Worker's Solana Pay transaction request)", () => {
  const input = {
    payer: buyer.publicKey.toBase58(),
    recipient: platform.toBase58(),
    reference: reference.toBase58(),
    lamports: 123_456_789_012n,
    recentBlockhash: blockhash,
  };

  it("is a transaction @solana/web3.js reads back: fee payer, blockhash, one transfer with the reference as a read-only non-signer", () => {
    const tx = Transaction.from(unsignedTransfer(input));
    expect(tx.feePayer?.toBase58()).toBe(input.payer);
    expect(tx.recentBlockhash).toBe(blockhash);
    expect(tx.instructions).toHaveLength(1);
    const [ix] = tx.instructions;
    expect(ix.programId.toBase58()).toBe(SystemProgram.programId.toBase58());
    expect(ix.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable])).toEqual([
      [input.payer, true, true],
      [input.recipient, false, true],
      [input.reference, false, false],
    ]);
    expect(SystemInstruction.decodeTransfer(ix).lamports).toBe(123_456_789_012n);
  });

  it("the buyer's wallet can sign it as is, and the signed bytes decode to the same payment", () => {
    const tx = Transaction.from(unsignedTransfer(input));
    tx.sign(buyer);
    expect(tx.verifySignatures()).toBe(true);
    expect(observe(tx.serialize())).toMatchObject({ amount: 123_456_789_012n, fromBuyer: true, toPlatform: true, carriesReference: true });
  });

  it("refuses a payer equal to the recipient, keys that are not 32 bytes, and zero lamports", () => {
    expect(() => unsignedTransfer({ ...input, payer: input.recipient })).toThrow(new RangeError("payer, recipient and reference must differ"));
    expect(() => unsignedTransfer({ ...input, reference: "abc" })).toThrow(new RangeError("not a 32-byte key"));
    expect(() => unsignedTransfer({ ...input, recentBlockhash: "abc" })).toThrow(new RangeError("not a 32-byte key"));
    expect(() => unsignedTransfer({ ...input, lamports: 0n })).toThrow(new RangeError("lamports out of range"));
  });

  it("takes lamports up to the largest u64 and refuses one more", () => {
    const most = 2n ** 64n - 1n;
    expect(SystemInstruction.decodeTransfer(Transaction.from(unsignedTransfer({ ...input, lamports: most })).instructions[0]).lamports).toBe(most);
    expect(() => unsignedTransfer({ ...input, lamports: 2n ** 64n })).toThrow(new RangeError("lamports out of range"));
  });
});

describe("formatLamports", () => {
  it("9 decimals, no trailing zeros", () => {
    expect(formatLamports(1_500_000_000n)).toBe("1.5");
    expect(formatLamports(1n)).toBe("0.000000001");
    expect(formatLamports(2_000_000_000n)).toBe("2");
    expect(formatLamports(-1_500_000_000n)).toBe("-1.5");
  });
});
