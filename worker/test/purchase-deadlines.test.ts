// Every purchase state has an exit the clock reaches (docs/payments.md#deadlines), proved where no chain node
// answers (this project's nodes are a dead port): a malformed signature is refused before anything is written, a
// purchase waiting on a node that never answers ends at its last deadline, the cron job writes a chain-audit row
// only when something changed, and an admin can close a stuck purchase with a note. Each attack here failed on the
// code before its fix.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../db/database";
import { paymentDeadline, NODE_OUTAGE_GRACE_MS } from "../domain/payment-decision";
import { runScheduledJobs } from "../jobs/scheduled";
import { verifyPendingPayments } from "../purchases/payment-jobs";
import { actors, ethWallet, listWithKey, purchaseRow, purchaseState, reserve, solWallet, type Wallet, call } from "./purchase-fixtures";
import { client, unchecked } from "./client";
import { readDeployment } from "../deployment/deployment";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

const HASH = `0x${"5e".repeat(32)}`;
const count = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;
/** Everything a refused report could have written: the purchase tables, the rate-limit counters, the audits. */
const written = async () =>
  JSON.stringify([
    await purchaseState(),
    await count("SELECT count(*) AS n FROM rate_limits"),
    await count("SELECT count(*) AS n FROM blockchain_transaction_audit"),
    await count("SELECT count(*) AS n FROM transaction_audit"),
  ]);
const confirmOn = (wallet: Wallet, id: string, txHash: string) =>
  client(wallet).transactions[":id"].confirm.$post({ param: { id }, json: { txHash, buyerWallet: wallet.address } });
/** A string body is sent as it is (not JSON-encoded): the hostile bodies include text that is not JSON. */
const closeAsAdmin = (wallet: Wallet | undefined, id: string, body: unknown) =>
  typeof body === "string"
    ? call("POST", client().admin.purchases[":id"].close.$path({ param: { id } }), wallet, body)
    : client(wallet).admin.purchases[":id"].close.$post({ param: { id }, json: unchecked(body) });

async function pendingEthereum() {
  const buyer = await ethWallet();
  const listing = await listWithKey(seller.userId);
  const id = await reserve(buyer, listing.id);
  expect((await confirmOn(buyer, id, HASH)).status).toBe(200);
  expect((await purchaseRow(id))!.status).toBe("pending");
  return { buyer, listing, id };
}

describe("a malformed payment hash is refused at once, before anything is written", () => {
  // The review's attack: base58 text that is no 64-byte signature passed the pattern, and the node's
  // "-32602 Invalid param: WrongSize" was read as "unavailable", which held the listing for ever.
  const signatures: [string, string][] = [
    ["64 base58 characters that decode to 47 bytes", "2".repeat(64)],
    ["88 characters that decode to 88 bytes", "1".repeat(88)],
    ["90 characters that decode to more than 64 bytes", "z".repeat(90)],
    ["88 characters that decode to 65 bytes (2^512)", "67rpwLCuS5DGA8KGZXKsVQ7dnPb9goRLoKfgGbLfQg9WoLUgNY77E2jT11fem3coV9nAkguBACzrU1iyZM4B8roR"],
  ];
  it.each(signatures)("Solana: %s: 400", async (_name, txHash) => {
    const buyer = await solWallet();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { network: "solana" })).id);
    const before = await written();
    const res = await confirmOn(buyer, id, txHash);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: expect.any(String), message: expect.stringMatching(/txHash/) });
    expect(await written()).toBe(before);
    expect((await purchaseRow(id))!.status).toBe("initiated");
  });

  it("Ethereum: a hash that is not 32 bytes of hex: 400, nothing written", async () => {
    const { id, buyer } = await (async () => {
      const b = await ethWallet();
      return { buyer: b, id: await reserve(b, (await listWithKey(seller.userId)).id) };
    })();
    const before = await written();
    for (const txHash of [`0x${"5e".repeat(31)}`, `0x${"5e".repeat(33)}`, `0x${"g".repeat(64)}`]) {
      expect((await confirmOn(buyer, id, txHash)).status).toBe(400);
    }
    expect(await written()).toBe(before);
  });
});

describe("the cron job writes a chain-audit row only when the purchase changed", () => {
  it("three runs over a purchase whose node does not answer: one row, the report's", async () => {
    const { id } = await pendingEthereum();
    const rows = () => count("SELECT count(*) AS n FROM blockchain_transaction_audit WHERE transaction_id = ?", id);
    expect(await rows()).toBe(1);
    const db = createDb(env.DB);
    for (let run = 1; run <= 3; run++) await verifyPendingPayments(db, readDeployment(env), Date.now() + run);
    expect(await rows()).toBe(1);
  });
});

describe("a node that never answers holds a purchase until its last deadline, not for ever", () => {
  it("pending past expiry + the missing-payment grace + the node-outage grace: failed as unverified, the listing free again", async () => {
    const { listing, id } = await pendingEthereum();
    const expiresAt = Date.now() - (paymentDeadline(0) + NODE_OUTAGE_GRACE_MS) - 1000;
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?").bind(expiresAt, id).run();
    await runScheduledJobs(env);
    expect(await purchaseRow(id)).toMatchObject({ status: "failed", failure_reason: "unverified", tx_hash: HASH });
    const other = await ethWallet();
    expect(typeof (await reserve(other, listing.id))).toBe("string");
  });

  it("also when payments are not checked at all (unsafe settings): the clock alone ends it", async () => {
    const { id } = await pendingEthereum();
    const expiresAt = Date.now() - (paymentDeadline(0) + NODE_OUTAGE_GRACE_MS) - 1000;
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?").bind(expiresAt, id).run();
    const report = await runScheduledJobs({ ...env, ETH_CONFIRMATIONS: "0" });
    expect(report.errors.join(" ")).toMatch(/unsafe payment settings/);
    expect(report.payments.closedOverdue).toBeGreaterThanOrEqual(1);
    expect(await purchaseRow(id)).toMatchObject({ status: "failed", failure_reason: "unverified" });
    const audit = await env.DB.prepare("SELECT performed_by, metadata FROM transaction_audit WHERE transaction_id = ? AND action = 'closed_overdue'")
      .bind(id)
      .first();
    expect(audit).toMatchObject({ performed_by: "payment-deadline" });
  });

  it("before that deadline it stays pending", async () => {
    const { id } = await pendingEthereum();
    const expiresAt = Date.now() - (paymentDeadline(0) + NODE_OUTAGE_GRACE_MS) + 60_000;
    await env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?").bind(expiresAt, id).run();
    await runScheduledJobs(env);
    expect((await purchaseRow(id))!.status).toBe("pending");
  });
});

describe("POST /api/admin/purchases/:id/close: an admin closes a stuck purchase with a note", () => {
  it("only an admin, only with a note; nothing changes otherwise", async () => {
    const { buyer, id } = await pendingEthereum();
    const before = await written();
    expect((await closeAsAdmin(undefined, id, { note: "stuck for an hour" })).status).toBe(401);
    expect((await closeAsAdmin(buyer, id, { note: "stuck for an hour" })).status).toBe(403);
    for (const body of [{}, { note: "" }, { note: "  x " }, { note: "\u200b\u200b\u200b\u200b" }, { note: 12 }, { note: "n".repeat(1001) }, "not json"]) {
      const res = await closeAsAdmin(seller, id, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
    expect((await client(seller).admin.purchases[":id"].close.$post({ param: { id: "not-an-id" }, json: { note: "stuck for an hour" } })).status).toBe(400);
    expect((await closeAsAdmin(seller, crypto.randomUUID(), { note: "stuck for an hour" })).status).toBe(404);
    expect(await written()).toBe(before);
  });

  it("closes a pending purchase: failed as closed by an admin, audited with the note, the listing reservable, the hash kept", async () => {
    const { buyer, listing, id } = await pendingEthereum();
    // The purchase page offers the close to admins (the admin here is also the seller), never to the buyer.
    const viewOf = async (wallet: Wallet) => (await client(wallet).transactions[":id"].$get({ param: { id } })).json();
    expect(await viewOf(seller)).toMatchObject({ adminMayClose: true, role: "seller" });
    expect(await viewOf(buyer)).toMatchObject({ adminMayClose: false, role: "buyer" });
    const res = await closeAsAdmin(seller, id, { note: "Node never found the payment; buyer told by mail." });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, status: "failed", payment: "watching" });
    expect(await purchaseRow(id)).toMatchObject({ status: "failed", failure_reason: "admin-closed", tx_hash: HASH });
    const audit = await env.DB.prepare("SELECT performed_by, metadata FROM transaction_audit WHERE transaction_id = ? AND action = 'purchase_closed'")
      .bind(id)
      .all<{ performed_by: string; metadata: string }>();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0].performed_by.toLowerCase()).toBe(seller.address.toLowerCase());
    expect(JSON.parse(audit.results[0].metadata)).toMatchObject({ note: "Node never found the payment; buyer told by mail.", from: "pending", txHash: HASH });
    // The buyer sees why; another buyer can reserve the listing.
    const view = await (await client(buyer).transactions[":id"].$get({ param: { id } })).json();
    expect(view).toMatchObject({ status: "failed", failureReason: "admin-closed" });
    expect((await viewOf(seller)).adminMayClose).toBe(false);
    expect(typeof (await reserve(await ethWallet(), listing.id))).toBe("string");
    // Once: a second close is refused and writes nothing.
    const again = await closeAsAdmin(seller, id, { note: "again" });
    expect(again.status).toBe(409);
    expect(await count("SELECT count(*) AS n FROM transaction_audit WHERE transaction_id = ? AND action = 'purchase_closed'", id)).toBe(1);
  });

  it("closes an unpaid reservation too; a completed purchase is never closed", async () => {
    const buyer = await ethWallet();
    const id = await reserve(buyer, (await listWithKey(seller.userId)).id);
    expect((await closeAsAdmin(seller, id, { note: "test reservation" })).status).toBe(200);
    expect(await purchaseRow(id)).toMatchObject({ status: "failed", failure_reason: "admin-closed", tx_hash: null });

    const paid = await reserve(buyer, (await listWithKey(seller.userId)).id);
    await env.DB.prepare("UPDATE transactions SET status = 'completed', tx_hash = ?, completed_at = ? WHERE id = ?").bind(HASH, Date.now(), paid).run();
    const res = await closeAsAdmin(seller, paid, { note: "should not close" });
    expect(res.status).toBe(409);
    expect((await purchaseRow(paid))!.status).toBe("completed");
  });
});
