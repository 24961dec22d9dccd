// Reporting a payment while the chain node is down (this project has none): validated input, the buyer
// only, and the purchase stays pending for the cron job instead of failing. Also the cron job itself and
// the admin's payments needing attention. Real verification against anvil is in worker/test-chain/.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../index";
import { createDb } from "../db/database";
import { runScheduledJobs } from "../jobs/scheduled";
import { verifyPendingPayments } from "../purchases/payment-jobs";
import { verifyPayment } from "../purchases/verify";
import { actors, call, ethWallet, listWithKey, purchaseRow, purchaseState, reserve, type Wallet } from "./purchase-fixtures";
import { client, unchecked, refusal } from "./client";
import { REVEAL_BODY } from "./sealed-reveal";
import { readDeployment } from "../deployment/deployment";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

const HASH = `0x${"12".repeat(32)}`;

async function reserved() {
  const buyer = await ethWallet();
  const listing = await listWithKey(seller.userId);
  return { buyer, listing, id: await reserve(buyer, listing.id) };
}

describe("POST /api/transactions/:id/confirm", () => {
  it("node down: 200, pending, 0 of the required confirmations; the hash is kept for the cron job", async () => {
    const { buyer, id } = await reserved();
    const res = await client(buyer).transactions[":id"].confirm.$post({ param: { id }, json: { txHash: HASH, buyerWallet: buyer.address } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({
      success: true,
      status: "pending",
      confirmations: 0,
      requiredConfirmations: Number(env.ETH_CONFIRMATIONS),
      message: expect.stringContaining("not answering"),
    });
    expect(await purchaseRow(id)).toMatchObject({ status: "pending", tx_hash: HASH });
    const audit = await env.DB.prepare("SELECT status, network_status FROM blockchain_transaction_audit WHERE transaction_id = ?").bind(id).first();
    expect(audit).toEqual({ status: "node-unavailable", network_status: "unavailable" });
  });

  it("the cron job with the node still down leaves it pending, past its expiry too, and never releases a key", async () => {
    const { buyer, id } = await reserved();
    await client(buyer).transactions[":id"].confirm.$post({
      param: { id },
      json: { txHash: HASH.replace("12", "34"), buyerWallet: buyer.address },
    });
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 60_000, id)
      .run();
    const report = await runScheduledJobs(env);
    expect(report.payments.verified).toBeGreaterThanOrEqual(1);
    expect((await purchaseRow(id))!.status).toBe("pending");
    expect((await client(buyer).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY })).status).toBe(409);
  });

  it("only the buyer: another wallet 404, signed out 401, a buyerWallet that is not the session's 403", async () => {
    const { buyer, id } = await reserved();
    const other = await ethWallet();
    expect((await client(other).transactions[":id"].confirm.$post({ param: { id }, json: { txHash: HASH, buyerWallet: other.address } })).status).toBe(404);
    expect((await client().transactions[":id"].confirm.$post({ param: { id }, json: { txHash: HASH, buyerWallet: buyer.address } })).status).toBe(401);
    expect((await client(buyer).transactions[":id"].confirm.$post({ param: { id }, json: { txHash: HASH, buyerWallet: other.address } })).status).toBe(403);
    expect((await purchaseRow(id))!.status).toBe("initiated");
  });

  const hostile: [string, unknown][] = [
    ["missing fields", {}],
    ["txHash missing", { buyerWallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }],
    ["buyerWallet missing", { txHash: HASH }],
    ["garbage hash", { txHash: "not a hash", buyerWallet: "x" }],
    ["a hash one digit short", { txHash: HASH.slice(0, -1), buyerWallet: "x" }],
    ["a huge hash", { txHash: `0x${"a".repeat(100_000)}`, buyerWallet: "x" }],
    ["a number", { txHash: 12, buyerWallet: "x" }],
    ["an object", { txHash: { $ne: null }, buyerWallet: "x" }],
    ["SQL", { txHash: "0x'; DROP TABLE transactions; --", buyerWallet: "x" }],
  ];
  it.each(hostile)("%s: 400, nothing changed", async (_name, body) => {
    const { buyer, id } = await reserved();
    const before = await purchaseState();
    const res = await client(buyer).transactions[":id"].confirm.$post({ param: { id }, json: unchecked(body) });
    expect([400, 413]).toContain(res.status);
    expect(await purchaseState()).toBe(before);
  });

  it("a Solana signature on an Ethereum purchase (the other network's hash): 400, nothing changed", async () => {
    const { buyer, id } = await reserved();
    const signature = "5".repeat(87);
    const res = await client(buyer).transactions[":id"].confirm.$post({
      param: { id },
      json: { txHash: signature, buyerWallet: buyer.address },
    });
    expect(res.status).toBe(400);
    expect((await purchaseRow(id))!.status).toBe("initiated");
  });

  it("an id that is not a transaction id is simply not found", async () => {
    expect((await call("POST", "/api/transactions/../admin/confirm", seller, { txHash: HASH, buyerWallet: seller.address })).status).toBe(404);
  });
});

describe("the cron job", () => {
  it("reached through the Worker's scheduled handler: expires lapsed reservations and recomputes market trends", async () => {
    const { id } = await reserved();
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, id)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await purchaseRow(id))!.status).toBe("expired");
    const trends = await env.DB.prepare("SELECT network, category, active_listings FROM market_trends WHERE period = '24h'").all();
    expect(trends.results.length).toBeGreaterThan(0);
  });

  async function pendingPurchases(n: number): Promise<string[]> {
    const ids = [];
    for (let i = 0; i < n; i++) {
      const { id } = await reserved();
      await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?")
        .bind(`0x${String(i).repeat(64)}`, id)
        .run();
      ids.push(id);
    }
    await env.DB.prepare("UPDATE transactions SET lease_until = NULL").run();
    return ids;
  }

  it("two runs at once: a row one run is verifying is never verified by the other", async () => {
    const ids = await pendingPurchases(3);
    const db = createDb(env.DB);
    const now = Date.now();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let started!: () => void;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    const inA: string[] = [];
    const runA = verifyPendingPayments(db, readDeployment(env), now, async (...args) => {
      inA.push(args[2].id);
      started();
      await gate;
      return verifyPayment(...args);
    });
    await firstStarted;
    // Run B starts while A is still inside its first verification.
    const inB: string[] = [];
    await verifyPendingPayments(db, readDeployment(env), now + 1_000, async (...args) => {
      inB.push(args[2].id);
      return verifyPayment(...args);
    });
    open();
    await runA;
    for (const id of ids) expect(inA).toContain(id);
    expect(inB.filter((id) => inA.includes(id))).toEqual([]);
    for (const id of ids) expect((await purchaseRow(id))!.status).toBe("pending");
  }, 30_000);

  it("a verified row is given back at once: the next run (not a minute later) checks it again", async () => {
    const ids = await pendingPurchases(2);
    const db = createDb(env.DB);
    const now = Date.now();
    const first = await verifyPendingPayments(db, readDeployment(env), now);
    expect(first.verified).toBeGreaterThanOrEqual(ids.length);
    const leased = await env.DB.prepare("SELECT count(*) AS n FROM transactions WHERE lease_until IS NOT NULL").first<{ n: number }>();
    expect(leased!.n).toBe(0);
    const seen: string[] = [];
    await verifyPendingPayments(db, readDeployment(env), now + 1_000, async (...args) => {
      seen.push(args[2].id);
      return verifyPayment(...args);
    });
    for (const id of ids) expect(seen).toContain(id);
  }, 30_000);

  it("a run whose verification throws still gives back that row and every row after it", async () => {
    const ids = await pendingPurchases(3);
    const db = createDb(env.DB);
    let calls = 0;
    await expect(
      verifyPendingPayments(db, readDeployment(env), Date.now(), async (...args) => {
        if (++calls === 2) throw new Error("node fell over");
        return verifyPayment(...args);
      }),
    ).rejects.toThrow("node fell over");
    expect(calls).toBe(2);
    for (const id of ids) expect(await env.DB.prepare("SELECT lease_until FROM transactions WHERE id = ?").bind(id).first()).toEqual({ lease_until: null });
    const leased = await env.DB.prepare("SELECT count(*) AS n FROM transactions WHERE lease_until IS NOT NULL").first<{ n: number }>();
    expect(leased!.n).toBe(0);
  });

  it("market trends: one row per network and category, replaced, not accumulated", async () => {
    await runScheduledJobs(env);
    const first = await env.DB.prepare("SELECT count(*) AS n FROM market_trends").first<{ n: number }>();
    await runScheduledJobs(env);
    const second = await env.DB.prepare("SELECT count(*) AS n FROM market_trends").first<{ n: number }>();
    expect(second!.n).toBe(first!.n);
    const dupes = await env.DB.prepare(
      "SELECT count(*) AS n FROM (SELECT network, category FROM market_trends GROUP BY network, category HAVING count(*) > 1)",
    ).first<{ n: number }>();
    expect(dupes!.n).toBe(0);
  });
});

describe("admin: payments needing attention", () => {
  async function seedRefund(reason: string) {
    const id = crypto.randomUUID();
    const hash = `0x${Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
    await env.DB.prepare(
      `INSERT INTO escrow_transactions (id, network, amount, currency, sender_address, status, tx_hash, transaction_id, amount_base_units, expected_base_units,
                                        attention_reason, refund_status, refund_base_units, created_at)
       VALUES (?, 'ethereum', '0.4', 'ETH', '0xabc', 'refund', ?, 'tx', '400000000000000000', '500000000000000000', ?, 'needed', '400000000000000000', ?)`,
    )
      .bind(id, hash, reason, Date.now())
      .run();
    return { id, hash };
  }

  it("lists refunds due with amounts; only admins; marking one refunded is refused while the chain cannot re-check it, and the row says why", async () => {
    const { id, hash } = await seedRefund("partial");
    const user = await ethWallet();
    expect((await client(user).admin.payments.attention.$get()).status).toBe(403);
    expect((await client().admin.payments.attention.$get()).status).toBe(401);
    const list = await (await client(seller).admin.payments.attention.$get()).json();
    expect(list.payments.find((p) => p.id === id)).toMatchObject({
      transactionId: "tx",
      network: "ethereum",
      amount: "0.4",
      currency: "ETH",
      expectedAmount: "0.5",
      senderAddress: "0xabc",
      txHash: hash,
      reason: "partial",
      status: "refund",
      explorerUrl: null,
      checkFailure: null,
      checkedAt: null,
    });

    expect((await client(user).admin.payments[":id"].refund.$post({ param: { id }, json: { refundTxHash: HASH } })).status).toBe(403);
    expect((await client(seller).admin.payments[":id"].refund.$post({ param: { id }, json: { refundTxHash: "nope" } })).status).toBe(400);
    expect((await client(seller).admin.payments[":id"].refund.$post({ param: { id: crypto.randomUUID() }, json: { refundTxHash: HASH } })).status).toBe(404);
    // No node here: the payment cannot be re-checked, so nothing is marked (the chain tests mark real ones).
    const res = await client(seller).admin.payments[":id"].refund.$post({ param: { id }, json: { refundTxHash: HASH } });
    expect(res.status).toBe(503);
    expect((await refusal(res)).message).toMatch(/not answering/);
    const row = await env.DB.prepare("SELECT refund_status, release_tx_hash, check_failure FROM escrow_transactions WHERE id = ?").bind(id).first();
    expect(row).toEqual({ refund_status: "needed", release_tx_hash: null, check_failure: expect.stringMatching(/not answering/) });
    const after = await (await client(seller).admin.payments.attention.$get()).json();
    expect(after.payments.find((p) => p.id === id)?.checkFailure).toMatch(/not answering/);
    const audit = await env.DB.prepare("SELECT count(*) AS n FROM transaction_audit WHERE action = 'refund_marked' AND metadata LIKE ?")
      .bind(`%${id}%`)
      .first<{ n: number }>();
    expect(audit!.n).toBe(0);
  });

  it("a payment already refunded is not marked again (409), before the chain is asked", async () => {
    const { id } = await seedRefund("late");
    await env.DB.prepare("UPDATE escrow_transactions SET refund_status = 'refunded' WHERE id = ?").bind(id).run();
    expect((await client(seller).admin.payments[":id"].refund.$post({ param: { id }, json: { refundTxHash: HASH } })).status).toBe(409);
  });
});
