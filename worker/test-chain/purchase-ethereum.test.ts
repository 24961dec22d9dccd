// Buying on a real chain (anvil): every payment state and its security tests. Each test
// would fail if the guard it names were removed: the decision's checks, the DB's unique indexes, the lease.
import { env } from "cloudflare:test";
import { formatEther, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../db/database";
import { runScheduledJobs } from "../jobs/scheduled";
import { findPurchase } from "../purchases/purchase-row";
import { verifyPayment } from "../purchases/verify";
import { actors, listWithKey, purchaseRow, reserve, type Wallet } from "../test/purchase-fixtures";
import { amountOf, anvil, confirm, countRows as count, escrowOf, fundedBuyer, pay } from "./purchase-helpers";
import { client } from "../test/client";
import { REVEAL_BODY, revealSealed } from "../test/sealed-reveal";
import { readDeployment } from "../deployment/deployment";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

const listing = (id: number) => env.DB.prepare("SELECT status, is_listed FROM addresses WHERE id = ?").bind(id).first();

describe("a paid purchase settles", () => {
  it("exact payment: completed in one batch, the key derives the address, the listing is sold, escrow released", async () => {
    const buyer = await fundedBuyer();
    const l = await listWithKey(seller.userId, { price: "0.0123" });
    const id = await reserve(buyer, l.id);
    const wei = await amountOf(buyer, id);
    expect(wei).toBe(12_300_000_000_000_000n);
    const hash = await pay(buyer.account, wei);
    const { status, body } = await confirm(buyer, id, hash);
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, status: "completed", requiredConfirmations: Number(env.ETH_CONFIRMATIONS) });
    expect(body.confirmations).toBeGreaterThanOrEqual(Number(env.ETH_CONFIRMATIONS));

    expect(await purchaseRow(id)).toMatchObject({ status: "completed", tx_hash: hash, failure_reason: null });
    expect(await listing(l.id)).toEqual({ status: "sold", is_listed: 0 });
    expect(await escrowOf(hash)).toMatchObject({ status: "released", attention_reason: null, refund_status: null, amount: "0.0123", transaction_id: id });
    expect(await count("sales_analytics", "transaction_id = ?", id)).toBe(1);
    expect(await count("price_history", "transaction_id = ? AND change_type = 'sale'", id)).toBe(1);
    expect(await count("transaction_audit", "transaction_id = ? AND action = 'completed'", id)).toBe(1);
    // The actual gas beside the reservation's estimate: the receipt's gasUsed x effectiveGasPrice.
    const receipt = await anvil<{ gasUsed: string; effectiveGasPrice: string }>("eth_getTransactionReceipt", [hash]);
    const gas = await env.DB.prepare("SELECT * FROM gas_estimation_audit WHERE transaction_id = ?").bind(id).first<Record<string, unknown>>();
    const actualWei = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
    expect(gas).toMatchObject({ actual_gas: BigInt(receipt.gasUsed).toString(), actual_gas_price: BigInt(receipt.effectiveGasPrice).toString(), success: 1 });
    expect(gas!.actual_cost).toBe(formatEther(actualWei));
    expect(gas!.accuracy).toBeCloseTo(Number(gas!.estimated_cost) / Number(formatEther(actualWei)), 3);

    const { body: reveal, privateKey } = await revealSealed(client(buyer), id);
    if (!reveal.success) throw new Error(reveal.message);
    expect(privateKeyToAddress(privateKey as Hex)).toBe(l.key.address);
    const recent = await (await client().transactions.recent.$get()).json();
    expect(recent.find((t) => t.id === id)).toMatchObject({ status: "completed" });
    // Confirming again changes nothing.
    expect((await confirm(buyer, id, hash)).body).toMatchObject({ success: true, status: "completed" });
    expect(await count("sales_analytics", "transaction_id = ?", id)).toBe(1);
  });

  it("overpaid: settles and lists the excess for refund", async () => {
    const buyer = await fundedBuyer();
    const l = await listWithKey(seller.userId, { price: "0.01" });
    const id = await reserve(buyer, l.id);
    const hash = await pay(buyer.account, (await amountOf(buyer, id)) + 1_000_000_000_001_234n);
    expect((await confirm(buyer, id, hash)).body.status).toBe("completed");
    expect(await escrowOf(hash)).toMatchObject({
      status: "released",
      attention_reason: "over",
      refund_status: "needed",
      refund_base_units: "1000000000001234",
    });
    const attention = await (await client(seller).admin.payments.attention.$get()).json();
    expect(attention.payments.find((p) => p.txHash === hash)).toMatchObject({ reason: "over", refundBaseUnits: "1000000000001234" });
  });

  it("overpaid by dust (below PAYMENT_DUST_ETH): settles; the excess is recorded as ignored, not listed", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const hash = await pay(buyer.account, (await amountOf(buyer, id)) + 1234n);
    expect((await confirm(buyer, id, hash)).body.status).toBe("completed");
    expect(await escrowOf(hash)).toMatchObject({ status: "released", attention_reason: "over", refund_status: "ignored", refund_base_units: "1234" });
    const attention = await (await client(seller).admin.payments.attention.$get()).json();
    expect(attention.payments.some((p) => p.txHash === hash)).toBe(false);
  });
});

describe("payments that do not pay: a stated reason, no key", () => {
  it("underpaid by one wei: failed, listing free again, the money listed for refund as partial", async () => {
    const buyer = await fundedBuyer();
    const l = await listWithKey(seller.userId, { price: "0.01" });
    const id = await reserve(buyer, l.id);
    const hash = await pay(buyer.account, (await amountOf(buyer, id)) - 1n);
    const { body } = await confirm(buyer, id, hash);
    expect(body).toMatchObject({ success: false, status: "failed" });
    expect(await purchaseRow(id)).toMatchObject({ status: "failed", failure_reason: "underpaid" });
    expect(await escrowOf(hash)).toMatchObject({ status: "refund", attention_reason: "partial", refund_status: "needed" });
    expect(await listing(l.id)).toEqual({ status: "active", is_listed: 1 });
    expect((await client(buyer).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY })).status).toBe(409);
    const audit = await env.DB.prepare("SELECT status, error_message FROM blockchain_transaction_audit WHERE transaction_id = ? ORDER BY id DESC")
      .bind(id)
      .first();
    expect(audit).toEqual({ status: "rejected-underpaid", error_message: "underpaid" });
  });

  it("to the wrong recipient: refused, the reservation stays payable, then the right payment settles", async () => {
    const buyer = await fundedBuyer();
    const l = await listWithKey(seller.userId, { price: "0.01" });
    const id = await reserve(buyer, l.id);
    const wei = await amountOf(buyer, id);
    const wrong = await pay(buyer.account, wei, privateKeyToAddress(`0x${"11".repeat(32)}`));
    expect((await confirm(buyer, id, wrong)).body).toMatchObject({ success: false, status: "initiated" });
    expect(await purchaseRow(id)).toMatchObject({ status: "initiated", failure_reason: "wrong-recipient", tx_hash: null });
    expect(await escrowOf(wrong)).toBeNull();
    const right = await pay(buyer.account, wei);
    expect((await confirm(buyer, id, right)).body.status).toBe("completed");
  });

  it("reverted: refused as reverted", async () => {
    const buyer = await fundedBuyer();
    const l = await listWithKey(seller.userId, { price: "0.01" });
    const id = await reserve(buyer, l.id);
    // The platform address briefly becomes a contract that always reverts.
    await anvil("anvil_setCode", [env.PLATFORM_ETH_ADDRESS, "0x60006000fd"]);
    let hash: string;
    try {
      hash = await pay(buyer.account, await amountOf(buyer, id));
    } finally {
      await anvil("anvil_setCode", [env.PLATFORM_ETH_ADDRESS, "0x"]);
    }
    expect((await confirm(buyer, id, hash)).body).toMatchObject({ success: false });
    expect(await purchaseRow(id)).toMatchObject({ status: "initiated", failure_reason: "reverted" });
    expect(await escrowOf(hash)).toBeNull();
  });

  it("wrong sender, and another buyer confirming your hash first does not block you", async () => {
    const alice = await fundedBuyer();
    const bob = await fundedBuyer();
    const la = await listWithKey(seller.userId, { price: "0.01" });
    const lb = await listWithKey(seller.userId, { price: "0.01" });
    const aliceId = await reserve(alice, la.id);
    const bobId = await reserve(bob, lb.id);
    const aliceHash = await pay(alice.account, await amountOf(alice, aliceId));
    // Bob reports Alice's payment as his own, before she does.
    expect((await confirm(bob, bobId, aliceHash)).body).toMatchObject({ success: false, status: "initiated" });
    expect(await purchaseRow(bobId)).toMatchObject({ failure_reason: "wrong-sender" });
    expect((await client(bob).transactions[":id"]["reveal-private-key"].$post({ param: { id: bobId }, json: REVEAL_BODY })).status).toBe(409);
    // Alice's purchase is untouched by that and settles with her own hash.
    expect((await confirm(alice, aliceId, aliceHash)).body.status).toBe("completed");
    expect((await client(bob).transactions[":id"]["reveal-private-key"].$post({ param: { id: aliceId }, json: REVEAL_BODY })).status).toBe(404);
  });

  it("a hash replayed on a second purchase: refused as already used (the DB's trigger and unique index back it)", async () => {
    const buyer = await fundedBuyer();
    const first = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const second = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const hash = await pay(buyer.account, await amountOf(buyer, first));
    expect((await confirm(buyer, first, hash)).body.status).toBe("completed");
    expect((await confirm(buyer, second, hash)).body).toMatchObject({ success: false, status: "initiated" });
    expect(await purchaseRow(second)).toMatchObject({ failure_reason: "hash-used" });
    // The ledger row is the first purchase's: the trigger refuses before the unique index would.
    await expect(env.DB.prepare("UPDATE transactions SET status = 'completed', tx_hash = ? WHERE id = ?").bind(hash, second).run()).rejects.toThrow(
      /payment integrity/,
    );
    await env.DB.prepare("DELETE FROM escrow_transactions WHERE tx_hash = ?").bind(hash).run();
    await expect(env.DB.prepare("UPDATE transactions SET status = 'completed', tx_hash = ? WHERE id = ?").bind(hash, second).run()).rejects.toThrow(/UNIQUE/);
  });

  it("a hash this chain does not know (another chain's): pending until the grace after expiry, then failed as not found", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId)).id);
    const unknown = `0x${"5a".repeat(32)}`;
    expect((await confirm(buyer, id, unknown)).body).toMatchObject({ success: true, status: "pending", message: expect.stringContaining("not visible") });
    const row = (await findPurchase(createDb(env.DB), id))!;
    await verifyPayment(createDb(env.DB), readDeployment(env), row, unknown, row.expiresAt! + 11 * 60_000);
    expect(await purchaseRow(id)).toMatchObject({ status: "failed", failure_reason: "not-found" });
  });
});

describe("depth and reorgs (ETH_CONFIRMATIONS = 3 in these)", () => {
  const deep = { ...env, ETH_CONFIRMATIONS: "3" };

  it("1 of 3, 2 of 3, then settled at 3", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const hash = await pay(buyer.account, await amountOf(buyer, id), undefined, false);
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?").bind(hash, id).run();
    const db = createDb(env.DB);
    const first = await verifyPayment(db, readDeployment(deep), (await findPurchase(db, id))!, hash);
    expect(first.decision).toMatchObject({ outcome: "wait", note: "confirming", confirmations: 1 });
    expect(await escrowOf(hash)).toMatchObject({ status: "held" });
    await anvil("anvil_mine", ["0x1"]);
    expect((await verifyPayment(db, readDeployment(deep), (await findPurchase(db, id))!, hash)).decision).toMatchObject({ outcome: "wait", confirmations: 2 });
    expect(await purchaseRow(id)).toMatchObject({ status: "pending", confirmations: 2 });
    expect((await client(buyer).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY })).status).toBe(409);
    await anvil("anvil_mine", ["0x1"]);
    expect((await verifyPayment(db, readDeployment(deep), (await findPurchase(db, id))!, hash)).decision.outcome).toBe("settle");
    expect(await escrowOf(hash)).toMatchObject({ status: "released" });
  });

  it("a reorg before depth un-verifies: the payment vanishes, the purchase waits (audited as reorged) and never settles on it", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const snapshot = await anvil<string>("evm_snapshot");
    const hash = await pay(buyer.account, await amountOf(buyer, id), undefined, false);
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?").bind(hash, id).run();
    const db = createDb(env.DB);
    expect((await verifyPayment(db, readDeployment(deep), (await findPurchase(db, id))!, hash)).decision).toMatchObject({ outcome: "wait", confirmations: 1 });
    await anvil("evm_revert", [snapshot]);
    await anvil("anvil_mine", ["0x3"]);
    const after = await verifyPayment(db, readDeployment(deep), (await findPurchase(db, id))!, hash);
    expect(after.decision).toMatchObject({ outcome: "wait", note: "reorged" });
    expect(await purchaseRow(id)).toMatchObject({ status: "pending" });
    const audit = await env.DB.prepare("SELECT status, error_message FROM blockchain_transaction_audit WHERE transaction_id = ? ORDER BY id DESC")
      .bind(id)
      .first();
    expect(audit).toMatchObject({ status: "reorged" });
    // Past the grace it ends as reorged; the key was never released.
    const row = (await findPurchase(db, id))!;
    await verifyPayment(db, readDeployment(deep), row, hash, row.expiresAt! + 11 * 60_000);
    expect(await purchaseRow(id)).toMatchObject({ status: "failed", failure_reason: "reorged" });
    expect(await count("sales_analytics", "transaction_id = ?", id)).toBe(0);
  });
});

describe("money that arrives when it is not expected is listed for refund", () => {
  it("paid after expiry: the purchase stays expired, the payment is listed as late", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, id)
      .run();
    await runScheduledJobs(env);
    expect((await purchaseRow(id))!.status).toBe("expired");
    const hash = await pay(buyer.account, await amountOf(buyer, id));
    expect((await confirm(buyer, id, hash)).body).toMatchObject({ success: false, status: "expired" });
    expect(await escrowOf(hash)).toMatchObject({ status: "refund", attention_reason: "late", refund_status: "needed", amount: "0.01" });
    expect((await client(buyer).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY })).status).toBe(409);
  });

  it("paid twice: the second payment of a completed purchase is a duplicate for refund", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const wei = await amountOf(buyer, id);
    expect((await confirm(buyer, id, await pay(buyer.account, wei))).body.status).toBe("completed");
    const again = await pay(buyer.account, wei);
    expect((await confirm(buyer, id, again)).body).toMatchObject({ success: false, status: "completed" });
    expect(await escrowOf(again)).toMatchObject({ attention_reason: "duplicate", refund_status: "needed" });
  });
});

describe("the cron job finds and settles payments", () => {
  it("the tab was closed after paying: the scan finds the transfer and settles it", async () => {
    const buyer = await fundedBuyer();
    const l = await listWithKey(seller.userId, { price: "0.01" });
    const id = await reserve(buyer, l.id);
    const hash = await pay(buyer.account, await amountOf(buyer, id));
    const report = await runScheduledJobs(env);
    expect(report.payments.foundByScan).toBeGreaterThanOrEqual(1);
    expect(await purchaseRow(id)).toMatchObject({ status: "completed", tx_hash: hash.toLowerCase() });
    expect(await listing(l.id)).toEqual({ status: "sold", is_listed: 0 });
  });

  it("two open reservations by one buyer: the transfer pays the one asking exactly its amount, not the older one", async () => {
    const buyer = await fundedBuyer();
    const older = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.03" })).id);
    const newer = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.02" })).id);
    await pay(buyer.account, await amountOf(buyer, newer));
    await runScheduledJobs(env);
    expect((await purchaseRow(newer))!.status).toBe("completed");
    expect((await purchaseRow(older))!.status).toBe("initiated");
  });

  it("two cron runs at once settle a pending purchase exactly once", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const hash = await pay(buyer.account, await amountOf(buyer, id));
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?").bind(hash, id).run();
    await Promise.all([runScheduledJobs(env), runScheduledJobs(env), runScheduledJobs(env)]);
    expect((await purchaseRow(id))!.status).toBe("completed");
    expect(await count("sales_analytics", "transaction_id = ?", id)).toBe(1);
    expect(await count("price_history", "transaction_id = ?", id)).toBe(1);
    expect(await count("escrow_transactions", "tx_hash = ?", hash)).toBe(1);
  });

  it("the node down, then erroring, during confirm and cron: pending throughout, settled once it answers", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const hash = await pay(buyer.account, await amountOf(buyer, id));
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?").bind(hash, id).run();
    const db = createDb(env.DB);
    const down = { ...env, ETH_RPC_URL: "http://127.0.0.1:9" };
    // A JSON-RPC server that answers every eth_ call with an error (the Solana RPC).
    const erroring = { ...env, ETH_RPC_URL: env.SOL_RPC_URL };
    for (const broken of [down, erroring]) {
      expect((await verifyPayment(db, readDeployment(broken), (await findPurchase(db, id))!, hash)).decision).toMatchObject({
        outcome: "wait",
        note: "node-unavailable",
      });
      await runScheduledJobs(broken as Env);
      expect((await purchaseRow(id))!.status).toBe("pending");
    }
    // The broken runs held the row for a minute (their lease); the next minute's run settles it.
    await runScheduledJobs(env, Date.now() + 61_000);
    expect((await purchaseRow(id))!.status).toBe("completed");
  });
});
