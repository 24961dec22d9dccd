// On a real chain (anvil): each attack of an outside review, as the attacker would run it through
// the API and the cron job. One payment pays once, refunds only for money at depth, no hold for ever, and the
// accounting details. Each test failed on the code before the fix it names.
import { env } from "cloudflare:test";
import { createWalletClient, type Hex, http } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { ethereumChain, ethereumClient } from "../chain/ethereum";
import { createDb } from "../db/database";
import { runScheduledJobs } from "../jobs/scheduled";
import { findPurchase } from "../purchases/purchase-row";
import { verifyPayment } from "../purchases/verify";
import { actors, listWithKey, purchaseRow, reserve, type Wallet } from "../test/purchase-fixtures";
import { amountOf, anvil, confirm, countRows as count, escrowOf, fundedBuyer, pay } from "./purchase-helpers";
import { client, refusal } from "../test/client";
import { REVEAL_BODY } from "../test/sealed-reveal";
import { readDeployment } from "../deployment/deployment";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

const db = () => createDb(env.DB);
const cancel = (wallet: Wallet, id: string) => client(wallet).transactions[":id"].cancel.$post({ param: { id } });
const reveal = (wallet: Wallet, id: string) => client(wallet).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY });
const markRefunded = (escrowId: string, refundTxHash = `0x${"ab".repeat(32)}`) =>
  client(seller).admin.payments[":id"].refund.$post({ param: { id: escrowId }, json: { refundTxHash } });

/** A transfer the node holds in its pool but will never mine: its nonce leaves a gap of a thousand. */
async function unmined(account: PrivateKeyAccount, wei: bigint): Promise<Hex> {
  const wallet = createWalletClient({ account, chain: ethereumChain(env), transport: http(env.ETH_RPC_URL) });
  const nonce = await ethereumClient(env).getTransactionCount({ address: account.address });
  return wallet.sendTransaction({ to: env.PLATFORM_ETH_ADDRESS as Hex, value: wei, gas: 21_000n, nonce: nonce + 1000 });
}

async function blockTimeOf(hash: Hex): Promise<number> {
  const client = ethereumClient(env);
  const receipt = await client.getTransactionReceipt({ hash });
  return Number((await client.getBlock({ blockNumber: receipt.blockNumber })).timestamp) * 1000;
}

describe("one payment pays once: a hash in the ledger never settles another purchase", () => {
  it("the review's attack: a late payment listed for refund on A does not then settle B of the same listing", async () => {
    const buyer = await fundedBuyer();
    const l = await listWithKey(seller.userId, { price: "0.01" });
    const a = await reserve(buyer, l.id);
    const wei = await amountOf(buyer, a);
    expect((await cancel(buyer, a)).status).toBe(200);
    const hash = await pay(buyer.account, wei);
    expect((await confirm(buyer, a, hash)).body).toMatchObject({ success: false, status: "cancelled" });
    expect(await escrowOf(hash)).toMatchObject({ transaction_id: a, status: "refund", attention_reason: "late", refund_status: "needed" });

    const b = await reserve(buyer, l.id);
    const { body } = await confirm(buyer, b, hash);
    expect(body.success).toBe(false);
    expect(await purchaseRow(b)).toMatchObject({ status: "initiated", failure_reason: "hash-used" });
    expect((await reveal(buyer, b)).status).toBe(409);
    expect(await escrowOf(hash)).toMatchObject({ transaction_id: a, status: "refund", refund_status: "needed" });
    // The database itself refuses the settlement, whatever code would try it.
    await expect(env.DB.prepare("UPDATE transactions SET status = 'completed', tx_hash = ? WHERE id = ?").bind(hash.toLowerCase(), b).run()).rejects.toThrow(
      /payment integrity/,
    );
  });

  it("an underpaid (partial) hash does not settle a cheaper listing", async () => {
    const buyer = await fundedBuyer();
    const a = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const hash = await pay(buyer.account, (await amountOf(buyer, a)) - 1_000_000_000_000n);
    expect((await confirm(buyer, a, hash)).body).toMatchObject({ success: false, status: "failed" });
    expect(await escrowOf(hash)).toMatchObject({ transaction_id: a, attention_reason: "partial" });

    const cheaper = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.005" })).id);
    expect((await confirm(buyer, cheaper, hash)).body.success).toBe(false);
    expect(await purchaseRow(cheaper)).toMatchObject({ status: "initiated", failure_reason: "hash-used" });
    expect(await count("sales_analytics", "transaction_id = ?", cheaper)).toBe(0);
  });

  it("a hash already refunded does not settle a purchase", async () => {
    const buyer = await fundedBuyer();
    const a = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const wei = await amountOf(buyer, a);
    await cancel(buyer, a);
    const hash = await pay(buyer.account, wei);
    await confirm(buyer, a, hash);
    const row = (await escrowOf(hash))!;
    expect((await markRefunded(String(row.id))).status).toBe(200);

    const b = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    expect((await confirm(buyer, b, hash)).body.success).toBe(false);
    expect(await purchaseRow(b)).toMatchObject({ status: "initiated", failure_reason: "hash-used" });
    expect(await escrowOf(hash)).toMatchObject({ transaction_id: a, refund_status: "refunded" });
  });

  it("a payment mined before the reservation existed does not pay it (and is listed for refund once deep)", async () => {
    const buyer = await fundedBuyer();
    const l = await listWithKey(seller.userId, { price: "0.01" });
    const earlier = await pay(buyer.account, 10_000_000_000_000_000n);
    const b = await reserve(buyer, l.id);
    expect(await amountOf(buyer, b)).toBe(10_000_000_000_000_000n);
    expect((await confirm(buyer, b, earlier)).body.success).toBe(false);
    expect(await purchaseRow(b)).toMatchObject({ status: "initiated", failure_reason: "before-reservation" });
    expect(await escrowOf(earlier)).toMatchObject({ transaction_id: b, status: "refund", attention_reason: "unmatched", refund_status: "needed" });
    expect((await reveal(buyer, b)).status).toBe(409);
  });
});

describe("a refund is listed only for money at the required depth, and re-checked before it is marked done", () => {
  it("the review's attack: an unmined transfer reported on a closed purchase lists no refund", async () => {
    const buyer = await fundedBuyer();
    const a = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const wei = await amountOf(buyer, a);
    await cancel(buyer, a);
    const hash = await unmined(buyer.account, wei);
    const { body } = await confirm(buyer, a, hash);
    expect(body).toMatchObject({ success: false, status: "cancelled" });
    expect(await escrowOf(hash)).toBeNull();
    expect(await count("escrow_transactions", "transaction_id = ?", a)).toBe(0);
  });

  it("a shallow transfer on a closed purchase is listed only once it is deep (the cron scan finds it again)", async () => {
    const buyer = await fundedBuyer();
    const a = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const wei = await amountOf(buyer, a);
    await cancel(buyer, a);
    const hash = await pay(buyer.account, wei, undefined, false);
    const deep = { ...env, ETH_CONFIRMATIONS: "3" };
    const shallow = await verifyPayment(db(), readDeployment(deep), (await findPurchase(db(), a))!, hash.toLowerCase());
    expect(shallow.decision.outcome).not.toBe("refund");
    expect(await escrowOf(hash)).toBeNull();
    await anvil("anvil_mine", ["0x2"]);
    const buried = await verifyPayment(db(), readDeployment(deep), (await findPurchase(db(), a))!, hash.toLowerCase());
    expect(buried.decision).toMatchObject({ outcome: "refund", reason: "late" });
    expect(await escrowOf(hash)).toMatchObject({ transaction_id: a, attention_reason: "late", refund_status: "needed" });
  });

  it("'mark refunded' re-checks the payment on the chain: a hash the chain does not know is refused and the row says why", async () => {
    const id = crypto.randomUUID();
    const made = `0x${"7c".repeat(32)}`;
    await env.DB.prepare(
      `INSERT INTO escrow_transactions (id, network, amount, currency, sender_address, status, tx_hash, transaction_id, amount_base_units,
                                        attention_reason, refund_status, refund_base_units, created_at)
       VALUES (?, 'ethereum', '1', 'ETH', '0x0000000000000000000000000000000000000001', 'refund', ?, NULL, '1000000000000000000', 'late', 'needed', '1000000000000000000', ?)`,
    )
      .bind(id, made, Date.now())
      .run();
    const res = await markRefunded(id);
    expect(res.status).toBe(409);
    expect((await refusal(res)).message).toMatch(/not on the chain/i);
    const row = await env.DB.prepare("SELECT refund_status, check_failure FROM escrow_transactions WHERE id = ?").bind(id).first<Record<string, unknown>>();
    expect(row).toMatchObject({ refund_status: "needed", check_failure: expect.stringMatching(/not on the chain/i) });
    const listed = await (await client(seller).admin.payments.attention.$get()).json();
    expect(listed.payments.find((p) => p.id === id)?.checkFailure).toMatch(/not on the chain/i);
  });

  it("'mark refunded' refuses a row that claims more than the chain shows, or another sender", async () => {
    const buyer = await fundedBuyer();
    const a = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const wei = await amountOf(buyer, a);
    await cancel(buyer, a);
    const hash = (await pay(buyer.account, wei)).toLowerCase();
    await confirm(buyer, a, hash);
    const row = (await escrowOf(hash))!;
    await env.DB.prepare("UPDATE escrow_transactions SET amount_base_units = ?, refund_base_units = ? WHERE id = ?")
      .bind(String(wei * 2n), String(wei * 2n), row.id)
      .run();
    const more = await markRefunded(String(row.id));
    expect(more.status).toBe(409);
    expect((await refusal(more)).message).toMatch(/amount/i);
    await env.DB.prepare("UPDATE escrow_transactions SET amount_base_units = ?, refund_base_units = ?, sender_address = ? WHERE id = ?")
      .bind(String(wei), String(wei), "0x0000000000000000000000000000000000000002", row.id)
      .run();
    const other = await markRefunded(String(row.id));
    expect(other.status).toBe(409);
    expect((await refusal(other)).message).toMatch(/sender/i);
    await env.DB.prepare("UPDATE escrow_transactions SET sender_address = ? WHERE id = ?").bind(buyer.address, row.id).run();
    expect((await markRefunded(String(row.id))).status).toBe(200);
    expect(await escrowOf(hash)).toMatchObject({ refund_status: "refunded", status: "refund", check_failure: null });
  });
});

describe("a purchase cannot be held pending for ever", () => {
  it("the review's attack: re-reporting a made-up hash after expiry does not extend the hold; the deadline ends it", async () => {
    const buyer = await fundedBuyer();
    const l = await listWithKey(seller.userId, { price: "0.01" });
    const id = await reserve(buyer, l.id);
    expect((await confirm(buyer, id, `0x${"a1".repeat(32)}`)).body.status).toBe("pending");
    // Twenty minutes later (the reservation ran out 5 minutes after its 15), the attacker reports another made-up hash.
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 20 * 60_000, id)
      .run();
    await confirm(buyer, id, `0x${"a2".repeat(32)}`);
    await runScheduledJobs(env);
    expect(await purchaseRow(id)).toMatchObject({ status: "failed", failure_reason: "not-found" });
    const other = await fundedBuyer();
    expect(typeof (await reserve(other, l.id))).toBe("string");
  });

  it("a transfer that never gets mined (reported in time) ends the purchase at the deadline", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const hash = await unmined(buyer.account, await amountOf(buyer, id));
    expect((await confirm(buyer, id, hash)).body.status).toBe("pending");
    const row = (await findPurchase(db(), id))!;
    await verifyPayment(db(), readDeployment(env), row, hash.toLowerCase(), row.expiresAt! + 11 * 60_000);
    expect(await purchaseRow(id)).toMatchObject({ status: "failed", failure_reason: "not-found" });
    expect(await escrowOf(hash)).toBeNull();
  });

  it("a slow real payment: mined before expiry, reported after it, still settles", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const hash = await pay(buyer.account, await amountOf(buyer, id));
    const minedAt = await blockTimeOf(hash);
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?").bind(minedAt, id).run();
    while (Date.now() <= minedAt) await new Promise((r) => setTimeout(r, 20));
    expect((await confirm(buyer, id, hash)).body).toMatchObject({ success: true, status: "completed" });
  });

  it("a payment mined after expiry and reported after it does not settle; it is listed as late", async () => {
    const buyer = await fundedBuyer();
    const l = await listWithKey(seller.userId, { price: "0.01" });
    const id = await reserve(buyer, l.id);
    const hash = await pay(buyer.account, await amountOf(buyer, id));
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?")
      .bind((await blockTimeOf(hash)) - 1000, id)
      .run();
    const { body } = await confirm(buyer, id, hash);
    expect(body).toMatchObject({ success: false, status: "expired" });
    expect(await escrowOf(hash)).toMatchObject({ transaction_id: id, attention_reason: "late", refund_status: "needed" });
    expect(await env.DB.prepare("SELECT status FROM addresses WHERE id = ?").bind(l.id).first()).toEqual({ status: "active" });
  });
});

describe("accounting details", () => {
  it("settling twice (a stale row) writes the 'settled' chain-audit row once", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const hash = (await pay(buyer.account, await amountOf(buyer, id))).toLowerCase();
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?").bind(hash, id).run();
    const stale = (await findPurchase(db(), id))!;
    await verifyPayment(db(), readDeployment(env), stale, hash);
    await verifyPayment(db(), readDeployment(env), stale, hash);
    expect((await purchaseRow(id))!.status).toBe("completed");
    expect(await count("blockchain_transaction_audit", "transaction_id = ? AND status = 'settled'", id)).toBe(1);
  });

  it("a payment held for A (not yet deep) and reported on B: B does not settle with it; A does, and the ledger row stays A's", async () => {
    const deep = { ...env, ETH_CONFIRMATIONS: "3" };
    const buyer = await fundedBuyer();
    const a = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const b = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const hash = (await pay(buyer.account, await amountOf(buyer, a), undefined, false)).toLowerCase();
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?").bind(hash, a).run();
    expect((await verifyPayment(db(), readDeployment(deep), (await findPurchase(db(), a))!, hash)).decision.outcome).toBe("wait");
    expect(await escrowOf(hash)).toMatchObject({ status: "held", transaction_id: a });
    await anvil("anvil_mine", ["0x2"]);
    const onB = await verifyPayment(db(), readDeployment(deep), (await findPurchase(db(), b))!, hash);
    expect(onB.decision).toMatchObject({ outcome: "reject", reason: "hash-used" });
    expect((await purchaseRow(b))!.status).toBe("initiated");
    expect((await verifyPayment(db(), readDeployment(deep), (await findPurchase(db(), a))!, hash)).decision.outcome).toBe("settle");
    expect(await escrowOf(hash)).toMatchObject({ status: "released", transaction_id: a });
  });

  it("a cron run on a stale row that checks a second valid payment and loses the settle race lists that payment for refund", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const wei = await amountOf(buyer, id);
    const first = (await pay(buyer.account, wei)).toLowerCase();
    const second = (await pay(buyer.account, wei)).toLowerCase();
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?").bind(first, id).run();
    const stale = (await findPurchase(db(), id))!;
    // The buyer reports the second payment, which settles the purchase, while a cron run still holds the old row.
    expect((await confirm(buyer, id, second)).body.status).toBe("completed");
    await verifyPayment(db(), readDeployment(env), stale, first);
    expect(await escrowOf(first)).toMatchObject({ transaction_id: id, status: "refund", attention_reason: "duplicate", refund_status: "needed" });
    expect(await escrowOf(second)).toMatchObject({ transaction_id: id, status: "released" });
  });
});

describe("the node's chain id is checked before anything it says is trusted", () => {
  it("a node on another chain than ETH_CHAIN_ID: nothing is concluded, the purchase stays pending", async () => {
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const made = `0x${"c3".repeat(32)}`;
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?").bind(made, id).run();
    const row = (await findPurchase(db(), id))!;
    const elsewhere = { ...env, ETH_CHAIN_ID: "1" };
    const outcome = await verifyPayment(db(), readDeployment(elsewhere), row, made, row.expiresAt! + 60 * 60_000);
    expect(outcome.decision).toMatchObject({ outcome: "wait", note: "node-unavailable" });
    expect(await purchaseRow(id)).toMatchObject({ status: "pending" });
  });
});
