// The reconciliation: every transfer to the platform address that we see is either credited or
// listed for attention. Value forwarded by a contract (an internal call, as from a contract wallet or an ERC-4337
// account) on anvil; a System transfer-with-seed (a program call the verifier cannot credit) and a plain transfer
// from a stranger on the LiteSVM Solana RPC; and the admin's view and actions on what it found.
import { PublicKey, SystemProgram } from "@solana/web3.js";
import { env } from "cloudflare:test";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../db/database";
import { runScheduledJobs } from "../jobs/scheduled";
import { findPurchase } from "../purchases/purchase-row";
import { reconcilePayments, STALE_HELD_MS } from "../purchases/reconcile";
import { verifyPayment } from "../purchases/verify";
import { actors, ethWallet, listWithKey, purchaseRow, reserve, type Wallet } from "../test/purchase-fixtures";
import { amountOf, anvil, confirm, escrowOf, fundedBuyer, pay } from "./purchase-helpers";
import { confirmSol, fundedKeypair, fundedSolBuyer, payThroughWorker, rpc, sendInstructions, transferToPlatform } from "./solana-helpers";
import { client, unchecked } from "../test/client";
import { readDeployment } from "../deployment/deployment";

let seller: Wallet;
/** The first block this file's reconciliation read. */
let firstBlock: number;
beforeAll(async () => {
  ({ seller } = await actors());
  // The first run of each network only learns where the chain stands: what came before is not read.
  await reconcilePayments(createDb(env.DB), readDeployment(env), "ethereum");
  await reconcilePayments(createDb(env.DB), readDeployment(env), "solana");
  firstBlock = (await env.DB.prepare("SELECT next_block FROM reconcile_cursors WHERE network = 'ethereum'").first<{ next_block: number }>())!.next_block;
});

const attentionOf = (where: string, ...binds: unknown[]) =>
  env.DB.prepare(`SELECT * FROM payment_attention WHERE ${where}`)
    .bind(...binds)
    .all<Record<string, unknown>>()
    .then((r) => r.results);

async function blockOf(hash: string): Promise<number> {
  const receipt = await anvil<{ blockNumber: string }>("eth_getTransactionReceipt", [hash]);
  return Number(receipt.blockNumber);
}

/** Cron runs until the Ethereum reconciliation has read `block`. */
async function reconciledThrough(block: number) {
  for (let i = 0; i < 20; i++) {
    const cursor = await env.DB.prepare("SELECT next_block FROM reconcile_cursors WHERE network = 'ethereum'").first<{ next_block: number }>();
    if (cursor && cursor.next_block > block) return;
    await anvil("anvil_mine", ["0x1"]);
    await runScheduledJobs(env);
  }
  throw new Error(`the reconciliation did not reach block ${block}`);
}

/** Cron runs until the Solana reconciliation has read `signature`. */
async function reconciledSignature(signature: string) {
  for (let i = 0; i < 10; i++) {
    await runScheduledJobs(env);
    if (await escrowOf(signature)) return;
    const seen = await env.DB.prepare("SELECT count(*) AS n FROM transactions WHERE tx_hash = ? AND status IN ('pending', 'completed')")
      .bind(signature)
      .first<{ n: number }>();
    if (seen!.n > 0) return;
  }
}

// PUSH1 0 (x4: retSize, retOffset, argsSize, argsOffset), CALLVALUE, PUSH20 <platform>, GAS, CALL, POP, STOP:
// forwards whatever it receives to the platform by an internal call.
const forwarderCode = () => `0x60006000600060003473${env.PLATFORM_ETH_ADDRESS.slice(2).toLowerCase()}5af15000` as Hex;

describe("Ethereum", () => {
  it("value a contract forwards to the platform: refused by the confirm call, then found by the balance check and listed for attention", async () => {
    const forwarder = privateKeyToAccount(generatePrivateKey()).address;
    await anvil("anvil_setCode", [forwarder, forwarderCode()]);
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const wei = await amountOf(buyer, id);
    const before = BigInt(await anvil<string>("eth_getBalance", [env.PLATFORM_ETH_ADDRESS, "latest"]));
    const hash = (await pay(buyer.account, wei, forwarder)).toLowerCase();
    expect(BigInt(await anvil<string>("eth_getBalance", [env.PLATFORM_ETH_ADDRESS, "latest"])) - before).toBeGreaterThanOrEqual(wei);
    expect((await confirm(buyer, id, hash)).body).toMatchObject({ success: false, status: "initiated" });
    expect(await purchaseRow(id)).toMatchObject({ failure_reason: "wrong-recipient" });

    const block = await blockOf(hash);
    await reconciledThrough(block);
    const [difference] = await attentionOf("network = 'ethereum' AND kind = 'balance' AND ref = ?", `block:${block}`);
    expect(difference).toMatchObject({
      amount_base_units: wei.toString(),
      from_block: block,
      to_block: block,
      status: "open",
      tx_hash: hash,
      transaction_id: id,
    });
    expect(String(difference.detail)).toContain(hash);
    expect(String(difference.detail)).toMatch(/internal call/);

    // Shown to the admin, with where the reconciliation stands.
    const view = await (await client(seller).admin.payments.differences.$get()).json();
    expect(view.differences.find((d) => d.id === difference.id)).toMatchObject({ kind: "balance", amount: "0.01" });
    expect(view.reconciliation.find((r) => r.network === "ethereum")?.through).toMatch(/^block \d+$/);
  });

  it("a transfer from a wallet with no purchase: a ledger row owed back to the sender and an attention row; refunding it resolves both", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    await anvil("anvil_setBalance", [stranger.address, "0x56BC75E2D63100000"]);
    const hash = (await pay(stranger, 12_345_000_000_000_000n)).toLowerCase();
    await reconciledThrough(await blockOf(hash));
    const row = (await escrowOf(hash))!;
    expect(row).toMatchObject({
      transaction_id: null,
      status: "refund",
      attention_reason: "unmatched",
      refund_status: "needed",
      amount_base_units: "12345000000000000",
      sender_address: stranger.address.toLowerCase(),
    });
    const [difference] = await attentionOf("tx_hash = ? AND kind = 'uncredited'", hash);
    expect(difference).toMatchObject({ escrow_id: row.id, status: "open", amount_base_units: "12345000000000000" });
    expect(
      (await client(seller).admin.payments[":id"].refund.$post({ param: { id: String(row.id) }, json: { refundTxHash: `0x${"cd".repeat(32)}` } })).status,
    ).toBe(200);
    expect((await attentionOf("id = ?", difference.id))[0]).toMatchObject({ status: "resolved", resolution_note: `Refunded in 0x${"cd".repeat(32)}` });
  });

  it("a late payment the browser never reported ends up listed for refund against its purchase, not as a stranger's", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const wei = await amountOf(buyer, id);
    await client(buyer).transactions[":id"].cancel.$post({ param: { id } });
    const hash = (await pay(buyer.account, wei)).toLowerCase();
    await reconciledThrough(await blockOf(hash));
    expect(await escrowOf(hash)).toMatchObject({ transaction_id: id, attention_reason: "late", refund_status: "needed" });
    expect(await attentionOf("tx_hash = ?", hash)).toEqual([]);
  });

  it("a settled payment is accounted for; reading the same blocks again records nothing twice", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const hash = (await pay(buyer.account, await amountOf(buyer, id))).toLowerCase();
    expect((await confirm(buyer, id, hash)).body.status).toBe("completed");
    const block = await blockOf(hash);
    await reconciledThrough(block);
    expect(await attentionOf("tx_hash = ?", hash)).toEqual([]);
    const count = async () => {
      const r = await env.DB.batch([
        env.DB.prepare("SELECT count(*) AS n FROM payment_attention"),
        env.DB.prepare("SELECT count(*) AS n FROM escrow_transactions"),
      ]);
      return r.map((x) => (x.results[0] as { n: number }).n);
    };
    const before = await count();
    // Another run (a crash, two runs at once) reading the same window again.
    await env.DB.prepare("UPDATE reconcile_cursors SET next_block = ? WHERE network = 'ethereum'")
      .bind(Math.max(firstBlock, block - 20))
      .run();
    await Promise.all([
      reconcilePayments(createDb(env.DB), readDeployment(env), "ethereum"),
      reconcilePayments(createDb(env.DB), readDeployment(env), "ethereum"),
    ]);
    await reconciledThrough(block);
    expect(await count()).toEqual(before);
  });

  it("a payment held for a purchase that was then paid with another hash is listed for refund once the reconciliation asks again", async () => {
    const deep = { ...env, ETH_CONFIRMATIONS: "3" };
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const wei = await amountOf(buyer, id);
    const first = (await pay(buyer.account, wei, undefined, false)).toLowerCase();
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?").bind(first, id).run();
    expect((await verifyPayment(createDb(env.DB), readDeployment(deep), (await findPurchase(createDb(env.DB), id))!, first)).decision.outcome).toBe("wait");
    expect(await escrowOf(first)).toMatchObject({ status: "held", transaction_id: id });
    // The buyer pays again and reports that one, which settles the purchase; the first stays held.
    const second = (await pay(buyer.account, wei)).toLowerCase();
    expect((await confirm(buyer, id, second)).body.status).toBe("completed");
    expect(await escrowOf(first)).toMatchObject({ status: "held" });
    await reconcilePayments(createDb(env.DB), readDeployment(env), "ethereum", Date.now() + STALE_HELD_MS + 1_000);
    expect(await escrowOf(first)).toMatchObject({ status: "refund", attention_reason: "duplicate", refund_status: "needed", transaction_id: id });
  });
});

describe("Solana", () => {
  it("a transfer with seed (a program call the verifier cannot credit): refused by confirm, then listed for refund as indirect", async () => {
    const { wallet, keypair } = await fundedSolBuyer();
    const id = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.25" })).id);
    const seed = "vanity";
    const derived = await PublicKey.createWithSeed(keypair.publicKey, seed, SystemProgram.programId);
    const lamports = 250_000_000n;
    const signature = await sendInstructions(
      [keypair],
      SystemProgram.createAccountWithSeed({
        fromPubkey: keypair.publicKey,
        newAccountPubkey: derived,
        basePubkey: keypair.publicKey,
        seed,
        lamports: Number(lamports),
        space: 0,
        programId: SystemProgram.programId,
      }),
      SystemProgram.transfer({
        fromPubkey: derived,
        basePubkey: keypair.publicKey,
        toPubkey: new PublicKey(env.PLATFORM_SOL_ADDRESS),
        lamports,
        seed,
        programId: SystemProgram.programId,
      }),
    );
    expect(await confirmSol(wallet, id, signature)).toMatchObject({ success: false, status: "initiated" });
    expect(await purchaseRow(id)).toMatchObject({ failure_reason: "wrong-recipient" });
    await reconciledSignature(signature);
    const row = await escrowOf(signature);
    expect(row).toMatchObject({
      transaction_id: null,
      status: "refund",
      attention_reason: "indirect",
      refund_status: "needed",
      amount_base_units: "250000000",
      sender_address: wallet.address,
    });
    expect((await attentionOf("tx_hash = ?", signature))[0]).toMatchObject({ kind: "uncredited", escrow_id: row!.id });
  });

  it("a plain transfer without a reference from a wallet that never bought anything: listed as unmatched", async () => {
    const stranger = await fundedKeypair();
    const signature = await sendInstructions([stranger], transferToPlatform(stranger, 7_000_000n));
    await reconciledSignature(signature);
    expect(await escrowOf(signature)).toMatchObject({
      transaction_id: null,
      attention_reason: "unmatched",
      amount_base_units: "7000000",
      refund_status: "needed",
      sender_address: stranger.publicKey.toBase58(),
    });
  });

  it("a payment the browser never reported is credited to its purchase (scan or reconciliation), never listed", async () => {
    const { wallet, keypair } = await fundedSolBuyer();
    const id = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.1" })).id);
    const signature = await payThroughWorker(wallet, keypair, id);
    await reconciledSignature(signature);
    await runScheduledJobs(env);
    expect(await purchaseRow(id)).toMatchObject({ status: "completed", tx_hash: signature });
    expect(await attentionOf("tx_hash = ?", signature)).toEqual([]);
    const balance = await rpc<{ value: number }>("getBalance", [env.PLATFORM_SOL_ADDRESS]);
    expect(balance.value).toBeGreaterThan(0);
  });
});

describe("Admin > Payments > differences", () => {
  async function seedDifference() {
    const id = crypto.randomUUID();
    await env.DB.prepare(
      `INSERT INTO payment_attention (id, network, kind, ref, detail, amount_base_units, status, created_at) VALUES (?, 'ethereum', 'balance', ?, 'seeded', '5', 'open', ?)`,
    )
      .bind(id, `seed:${id}`, Date.now())
      .run();
    return id;
  }

  it("only admins see and resolve; a note is required; resolving is audited and happens once", async () => {
    const id = await seedDifference();
    const user = await ethWallet();
    expect((await client(user).admin.payments.differences.$get()).status).toBe(403);
    expect((await client().admin.payments.differences.$get()).status).toBe(401);
    expect((await client(user).admin.payments.differences[":id"].resolve.$post({ param: { id }, json: { note: "mine now" } })).status).toBe(403);
    for (const body of [{}, { note: "" }, { note: "  " }, { note: 5 }, { note: "x".repeat(1001) }]) {
      expect((await client(seller).admin.payments.differences[":id"].resolve.$post({ param: { id }, json: unchecked(body) })).status).toBe(400);
    }
    expect((await client(seller).admin.payments.differences[":id"].resolve.$post({ param: { id: "not-an-id" }, json: { note: "checked" } })).status).toBe(400);
    expect(
      (await client(seller).admin.payments.differences[":id"].resolve.$post({ param: { id: crypto.randomUUID() }, json: { note: "checked" } })).status,
    ).toBe(404);
    expect((await attentionOf("id = ?", id))[0]).toMatchObject({ status: "open" });

    const res = await client(seller).admin.payments.differences[":id"].resolve.$post({
      param: { id },
      json: { note: "Refunded by hand in 0x12 after talking to the sender" },
    });
    expect(res.status).toBe(200);
    expect((await client(seller).admin.payments.differences[":id"].resolve.$post({ param: { id }, json: { note: "again" } })).status).toBe(409);
    expect((await attentionOf("id = ?", id))[0]).toMatchObject({
      status: "resolved",
      resolution_note: "Refunded by hand in 0x12 after talking to the sender",
      resolved_by: seller.address.toLowerCase(),
    });
    const audit = await env.DB.prepare("SELECT performed_by, metadata FROM transaction_audit WHERE action = 'payment_difference_resolved' AND metadata LIKE ?")
      .bind(`%${id}%`)
      .first<{ metadata: string }>();
    expect(JSON.parse(audit!.metadata)).toMatchObject({ differenceId: id, note: "Refunded by hand in 0x12 after talking to the sender" });
    const open = await (await client(seller).admin.payments.differences.$get()).json();
    expect(open.differences.some((d) => d.id === id)).toBe(false);
  });
});
