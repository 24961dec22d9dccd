// The local Solana chain: LiteSVM executes real signed transactions; this ledger adds what a validator's RPC
// has and LiteSVM does not — slots that advance, blockhashes that expire, commitment levels, the raw
// transactions with their pre/post balances, and an index of signatures per address.
//
// Commitment model: a transaction lands in the current slot and is "confirmed" at once; it is "finalized"
// once `finalizeDepth` more slots have passed. Slots advance every `slotMs` and on demand (advanceSlots).
// Account state (balances, account data) is always the latest state, whatever commitment is asked for.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { address, getTransactionDecoder, lamports, type Transaction as KitTransaction } from "@solana/kit";
import { Keypair, PublicKey, SystemProgram, Transaction, VersionedTransaction } from "@solana/web3.js";
import { base58, base64 } from "@scure/base";
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from "litesvm";
import { type RpcTransactionError, rpcTransactionError } from "./transaction-errors";

export type Commitment = "processed" | "confirmed" | "finalized";

export type LandedInstruction = { programIdIndex: number; accounts: number[]; data: string; stackHeight: number | null };

/** Everything getTransaction and getSignaturesForAddress answer with, kept because LiteSVM returns only meta. */
export type LandedTransaction = {
  signature: string;
  slot: number;
  blockTime: number;
  /** The wire transaction as sent, base64. */
  wire: string;
  version: "legacy" | 0;
  accountKeys: string[];
  err: RpcTransactionError | null;
  fee: number;
  preBalances: number[];
  postBalances: number[];
  logMessages: string[];
  computeUnitsConsumed: number;
  innerInstructions: { index: number; instructions: LandedInstruction[] }[];
};

export type Submission =
  | { landed: true; signature: string; tx: LandedTransaction }
  | { landed: false; signature: string; err: RpcTransactionError; logs: string[]; unitsConsumed: number };

export type Simulation = { err: RpcTransactionError | null; logs: string[]; unitsConsumed: number };

export type LedgerOptions = {
  /** Directory for the chain state; absent = in memory only. */
  statePath?: string;
  /** Milliseconds per slot; 0 = slots advance only on demand. Default 400 (mainnet's target). */
  slotMs?: number;
  /** Slots after which a transaction counts as finalized. Default 32. */
  finalizeDepth?: number;
};

/** How long a blockhash stays usable, in slots (the validator's MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALID_SLOTS = 150;
const HISTORY_CAPACITY = 1_000_000n;
const FAUCET_LAMPORTS = 1_000_000_000_000_000n; // one million SOL, below 2^53 so JSON numbers stay exact
const SYSTEM_PROGRAM = "11111111111111111111111111111111";
// The faucet that requestAirdrop pays from: a fixed key, so airdrops are ordinary transactions on record.
const FAUCET = Keypair.fromSeed(createHash("sha256").update("vanity-market localnet faucet").digest());
export const GENESIS_HASH = base58.encode(createHash("sha256").update("vanity-market localnet genesis").digest());

type Saved = { slot: number; blockhashes: [string, number][]; txs: LandedTransaction[] };

const num = (value: bigint | null | undefined) => Number(value ?? 0n);

export class Ledger {
  private svm: LiteSVM;
  private slotNow = 0;
  /** blockhash -> the slot it was issued in */
  private blockhashes = new Map<string, number>();
  private txs = new Map<string, LandedTransaction>();
  /** address -> signatures touching it, oldest first */
  private byAddress = new Map<string, string[]>();
  private timer: NodeJS.Timeout | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private dirty = false;
  readonly finalizeDepth: number;

  constructor(private readonly opts: LedgerOptions = {}) {
    this.finalizeDepth = opts.finalizeDepth ?? 32;
    const saved = this.load();
    if (saved) {
      this.svm = saved.svm;
      this.slotNow = saved.state.slot;
      this.blockhashes = new Map(saved.state.blockhashes);
      for (const tx of saved.state.txs) this.index(tx);
    } else {
      this.svm = new LiteSVM();
      this.svm.setAccount({
        address: address(FAUCET.publicKey.toBase58()),
        data: new Uint8Array(0),
        executable: false,
        lamports: lamports(FAUCET_LAMPORTS),
        programAddress: address(SYSTEM_PROGRAM),
        space: 0n,
      });
    }
    // The ledger checks blockhash age itself (LiteSVM accepts only its latest one); LiteSVM's history is
    // raised so it can still refuse duplicates and report failed-but-included transactions.
    this.svm.withBlockhashCheck(false).withTransactionHistory(HISTORY_CAPACITY);
    this.blockhashes.set(this.svm.latestBlockhash(), this.slotNow);
    this.syncClock();
    const slotMs = opts.slotMs ?? 400;
    if (slotMs > 0) this.timer = setInterval(() => this.advanceSlots(1), slotMs).unref();
    if (opts.statePath) this.saveTimer = setInterval(() => this.dirty && this.save(), 2000).unref();
  }

  // ---- slots and blockhashes ----

  get slot() {
    return this.slotNow;
  }

  /** The newest slot visible at a commitment level. */
  slotAt(commitment: Commitment = "finalized") {
    return commitment === "finalized" ? Math.max(0, this.slotNow - this.finalizeDepth) : this.slotNow;
  }

  advanceSlots(count: number) {
    for (let i = 0; i < count; i++) {
      this.slotNow += 1;
      this.svm.expireBlockhash();
      this.blockhashes.set(this.svm.latestBlockhash(), this.slotNow);
    }
    for (const [hash, slot] of this.blockhashes) {
      if (this.slotNow - slot <= BLOCKHASH_VALID_SLOTS) break; // Map keeps insertion order: oldest first
      this.blockhashes.delete(hash);
    }
    this.syncClock();
    this.dirty = true;
    return this.slotNow;
  }

  private syncClock() {
    const clock = this.svm.getClock();
    clock.slot = BigInt(this.slotNow);
    clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
    this.svm.setClock(clock);
  }

  latestBlockhash() {
    const blockhash = this.svm.latestBlockhash();
    return { blockhash, lastValidBlockHeight: (this.blockhashes.get(blockhash) ?? this.slotNow) + BLOCKHASH_VALID_SLOTS };
  }

  isBlockhashValid(blockhash: string) {
    const issued = this.blockhashes.get(blockhash);
    return issued !== undefined && this.slotNow - issued <= BLOCKHASH_VALID_SLOTS;
  }

  // ---- transactions ----

  /** Executes a signed wire transaction. Failed transactions that paid their fee land with `err`, as on a validator. */
  submit(wire: Uint8Array): Submission {
    const decoded = VersionedTransaction.deserialize(wire);
    const signature = base58.encode(decoded.signatures[0] ?? new Uint8Array(64));
    const refused = (err: RpcTransactionError): Submission => ({ landed: false, signature, err, logs: [], unitsConsumed: 0 });
    if (decoded.message.addressTableLookups.length > 0) throw new UnsupportedTransaction("address lookup tables are not supported by this local RPC");
    if (this.txs.has(signature)) return refused("AlreadyProcessed");
    if (!this.isBlockhashValid(decoded.message.recentBlockhash)) return refused("BlockhashNotFound");

    const accountKeys = decoded.message.staticAccountKeys.map((k) => k.toBase58());
    const preBalances = accountKeys.map((k) => num(this.svm.getBalance(address(k))));
    const result = this.svm.sendTransaction(this.kit(wire));
    const failed = result instanceof FailedTransactionMetadata;
    const meta: TransactionMetadata = failed ? result.meta() : result;
    const err = failed ? rpcTransactionError(result.err()) : null;
    // A failure that never paid its fee (bad signature, unknown payer...) is not on the ledger.
    if (failed && this.svm.getTransaction(signature as Parameters<LiteSVM["getTransaction"]>[0]) === null)
      return { landed: false, signature, err: err!, logs: meta.logs(), unitsConsumed: num(meta.computeUnitsConsumed()) };

    const postBalances = accountKeys.map((k) => num(this.svm.getBalance(address(k))));
    const tx: LandedTransaction = {
      signature,
      slot: this.slotNow,
      blockTime: Math.floor(Date.now() / 1000),
      wire: base64.encode(wire),
      version: decoded.version,
      accountKeys,
      err,
      // Lamports are conserved inside a transaction except for the fee, so the fee is what went missing.
      fee: preBalances.reduce((a, b) => a + b, 0) - postBalances.reduce((a, b) => a + b, 0),
      preBalances,
      postBalances,
      logMessages: meta.logs(),
      computeUnitsConsumed: num(meta.computeUnitsConsumed()),
      innerInstructions: meta
        .innerInstructions()
        .map((list, index) => ({
          index,
          instructions: list.map((inner) => {
            const ix = inner.instruction();
            return {
              programIdIndex: ix.programIdIndex(),
              accounts: Array.from(ix.accounts()),
              data: base58.encode(ix.data()),
              stackHeight: inner.stackHeight(),
            };
          }),
        }))
        .filter((group) => group.instructions.length > 0),
    };
    this.index(tx);
    this.dirty = true;
    return { landed: true, signature, tx };
  }

  /** Runs a transaction without keeping its effects (preflight and simulateTransaction). */
  simulate(wire: Uint8Array, opts: { sigVerify?: boolean; replaceRecentBlockhash?: boolean } = {}): Simulation {
    let bytes = wire;
    const decoded = VersionedTransaction.deserialize(wire);
    if (opts.replaceRecentBlockhash) {
      decoded.message.recentBlockhash = this.svm.latestBlockhash();
      bytes = decoded.serialize();
    } else if (!this.isBlockhashValid(decoded.message.recentBlockhash)) {
      return { err: "BlockhashNotFound", logs: [], unitsConsumed: 0 };
    }
    const sigVerify = opts.sigVerify ?? false;
    if (!sigVerify) this.svm.withSigverify(false);
    try {
      const result = this.svm.simulateTransaction(this.kit(bytes));
      if (result instanceof FailedTransactionMetadata) {
        const meta = result.meta();
        return { err: rpcTransactionError(result.err()), logs: meta.logs(), unitsConsumed: num(meta.computeUnitsConsumed()) };
      }
      const meta = result.meta();
      return { err: null, logs: meta.logs(), unitsConsumed: num(meta.computeUnitsConsumed()) };
    } finally {
      if (!sigVerify) this.svm.withSigverify(true);
    }
  }

  private kit(wire: Uint8Array) {
    return getTransactionDecoder().decode(wire) as KitTransaction as Parameters<LiteSVM["sendTransaction"]>[0];
  }

  private index(tx: LandedTransaction) {
    this.txs.set(tx.signature, tx);
    for (const key of new Set(tx.accountKeys)) {
      const list = this.byAddress.get(key);
      if (list) list.push(tx.signature);
      else this.byAddress.set(key, [tx.signature]);
    }
  }

  transaction(signature: string) {
    return this.txs.get(signature);
  }

  /** "finalized" once buried `finalizeDepth` slots deep, otherwise "confirmed". */
  commitmentOf(tx: LandedTransaction): "confirmed" | "finalized" {
    return this.slotNow - tx.slot >= this.finalizeDepth ? "finalized" : "confirmed";
  }

  reaches(tx: LandedTransaction, commitment: Commitment) {
    return commitment !== "finalized" || this.commitmentOf(tx) === "finalized";
  }

  /** Newest first, like the validator: `before` and `until` are exclusive bounds. */
  signaturesFor(addr: string, opts: { before?: string; until?: string; limit: number; commitment: Commitment }) {
    const list = this.byAddress.get(addr) ?? [];
    let start = list.length - 1;
    if (opts.before !== undefined) {
      const at = list.lastIndexOf(opts.before);
      start = at === -1 ? -1 : at - 1;
    }
    const out: LandedTransaction[] = [];
    for (let i = start; i >= 0 && out.length < opts.limit; i--) {
      if (list[i] === opts.until) break;
      const tx = this.txs.get(list[i]!)!;
      if (this.reaches(tx, opts.commitment)) out.push(tx);
    }
    return out;
  }

  get transactionCount() {
    return this.txs.size;
  }

  // ---- accounts ----

  balance(addr: string) {
    return num(this.svm.getBalance(address(addr)));
  }

  account(addr: string) {
    const account = this.svm.getAccount(address(addr));
    if (!account.exists) return null;
    return {
      lamports: num(account.lamports),
      owner: account.programAddress as string,
      executable: account.executable,
      data: Uint8Array.from(account.data),
      space: num(account.space),
    };
  }

  minimumBalanceForRentExemption(dataLength: number) {
    return num(this.svm.minimumBalanceForRentExemption(BigInt(dataLength)));
  }

  /** A real transfer from the faucet, so an airdrop has a signature, a status and a place in history. */
  airdrop(to: string, amount: number): Submission {
    const tx = new Transaction({ feePayer: FAUCET.publicKey, recentBlockhash: this.svm.latestBlockhash() }).add(
      SystemProgram.transfer({ fromPubkey: FAUCET.publicKey, toPubkey: new PublicKey(to), lamports: amount }),
    );
    // A random read-only key makes two equal airdrops in one slot two different transactions.
    tx.instructions[0]!.keys.push({ pubkey: Keypair.generate().publicKey, isSigner: false, isWritable: false });
    tx.sign(FAUCET);
    return this.submit(tx.serialize());
  }

  // ---- persistence ----

  private files() {
    const dir = this.opts.statePath!;
    return { svm: path.join(dir, "litesvm.bin"), ledger: path.join(dir, "ledger.json") };
  }

  private load(): { svm: LiteSVM; state: Saved } | undefined {
    if (!this.opts.statePath) return undefined;
    const files = this.files();
    if (!fs.existsSync(files.svm) || !fs.existsSync(files.ledger)) return undefined;
    return { svm: LiteSVM.loadFromFile(files.svm), state: JSON.parse(fs.readFileSync(files.ledger, "utf8")) as Saved };
  }

  /** Writes the chain to `statePath` (both files replaced atomically). */
  save() {
    if (!this.opts.statePath) return;
    this.dirty = false;
    const files = this.files();
    fs.mkdirSync(this.opts.statePath, { recursive: true });
    this.svm.saveToFile(`${files.svm}.tmp`);
    const state: Saved = { slot: this.slotNow, blockhashes: [...this.blockhashes], txs: [...this.txs.values()] };
    fs.writeFileSync(`${files.ledger}.tmp`, JSON.stringify(state));
    fs.renameSync(`${files.svm}.tmp`, files.svm);
    fs.renameSync(`${files.ledger}.tmp`, files.ledger);
  }

  close() {
    clearInterval(this.timer);
    clearInterval(this.saveTimer);
    this.save();
  }
}

export class UnsupportedTransaction extends Error {}
