// The Solana JSON-RPC methods the Worker, the browser and @solana/web3.js 1.98 use, answered from the
// Ledger in the shapes a validator answers with. Every method's params are checked with valibot; a bad
// param is JSON-RPC -32602, never an exception.
import { VersionedTransaction } from "@solana/web3.js";
import { base58, base64 } from "@scure/base";
import * as v from "valibot";
import { type Commitment, GENESIS_HASH, type LandedTransaction, type Ledger, UnsupportedTransaction } from "./ledger";
import { describeTransactionError } from "./transaction-errors";

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const LAMPORTS_PER_SIGNATURE = 5000;
const SYSTEM_PROGRAM = "11111111111111111111111111111111";
const SLOTS_PER_EPOCH = 432_000;

const decodes = (bytes: number) => (s: string) => {
  try {
    return base58.decode(s).length === bytes;
  } catch {
    return false;
  }
};
const Pubkey = v.pipe(v.string(), v.check(decodes(32), "is not a base58 public key"));
const Signature = v.pipe(v.string(), v.check(decodes(64), "is not a base58 signature"));
const CommitmentLevel = v.picklist(["processed", "confirmed", "finalized"]);
const Config = v.optional(
  v.looseObject({ commitment: v.optional(CommitmentLevel), minContextSlot: v.optional(v.pipe(v.number(), v.integer())), encoding: v.optional(v.string()) }),
  {},
);
const Lamports = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Number.MAX_SAFE_INTEGER));
const Encoding = v.optional(v.picklist(["base58", "base64"]), "base58");

function parse<const T extends v.GenericSchema>(schema: T, params: unknown): v.InferOutput<T> {
  const result = v.safeParse(schema, params ?? []);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const where = v.getDotPath(issue);
  throw new RpcError(-32602, `Invalid params: ${where === null ? "" : `param ${where}: `}${issue.message}`);
}

function decodeWire(encoded: string, encoding: "base58" | "base64") {
  let wire: Uint8Array;
  try {
    wire = encoding === "base64" ? base64.decode(encoded) : base58.decode(encoded);
  } catch {
    throw new RpcError(-32602, `Invalid params: invalid ${encoding} encoding`);
  }
  try {
    VersionedTransaction.deserialize(wire);
  } catch {
    throw new RpcError(-32602, "Invalid params: failed to deserialize the transaction");
  }
  return wire;
}

function context(ledger: Ledger, commitment: Commitment = "finalized", minContextSlot?: number) {
  const slot = ledger.slotAt(commitment);
  if (minContextSlot !== undefined && slot < minContextSlot) throw new RpcError(-32016, "Minimum context slot has not been reached", { contextSlot: slot });
  return { slot, apiVersion: "2.2.0" };
}

function status(ledger: Ledger, tx: LandedTransaction) {
  const confirmationStatus = ledger.commitmentOf(tx);
  return {
    slot: tx.slot,
    confirmations: confirmationStatus === "finalized" ? null : ledger.slot - tx.slot,
    err: tx.err,
    status: tx.err === null ? { Ok: null } : { Err: tx.err },
    confirmationStatus,
  };
}

function simulationFailed(err: Parameters<typeof describeTransactionError>[0], logs: string[], unitsConsumed: number): RpcError {
  return new RpcError(-32002, `Transaction simulation failed: ${describeTransactionError(err)}`, {
    accounts: null,
    err,
    innerInstructions: null,
    logs,
    replacementBlockhash: null,
    returnData: null,
    unitsConsumed,
  });
}

function transactionJson(tx: LandedTransaction, encoding: "json" | "jsonParsed") {
  const message = VersionedTransaction.deserialize(base64.decode(tx.wire)).message;
  const header = message.header;
  const signers = header.numRequiredSignatures;
  const writable = (i: number) =>
    i < signers ? i < signers - header.numReadonlySignedAccounts : i < tx.accountKeys.length - header.numReadonlyUnsignedAccounts;
  const instructions = message.compiledInstructions.map((ix) => {
    const raw = { programIdIndex: ix.programIdIndex, accounts: Array.from(ix.accountKeyIndexes), data: base58.encode(ix.data), stackHeight: null };
    return encoding === "json" ? raw : parsedInstruction(tx.accountKeys, raw, ix.data);
  });
  const signatures = VersionedTransaction.deserialize(base64.decode(tx.wire)).signatures.map((s) => base58.encode(s));
  return {
    signatures,
    message: {
      accountKeys:
        encoding === "json"
          ? tx.accountKeys
          : tx.accountKeys.map((pubkey, i) => ({ pubkey, signer: i < signers, writable: writable(i), source: "transaction" })),
      header,
      instructions,
      recentBlockhash: message.recentBlockhash,
      ...(tx.version === 0 ? { addressTableLookups: [] } : {}),
    },
  };
}

// jsonParsed: System transfers are parsed (what a payment check reads); everything else stays partially decoded.
function parsedInstruction(keys: string[], raw: { programIdIndex: number; accounts: number[]; data: string }, data: Uint8Array) {
  const programId = keys[raw.programIdIndex]!;
  const accounts = raw.accounts.map((i) => keys[i]!);
  if (programId === SYSTEM_PROGRAM && data.length === 12 && new DataView(data.buffer, data.byteOffset).getUint32(0, true) === 2 && accounts.length >= 2) {
    const lamports = Number(new DataView(data.buffer, data.byteOffset).getBigUint64(4, true));
    return { program: "system", programId, parsed: { type: "transfer", info: { source: accounts[0], destination: accounts[1], lamports } }, stackHeight: null };
  }
  return { programId, accounts, data: raw.data, stackHeight: null };
}

function getTransaction(ledger: Ledger, params: unknown) {
  const [signature, config] = parse(
    v.tuple([
      Signature,
      v.optional(
        v.union([
          v.picklist(["json", "jsonParsed", "base64", "base58"]),
          v.looseObject({
            commitment: v.optional(CommitmentLevel),
            encoding: v.optional(v.picklist(["json", "jsonParsed", "base64", "base58"])),
            maxSupportedTransactionVersion: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
          }),
        ]),
      ),
    ]),
    params,
  );
  const opts = typeof config === "string" ? { encoding: config } : (config ?? {});
  const commitment = "commitment" in opts ? (opts.commitment ?? "finalized") : "finalized";
  if (commitment === "processed") throw new RpcError(-32602, "Invalid params: Method does not support commitment below `confirmed`");
  const tx = ledger.transaction(signature);
  if (!tx || !ledger.reaches(tx, commitment)) return null;
  const maxVersion = "maxSupportedTransactionVersion" in opts ? opts.maxSupportedTransactionVersion : undefined;
  if (tx.version === 0 && maxVersion === undefined)
    throw new RpcError(
      -32015,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  const encoding = opts.encoding ?? "json";
  const transaction =
    encoding === "base64" ? [tx.wire, "base64"] : encoding === "base58" ? [base58.encode(base64.decode(tx.wire)), "base58"] : transactionJson(tx, encoding);
  return {
    slot: tx.slot,
    blockTime: tx.blockTime,
    transaction,
    meta: {
      err: tx.err,
      status: tx.err === null ? { Ok: null } : { Err: tx.err },
      fee: tx.fee,
      preBalances: tx.preBalances,
      postBalances: tx.postBalances,
      innerInstructions: tx.innerInstructions,
      logMessages: tx.logMessages,
      preTokenBalances: [],
      postTokenBalances: [],
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: tx.computeUnitsConsumed,
    },
    ...(maxVersion !== undefined ? { version: tx.version } : {}),
  };
}

function sendTransaction(ledger: Ledger, params: unknown) {
  const [encoded, config] = parse(
    v.tuple([
      v.string(),
      v.optional(
        v.looseObject({
          encoding: Encoding,
          skipPreflight: v.optional(v.boolean(), false),
          preflightCommitment: v.optional(CommitmentLevel),
          maxRetries: v.optional(v.number()),
          minContextSlot: v.optional(v.number()),
        }),
        {},
      ),
    ]),
    params,
  );
  const wire = decodeWire(encoded, config.encoding ?? "base58");
  const signature = base58.encode(VersionedTransaction.deserialize(wire).signatures[0]!);
  if (ledger.transaction(signature)) {
    // A re-broadcast of a landed transaction: the validator answers with its signature when preflight is off.
    if (config.skipPreflight) return signature;
    throw simulationFailed("AlreadyProcessed", [], 0);
  }
  try {
    if (!config.skipPreflight) {
      const sim = ledger.simulate(wire, { sigVerify: true });
      if (sim.err !== null) {
        if (sim.err === "SignatureFailure") throw new RpcError(-32003, "Transaction signature verification failure");
        throw simulationFailed(sim.err, sim.logs, sim.unitsConsumed);
      }
    }
    const result = ledger.submit(wire);
    if (result.landed) return result.signature;
    if (result.err === "SignatureFailure") throw new RpcError(-32003, "Transaction signature verification failure");
    throw simulationFailed(result.err, result.logs, result.unitsConsumed);
  } catch (err) {
    if (err instanceof UnsupportedTransaction) throw new RpcError(-32602, `Invalid params: ${err.message}`);
    throw err;
  }
}

function simulateTransaction(ledger: Ledger, params: unknown) {
  const [encoded, config] = parse(
    v.tuple([
      v.string(),
      v.optional(
        v.looseObject({
          encoding: Encoding,
          sigVerify: v.optional(v.boolean(), false),
          replaceRecentBlockhash: v.optional(v.boolean(), false),
          commitment: v.optional(CommitmentLevel),
          accounts: v.optional(v.unknown()),
        }),
        {},
      ),
    ]),
    params,
  );
  if (config.sigVerify && config.replaceRecentBlockhash) throw new RpcError(-32602, "Invalid params: sigVerify may not be used with replaceRecentBlockhash");
  const wire = decodeWire(encoded, config.encoding ?? "base58");
  const sim = ledger.simulate(wire, { sigVerify: config.sigVerify, replaceRecentBlockhash: config.replaceRecentBlockhash });
  const replacementBlockhash = config.replaceRecentBlockhash ? ledger.latestBlockhash() : null;
  return {
    context: context(ledger, config.commitment),
    value: { err: sim.err, logs: sim.logs, accounts: null, unitsConsumed: sim.unitsConsumed, returnData: null, innerInstructions: null, replacementBlockhash },
  };
}

function getSignaturesForAddress(ledger: Ledger, params: unknown) {
  const [addr, config] = parse(
    v.tuple([
      Pubkey,
      v.optional(
        v.looseObject({
          limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000, "Invalid limit; max 1000")), 1000),
          before: v.optional(Signature),
          until: v.optional(Signature),
          commitment: v.optional(CommitmentLevel, "finalized"),
          minContextSlot: v.optional(v.number()),
        }),
        {},
      ),
    ]),
    params,
  );
  const commitment = config.commitment ?? "finalized";
  if (commitment === "processed") throw new RpcError(-32602, "Invalid params: Method does not support commitment below `confirmed`");
  return ledger.signaturesFor(addr, { before: config.before, until: config.until, limit: config.limit ?? 1000, commitment }).map((tx) => ({
    signature: tx.signature,
    slot: tx.slot,
    err: tx.err,
    memo: null,
    blockTime: tx.blockTime,
    confirmationStatus: ledger.commitmentOf(tx),
  }));
}

function accountJson(ledger: Ledger, addr: string, encoding: string | undefined) {
  const account = ledger.account(addr);
  if (!account) return null;
  const data = encoding === "base58" ? [base58.encode(account.data), "base58"] : [base64.encode(account.data), "base64"];
  return { data, executable: account.executable, lamports: account.lamports, owner: account.owner, rentEpoch: Number.MAX_SAFE_INTEGER, space: account.space };
}

const AccountConfig = v.optional(
  v.looseObject({
    commitment: v.optional(CommitmentLevel),
    encoding: v.optional(v.picklist(["base58", "base64", "jsonParsed", "base64+zstd"])),
    minContextSlot: v.optional(v.number()),
  }),
  {},
);

type Handler = (ledger: Ledger, params: unknown) => unknown;

export const METHODS: Record<string, Handler> = {
  getHealth: () => "ok",
  getVersion: () => ({ "solana-core": "2.2.0", "feature-set": 0 }),
  getGenesisHash: () => GENESIS_HASH,
  getIdentity: () => ({ identity: GENESIS_HASH }),
  getSlot: (ledger, params) => {
    const [config] = parse(v.tuple([Config]), params);
    return context(ledger, config.commitment, config.minContextSlot).slot;
  },
  getBlockHeight: (ledger, params) => {
    const [config] = parse(v.tuple([Config]), params);
    return context(ledger, config.commitment, config.minContextSlot).slot;
  },
  getEpochInfo: (ledger, params) => {
    const [config] = parse(v.tuple([Config]), params);
    const slot = context(ledger, config.commitment).slot;
    return {
      absoluteSlot: slot,
      blockHeight: slot,
      epoch: Math.floor(slot / SLOTS_PER_EPOCH),
      slotIndex: slot % SLOTS_PER_EPOCH,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount: ledger.transactionCount,
    };
  },
  getLatestBlockhash: (ledger, params) => {
    const [config] = parse(v.tuple([Config]), params);
    return { context: context(ledger, config.commitment, config.minContextSlot), value: ledger.latestBlockhash() };
  },
  isBlockhashValid: (ledger, params) => {
    const [blockhash, config] = parse(v.tuple([v.pipe(v.string(), v.check(decodes(32), "is not a base58 blockhash")), Config]), params);
    return { context: context(ledger, config.commitment), value: ledger.isBlockhashValid(blockhash) };
  },
  getFeeForMessage: (ledger, params) => {
    const [message, config] = parse(v.tuple([v.string(), Config]), params);
    let bytes: Uint8Array;
    try {
      bytes = base64.decode(message);
    } catch {
      throw new RpcError(-32602, "Invalid params: invalid base64 encoding");
    }
    // The first byte after an optional version prefix is the number of required signatures.
    const signatures = bytes[0]! & 0x80 ? bytes[1] : bytes[0];
    return { context: context(ledger, config.commitment), value: signatures === undefined ? null : signatures * LAMPORTS_PER_SIGNATURE };
  },
  getRecentPrioritizationFees: () => [],
  getMinimumBalanceForRentExemption: (ledger, params) => {
    const [length] = parse(v.tuple([v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10 * 1024 * 1024)), Config]), params);
    return ledger.minimumBalanceForRentExemption(length);
  },
  getBalance: (ledger, params) => {
    const [addr, config] = parse(v.tuple([Pubkey, Config]), params);
    return { context: context(ledger, config.commitment, config.minContextSlot), value: ledger.balance(addr) };
  },
  getAccountInfo: (ledger, params) => {
    const [addr, config] = parse(v.tuple([Pubkey, AccountConfig]), params);
    return { context: context(ledger, config.commitment, config.minContextSlot), value: accountJson(ledger, addr, config.encoding) };
  },
  getMultipleAccounts: (ledger, params) => {
    const [addrs, config] = parse(v.tuple([v.pipe(v.array(Pubkey), v.maxLength(100)), AccountConfig]), params);
    return { context: context(ledger, config.commitment, config.minContextSlot), value: addrs.map((a) => accountJson(ledger, a, config.encoding)) };
  },
  requestAirdrop: (ledger, params) => {
    const [addr, amount] = parse(v.tuple([Pubkey, Lamports, Config]), params);
    const result = ledger.airdrop(addr, amount);
    if (!result.landed) throw new RpcError(-32603, `Airdrop failed: ${describeTransactionError(result.err)}`);
    return result.signature;
  },
  sendTransaction,
  simulateTransaction,
  getSignatureStatuses: (ledger, params) => {
    const [signatures] = parse(
      v.tuple([
        v.pipe(v.array(Signature), v.maxLength(256, "Too many inputs provided; max 256")),
        v.optional(v.looseObject({ searchTransactionHistory: v.optional(v.boolean()) })),
      ]),
      params,
    );
    return {
      context: context(ledger, "processed"),
      value: signatures.map((sig) => {
        const tx = ledger.transaction(sig);
        return tx ? status(ledger, tx) : null;
      }),
    };
  },
  getTransaction,
  getSignaturesForAddress,
  /** Not a Solana method: moves the chain forward now, so tests can reach "finalized" without waiting. */
  localnet_advanceSlots: (ledger, params) => {
    const [count] = parse(v.tuple([v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000)), 1)]), params);
    return ledger.advanceSlots(count);
  },
};
