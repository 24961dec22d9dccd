// The local Solana JSON-RPC, end to end: real transfers signed with @solana/web3.js go through the HTTP
// server into LiteSVM and are read back with web3.js's Connection, as the Worker and the browser will.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  AddressLookupTableAccount,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemInstruction,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { base58 } from "@scure/base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOLANA_DEV_ACCOUNTS } from "../../schema/dev-accounts";
import { BLOCKHASH_VALID_SLOTS } from "./ledger";
import { type SolanaRpc, startSolanaRpc } from "./server";

const platform = new PublicKey(SOLANA_DEV_ACCOUNTS.platform.address);

let rpc: SolanaRpc;
let connection: Connection;

async function call(method: string, params: unknown[] = [], url = rpc.url) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read each JSON-RPC answer's fields where they check them.
  return (await res.json()) as { id: unknown; result?: any; error?: { code: number; message: string; data?: any } };
}

async function transfer(from: Keypair, to: PublicKey, lamports: number, reference?: PublicKey) {
  const { blockhash } = await connection.getLatestBlockhash("confirmed");
  const ix = SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports });
  if (reference) ix.keys.push({ pubkey: reference, isSigner: false, isWritable: false });
  const tx = new Transaction({ feePayer: from.publicKey, recentBlockhash: blockhash }).add(ix);
  tx.sign(from);
  return tx;
}

/** What a client without websockets does: poll the status until the commitment is reached. */
async function settled(signature: string, commitment: "confirmed" | "finalized" = "confirmed") {
  for (let i = 0; i < 50; i++) {
    const { value } = await connection.getSignatureStatuses([signature]);
    const s = value[0];
    if (s && (commitment === "confirmed" || s.confirmationStatus === "finalized")) return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${signature} did not reach ${commitment}`);
}

async function funded() {
  const wallet = Keypair.generate();
  await settled(await connection.requestAirdrop(wallet.publicKey, 2 * LAMPORTS_PER_SOL));
  return wallet;
}

beforeAll(async () => {
  rpc = await startSolanaRpc({ port: 0, slotMs: 0, finalizeDepth: 4 });
  connection = new Connection(rpc.url, "confirmed");
});
afterAll(() => rpc?.stop());

describe("local Solana RPC over LiteSVM", () => {
  it("funds the dev wallets at start", async () => {
    for (const account of Object.values(SOLANA_DEV_ACCOUNTS)) expect(await connection.getBalance(new PublicKey(account.address))).toBe(1000 * LAMPORTS_PER_SOL);
  });

  it("a signed transfer sent as base64 lands, and getTransaction returns the message and balances", async () => {
    const payer = await funded();
    const reference = Keypair.generate().publicKey;
    const tx = await transfer(payer, platform, 123_456_789, reference);
    const platformBefore = await connection.getBalance(platform);
    const signature = await connection.sendRawTransaction(tx.serialize());
    expect(signature).toBe(base58.encode(tx.signature!));
    const status = await settled(signature);
    expect(status).toMatchObject({ err: null, confirmationStatus: "confirmed", confirmations: 0 });

    const got = await connection.getTransaction(signature, { commitment: "confirmed", maxSupportedTransactionVersion: 0 });
    expect(got).not.toBeNull();
    expect(got!.version).toBe("legacy");
    expect(got!.slot).toBe(status.slot);
    expect(got!.blockTime).toBeGreaterThan(Date.now() / 1000 - 60);
    const keys = got!.transaction.message.staticAccountKeys.map((k) => k.toBase58());
    expect(keys.slice(0, 2)).toEqual([payer.publicKey.toBase58(), platform.toBase58()]);
    expect(keys).toContain(reference.toBase58());
    expect(got!.transaction.message.recentBlockhash).toBe(tx.recentBlockhash);
    const [ix] = got!.transaction.message.compiledInstructions;
    const decoded = SystemInstruction.decodeTransfer({
      programId: SystemProgram.programId,
      keys: ix!.accountKeyIndexes.map((i) => ({ pubkey: new PublicKey(keys[i]!), isSigner: false, isWritable: false })),
      data: Buffer.from(ix!.data),
    });
    expect(decoded).toMatchObject({ fromPubkey: payer.publicKey, toPubkey: platform, lamports: 123_456_789n });
    const meta = got!.meta!;
    expect(meta.err).toBeNull();
    expect(meta.fee).toBe(5000);
    expect(meta.preBalances[0]! - meta.postBalances[0]!).toBe(123_456_789 + 5000);
    expect(meta.postBalances[1]! - meta.preBalances[1]!).toBe(123_456_789);
    expect(meta.preBalances[1]).toBe(platformBefore);
    expect(await connection.getBalance(platform)).toBe(platformBefore + 123_456_789);
  });

  it("accepts base58, the default encoding of sendTransaction", async () => {
    const payer = await funded();
    const tx = await transfer(payer, platform, 1_000_000);
    const { result } = await call("sendTransaction", [base58.encode(tx.serialize())]);
    expect(result).toBe(base58.encode(tx.signature!));
    expect((await settled(result)).err).toBeNull();
  });

  it("answers a v0 transaction only to clients that declare maxSupportedTransactionVersion 0", async () => {
    const payer = await funded();
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: platform, lamports: 5_000_000 })],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([payer]);
    const signature = await connection.sendTransaction(tx);
    await settled(signature);
    const refused = await call("getTransaction", [signature, { commitment: "confirmed", encoding: "json" }]);
    expect(refused.error?.code).toBe(-32015);
    const got = await connection.getTransaction(signature, { commitment: "confirmed", maxSupportedTransactionVersion: 0 });
    expect(got!.version).toBe(0);
    expect(got!.meta!.postBalances[1]! - got!.meta!.preBalances[1]!).toBe(5_000_000);
    // A legacy transaction without the parameter answers without a version field, as a validator does.
    const legacy = await connection.sendRawTransaction((await transfer(payer, platform, 1_000_000)).serialize());
    await settled(legacy);
    const plain = await call("getTransaction", [legacy, { commitment: "confirmed" }]);
    expect(plain.result.transaction.message.accountKeys[0]).toBe(payer.publicKey.toBase58());
    expect(plain.result).not.toHaveProperty("version");
  });

  it("refuses v0 transactions with address lookup tables rather than recording partial balances", async () => {
    const payer = await funded();
    const table = new AddressLookupTableAccount({
      key: Keypair.generate().publicKey,
      state: { deactivationSlot: BigInt("18446744073709551615"), lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: [platform] },
    });
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: platform, lamports: 5_000_000 })],
    }).compileToV0Message([table]);
    const tx = new VersionedTransaction(message);
    tx.sign([payer]);
    const res = await call("sendTransaction", [Buffer.from(tx.serialize()).toString("base64"), { encoding: "base64", skipPreflight: true }]);
    expect(res.error?.message).toMatch(/address lookup tables/);
  });

  it("a transaction is confirmed at once and finalized after finalizeDepth slots", async () => {
    const payer = await funded();
    const signature = await connection.sendRawTransaction((await transfer(payer, platform, 2_000_000)).serialize());
    await settled(signature);
    expect(await connection.getTransaction(signature, { commitment: "finalized", maxSupportedTransactionVersion: 0 })).toBeNull();
    expect(await connection.getSignaturesForAddress(payer.publicKey, {}, "finalized")).not.toContainEqual(expect.objectContaining({ signature }));
    const advanced = await call("localnet_advanceSlots", [4]);
    expect(advanced.result).toBe(rpc.ledger.slot);
    const status = await settled(signature, "finalized");
    expect(status.confirmations).toBeNull();
    expect(await connection.getTransaction(signature, { commitment: "finalized", maxSupportedTransactionVersion: 0 })).not.toBeNull();
    expect(await connection.getSlot("finalized")).toBe(rpc.ledger.slot - 4);
    expect((await call("getTransaction", [signature, { commitment: "processed" }])).error?.code).toBe(-32602);
  });

  it("getSignaturesForAddress finds payments by reference key, newest first, with before/until/limit", async () => {
    const payer = await funded();
    const reference = Keypair.generate().publicKey;
    const sigs: string[] = [];
    for (const lamports of [1_000_001, 1_000_002, 1_000_003, 1_000_004]) {
      sigs.push(await connection.sendRawTransaction((await transfer(payer, platform, lamports, reference)).serialize()));
      await settled(sigs.at(-1)!);
    }
    const all = await connection.getSignaturesForAddress(reference, {}, "confirmed");
    expect(all.map((s) => s.signature)).toEqual([...sigs].reverse());
    expect(all[0]).toMatchObject({ err: null, memo: null, confirmationStatus: "confirmed" });
    expect((await connection.getSignaturesForAddress(reference, { limit: 2 }, "confirmed")).map((s) => s.signature)).toEqual([sigs[3], sigs[2]]);
    expect((await connection.getSignaturesForAddress(reference, { before: sigs[2] }, "confirmed")).map((s) => s.signature)).toEqual([sigs[1], sigs[0]]);
    expect((await connection.getSignaturesForAddress(reference, { until: sigs[1] }, "confirmed")).map((s) => s.signature)).toEqual([sigs[3], sigs[2]]);
    expect(await connection.getSignaturesForAddress(Keypair.generate().publicKey, {}, "confirmed")).toEqual([]);
    expect((await call("getSignaturesForAddress", [reference.toBase58(), { limit: 1001 }])).error?.code).toBe(-32602);
  });

  it("preflight refuses an overspend without landing it; with skipPreflight it lands failed and pays the fee", async () => {
    const payer = await funded();
    const before = await connection.getBalance(payer.publicKey);
    const tx = await transfer(payer, platform, 50 * LAMPORTS_PER_SOL);
    const error = await connection.sendRawTransaction(tx.serialize()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendTransactionError);
    expect((error as SendTransactionError).message).toMatch(/Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1/);
    expect((error as SendTransactionError).logs?.join("\n")).toMatch(/insufficient lamports/);
    const signature = base58.encode(tx.signature!);
    expect((await connection.getSignatureStatuses([signature])).value[0]).toBeNull();
    expect(await connection.getBalance(payer.publicKey)).toBe(before);

    expect(await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true })).toBe(signature);
    const status = await settled(signature);
    expect(status.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    const got = await connection.getTransaction(signature, { commitment: "confirmed", maxSupportedTransactionVersion: 0 });
    expect(got!.meta!.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(got!.meta!.preBalances[0]! - got!.meta!.postBalances[0]!).toBe(5000);
    expect(await connection.getBalance(payer.publicKey)).toBe(before - 5000);
  });

  it("refuses a forged signature, a replay and an expired blockhash", async () => {
    const payer = await funded();
    const tx = await transfer(payer, platform, 1_000_000);
    const forged = tx.serialize();
    forged[10] ^= 0xff; // inside the signature
    const bad = await call("sendTransaction", [Buffer.from(forged).toString("base64"), { encoding: "base64" }]);
    expect(bad.error?.code).toBe(-32003);
    const badSkip = await call("sendTransaction", [Buffer.from(forged).toString("base64"), { encoding: "base64", skipPreflight: true }]);
    expect(badSkip.error?.code).toBe(-32003);

    const signature = await connection.sendRawTransaction(tx.serialize());
    await settled(signature);
    const replay = await call("sendTransaction", [Buffer.from(tx.serialize()).toString("base64"), { encoding: "base64" }]);
    expect(replay.error?.data?.err).toBe("AlreadyProcessed");
    const balance = await connection.getBalance(payer.publicKey);
    expect(await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true })).toBe(signature);
    expect(await connection.getBalance(payer.publicKey)).toBe(balance);

    const stale = await transfer(payer, platform, 1_000_001);
    expect((await call("isBlockhashValid", [stale.recentBlockhash])).result.value).toBe(true);
    await call("localnet_advanceSlots", [BLOCKHASH_VALID_SLOTS + 1]);
    expect((await call("isBlockhashValid", [stale.recentBlockhash])).result.value).toBe(false);
    const expired = await call("sendTransaction", [Buffer.from(stale.serialize()).toString("base64"), { encoding: "base64", skipPreflight: true }]);
    expect(expired.error?.data?.err).toBe("BlockhashNotFound");
    expect(await connection.getBalance(payer.publicKey)).toBe(balance);
  });

  it("simulates an unsigned transaction the way wallets and web3.js ask for it", async () => {
    const payer = await funded();
    const { blockhash } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: platform, lamports: 1_000_000 }),
    );
    const sim = await connection.simulateTransaction(tx.compileMessage() as never);
    expect(sim.value.err).toBeNull();
    expect(sim.value.logs?.join("\n")).toMatch(/success/);
    const before = await connection.getBalance(payer.publicKey);
    expect(before).toBe(2 * LAMPORTS_PER_SOL);
    const fee = await connection.getFeeForMessage(tx.compileMessage());
    expect(fee.value).toBe(5000);
  });

  it("answers the account, rent and node questions web3.js asks", async () => {
    const info = await connection.getAccountInfo(platform);
    expect(info).toMatchObject({ owner: SystemProgram.programId, executable: false });
    expect(info!.data.length).toBe(0);
    expect(await connection.getAccountInfo(Keypair.generate().publicKey)).toBeNull();
    expect(await connection.getMinimumBalanceForRentExemption(0)).toBe(890_880);
    expect((await connection.getVersion())["solana-core"]).toMatch(/^\d+\.\d+/);
    expect(await connection.getGenesisHash()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect((await call("getHealth")).result).toBe("ok");
    const epoch = await connection.getEpochInfo();
    expect(epoch.absoluteSlot).toBe(await connection.getSlot());
    expect(await connection.getBlockHeight("confirmed")).toBe(rpc.ledger.slot);
    const { lastValidBlockHeight } = await connection.getLatestBlockhash("confirmed");
    expect(lastValidBlockHeight).toBe(rpc.ledger.slot + BLOCKHASH_VALID_SLOTS);
  });

  it("answers hostile requests with JSON-RPC errors and keeps serving", async () => {
    const raw = (body: string) => fetch(rpc.url, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(await (await raw("{not json")).json()).toMatchObject({ error: { code: -32700 } });
    expect(await (await raw("[]")).json()).toMatchObject({ error: { code: -32600 } });
    expect(await (await raw('{"jsonrpc":"2.0","id":1}')).json()).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(await (await raw('{"jsonrpc":"2.0","id":1,"method":"__proto__"}')).json()).toMatchObject({ error: { code: -32601 } });
    expect(await (await raw('{"jsonrpc":"2.0","id":1,"method":"getBalance","params":{"a":1}}')).json()).toMatchObject({ error: { code: -32602 } });
    for (const [method, params] of [
      ["getBalance", ["not-a-key"]],
      ["getBalance", [12]],
      ["getTransaction", ["1111"]],
      ["sendTransaction", ["%%%"]],
      ["sendTransaction", [Buffer.from("hello").toString("base64"), { encoding: "base64" }]],
      ["sendTransaction", [{}]],
      ["requestAirdrop", [platform.toBase58(), -5]],
      ["requestAirdrop", [platform.toBase58(), 1e300]],
      ["getSignatureStatuses", ["x"]],
      ["getSignatureStatuses", [Array(257).fill(base58.encode(new Uint8Array(64)))]],
      ["getMinimumBalanceForRentExemption", [-1]],
      ["localnet_advanceSlots", [1e9]],
    ] as const) {
      const res = await call(method, params as unknown as unknown[]);
      expect(res.error?.code, `${method} ${JSON.stringify(params).slice(0, 60)}`).toBe(-32602);
    }
    const huge = await raw(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getHealth", params: ["x".repeat(2 * 1024 * 1024)] }));
    expect(huge.status).toBe(413);
    const batch = await (
      await raw(
        JSON.stringify([
          { jsonrpc: "2.0", id: 1, method: "getHealth" },
          { jsonrpc: "2.0", id: 2, method: "nope" },
        ]),
      )
    ).json();
    expect(batch).toEqual([
      { jsonrpc: "2.0", id: 1, result: "ok" },
      { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "Method not found: nope" } },
    ]);
    expect((await call("getHealth")).result).toBe("ok");
  });

  it("lets a browser page on another origin call it (CORS)", async () => {
    const pre = await fetch(rpc.url, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:8787", "access-control-request-method": "POST", "access-control-request-headers": "content-type,solana-client" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/solana-client/);
    const res = await fetch(rpc.url, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:8787" },
      body: '{"jsonrpc":"2.0","id":1,"method":"getSlot"}',
    });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("local Solana RPC, lifetime", () => {
  it("advances slots on its own timer", async () => {
    const ticking = await startSolanaRpc({ port: 0, slotMs: 10, fund: [] });
    try {
      const start = (await call("getSlot", [{ commitment: "confirmed" }], ticking.url)).result as number;
      await new Promise((r) => setTimeout(r, 200));
      expect((await call("getSlot", [{ commitment: "confirmed" }], ticking.url)).result).toBeGreaterThan(start + 3);
    } finally {
      await ticking.stop();
    }
  });

  it("keeps accounts and transactions across a restart when given a state directory", async () => {
    const statePath = fs.mkdtempSync(path.join(os.tmpdir(), "solana-rpc-state-"));
    try {
      const first = await startSolanaRpc({ port: 0, slotMs: 0, statePath });
      const c1 = new Connection(first.url, "confirmed");
      const wallet = Keypair.generate();
      const signature = await c1.requestAirdrop(wallet.publicKey, 3 * LAMPORTS_PER_SOL);
      await call("localnet_advanceSlots", [7], first.url);
      const slot = first.ledger.slot;
      await first.stop();

      const second = await startSolanaRpc({ port: 0, slotMs: 0, statePath });
      try {
        const c2 = new Connection(second.url, "confirmed");
        expect(await c2.getBalance(wallet.publicKey)).toBe(3 * LAMPORTS_PER_SOL);
        expect(second.ledger.slot).toBe(slot);
        expect((await c2.getSignatureStatuses([signature])).value[0]?.err).toBeNull();
        expect((await c2.getSignaturesForAddress(wallet.publicKey, {}, "confirmed"))[0]?.signature).toBe(signature);
        // The dev wallets are topped up only to their target, not again on every start.
        expect(await c2.getBalance(platform)).toBe(1000 * LAMPORTS_PER_SOL);
      } finally {
        await second.stop();
      }
    } finally {
      fs.rmSync(statePath, { recursive: true, force: true });
    }
  });

  it("reports a busy port", async () => {
    const busy = await startSolanaRpc({ port: 0, slotMs: 0, fund: [] });
    try {
      await expect(startSolanaRpc({ port: busy.port, slotMs: 0, fund: [] })).rejects.toMatchObject({ code: "EADDRINUSE" });
    } finally {
      await busy.stop();
    }
  });
});
