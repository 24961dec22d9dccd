// Jamming the store, on the real chains (anvil and the LiteSVM Solana RPC): a reported signature no node can
// parse ends at the deadline like a missing one; a transfer the buyer neither sent nor reported never changes the
// purchase (a stranger's transfer carrying the victim's reference key); and money sent before a reservation existed
// never pays it (docs/payments.md#the-decision-decidepayment). Each attack here failed on the code before its fix.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { solanaVerifier } from "../chain/solana-payments";
import { createDb } from "../db/database";
import { paymentDeadline } from "../domain/payment-decision";
import { runScheduledJobs } from "../jobs/scheduled";
import { findPurchase } from "../purchases/purchase-row";
import { verifyPayment } from "../purchases/verify";
import { actors, listWithKey, purchaseRow, reserve, type Wallet } from "../test/purchase-fixtures";
import { amountOf, anvil, confirm, countRows, escrowOf, fundedBuyer, pay } from "./purchase-helpers";
import { confirmSol, fundedKeypair, fundedSolBuyer, payThroughWorker, rpc, sendInstructions, transferToPlatform } from "./solana-helpers";
import { client } from "../test/client";
import { REVEAL_BODY } from "../test/sealed-reveal";
import { readDeployment } from "../deployment/deployment";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

const db = () => createDb(env.DB);
const setExpiry = (id: string, expiresAt: number) => env.DB.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?").bind(expiresAt, id).run();

describe("a signature no node can parse holds nothing", () => {
  it("the node's 'Invalid param: WrongSize' means no such transaction, not a node that is away", async () => {
    const seen = await solanaVerifier(env.SOL_RPC_URL!, readDeployment(env).solana).inspect("2".repeat(64), {
      buyer: "11111111111111111111111111111111",
      reference: null,
    });
    expect(seen).toEqual({ kind: "missing" });
    const receipt = await solanaVerifier(env.SOL_RPC_URL!, readDeployment(env).solana).received("2".repeat(64));
    expect(receipt).toEqual({ kind: "missing" });
  });

  it("the review's attack, already recorded (a report from before the fix): the deadline ends it, the listing is free, one audit row per change", async () => {
    const { wallet } = await fundedSolBuyer();
    const l = await listWithKey(seller.userId, { network: "solana", price: "0.1" });
    const id = await reserve(wallet, l.id);
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?").bind("2".repeat(64), id).run();
    const row = (await findPurchase(db(), id))!;
    // Before the deadline it waits, as for any hash not found yet; runs that change nothing write nothing.
    await verifyPayment(db(), readDeployment(env), row, row.txHash!, row.expiresAt! + 60_000);
    await verifyPayment(db(), readDeployment(env), row, row.txHash!, row.expiresAt! + 120_000);
    expect(await purchaseRow(id)).toMatchObject({ status: "pending" });
    expect(await countRows("blockchain_transaction_audit", "transaction_id = ?", id)).toBe(1);
    await setExpiry(id, Date.now() - paymentDeadline(0) - 1000);
    await runScheduledJobs(env);
    expect(await purchaseRow(id)).toMatchObject({ status: "failed", failure_reason: "not-found" });
    const other = await fundedSolBuyer();
    expect(typeof (await reserve(other.wallet, l.id))).toBe("string");
  });
});

describe("a transfer the buyer neither sent nor reported never changes the purchase (Solana reference keys are public)", () => {
  it("the review's attack: a stranger's 1-lamport transfer carrying the victim's reference, just before expiry, does not fail the victim's paid purchase", async () => {
    const victim = await fundedSolBuyer();
    const id = await reserve(victim.wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.2" })).id);
    const reference = String((await purchaseRow(id))!.payment_reference);
    // The victim pays on time and closes the tab; the stranger's transfer comes after it (the scan reads it first).
    const paid = await payThroughWorker(victim.wallet, victim.keypair, id);
    const stranger = await fundedKeypair();
    const jam = await sendInstructions([stranger], transferToPlatform(stranger, 1n, [reference]));
    await setExpiry(id, Date.now());
    await new Promise((r) => setTimeout(r, 5));
    await runScheduledJobs(env);
    expect(await purchaseRow(id)).toMatchObject({ status: "completed", tx_hash: paid, failure_reason: null });
    expect(await escrowOf(paid)).toMatchObject({ transaction_id: id, status: "released", refund_status: null });
    // The stranger's lamport is the reconciliation's: owed back to its sender, no purchase's.
    expect(await escrowOf(jam)).toMatchObject({ transaction_id: null, sender_address: stranger.publicKey.toBase58(), attention_reason: "unmatched" });
  });

  it("before expiry: the purchase stays as it was, with no reason written on it", async () => {
    const victim = await fundedSolBuyer();
    const id = await reserve(victim.wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.2" })).id);
    const reference = String((await purchaseRow(id))!.payment_reference);
    const stranger = await fundedKeypair();
    await sendInstructions([stranger], transferToPlatform(stranger, 1n, [reference]));
    await runScheduledJobs(env);
    expect(await purchaseRow(id)).toMatchObject({ status: "initiated", tx_hash: null, failure_reason: null });
    // The victim still pays and settles.
    const paid = await payThroughWorker(victim.wallet, victim.keypair, id);
    expect(await confirmSol(victim.wallet, id, paid)).toMatchObject({ success: true, status: "completed" });
  });

  it("the buyer's own report of the stranger's transfer is refused and, before expiry, the reservation stays payable", async () => {
    const victim = await fundedSolBuyer();
    const id = await reserve(victim.wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.2" })).id);
    const stranger = await fundedKeypair();
    const jam = await sendInstructions([stranger], transferToPlatform(stranger, 1n, [String((await purchaseRow(id))!.payment_reference)]));
    expect(await confirmSol(victim.wallet, id, jam)).toMatchObject({ success: false, status: "initiated" });
    expect(await purchaseRow(id)).toMatchObject({ status: "initiated", failure_reason: "wrong-sender" });
  });
});

describe("a payment made before the reservation existed does not pay it", () => {
  it("the review's attack (Ethereum): a stray second payment, not yet final, does not settle the buyer's next, cheaper reservation", async () => {
    const buyer = await fundedBuyer();
    const a = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.02" })).id);
    const first = await pay(buyer.account, await amountOf(buyer, a));
    expect((await confirm(buyer, a, first)).body.status).toBe("completed");
    // The buyer's wallet sends the payment again; before it is final, the buyer reserves a cheaper listing.
    const stray = (await pay(buyer.account, await amountOf(buyer, a), undefined, false)).toLowerCase();
    const b = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    await anvil("anvil_mine", ["0x3"]);
    await runScheduledJobs(env);
    expect(await purchaseRow(b)).toMatchObject({ status: "initiated", tx_hash: null });
    expect(await escrowOf(stray)).toMatchObject({ status: "refund", refund_status: "needed" });
    // Reported on B, it is refused too; B's own payment then settles it, exactly.
    expect((await confirm(buyer, b, stray)).body).toMatchObject({ success: false, status: "initiated" });
    const own = await pay(buyer.account, await amountOf(buyer, b));
    expect((await confirm(buyer, b, own)).body).toMatchObject({ success: true, status: "completed" });
    expect(await escrowOf(own)).toMatchObject({ transaction_id: b, status: "released", refund_status: null });
  });

  it("Solana: a transfer landed in an earlier slot than the reservation's does not pay it, even carrying its reference", async () => {
    const { wallet, keypair } = await fundedSolBuyer();
    // A reference key cannot be known before the reservation makes it; here the earlier transfer carries one that
    // the reservation is then given, to prove the slot rule holds on its own.
    const reference = (await fundedKeypair()).publicKey.toBase58();
    const early = await sendInstructions([keypair], transferToPlatform(keypair, 200_000_000n, [reference]));
    await rpc("localnet_advanceSlots", [2]);
    const id = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.2" })).id);
    expect((await purchaseRow(id))!.reserved_block).toEqual(expect.any(Number));
    await env.DB.prepare("UPDATE transactions SET payment_reference = ? WHERE id = ?").bind(reference, id).run();
    expect(await confirmSol(wallet, id, early)).toMatchObject({ success: false, status: "initiated" });
    expect(await purchaseRow(id)).toMatchObject({ status: "initiated", failure_reason: "before-reservation" });
    expect(await escrowOf(early)).toMatchObject({ transaction_id: id, status: "refund", attention_reason: "unmatched", refund_status: "needed" });
    expect((await client(wallet).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY })).status).toBe(409);
  });
});

describe("an admin closing a stuck purchase lists its payment", () => {
  it("a final transfer from the buyer recorded on a purchase stuck pending: closed, and the payment listed for refund at once", async () => {
    const buyer = await fundedBuyer();
    const l = await listWithKey(seller.userId, { price: "0.01" });
    const id = await reserve(buyer, l.id);
    const hash = (await pay(buyer.account, await amountOf(buyer, id))).toLowerCase();
    // Stuck as a purchase could be before this fix (the settle refused, say): pending on a final payment.
    await env.DB.prepare("UPDATE transactions SET status = 'pending', tx_hash = ? WHERE id = ?").bind(hash, id).run();
    const res = await client(seller).admin.purchases[":id"].close.$post({ param: { id }, json: { note: "Stuck; refunding the buyer." } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, status: "failed", payment: "listed" });
    expect(await purchaseRow(id)).toMatchObject({ status: "failed", failure_reason: "admin-closed" });
    expect(await escrowOf(hash)).toMatchObject({ transaction_id: id, status: "refund", attention_reason: "late", refund_status: "needed" });
    expect(typeof (await reserve(await fundedBuyer(), l.id))).toBe("string");
  });
});
