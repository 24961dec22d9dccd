// On the LiteSVM Solana RPC: one transfer that carries two purchases' reference keys pays one of
// them, never both (the ledger's unique hash and the database's triggers hold it, not the reference check).
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { actors, listWithKey, purchaseRow, reserve, type Wallet } from "../test/purchase-fixtures";
import { confirmSol, fundedSolBuyer, sendInstructions, transferToPlatform } from "./solana-helpers";
import { client } from "../test/client";
import { REVEAL_BODY } from "../test/sealed-reveal";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

describe("one payment pays once, on Solana", () => {
  it("the review's variant: one transfer carrying two references, listed for refund on the cancelled A, does not then settle B", async () => {
    const { wallet, keypair } = await fundedSolBuyer();
    const a = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.3" })).id);
    const b = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.3" })).id);
    const refs = [String((await purchaseRow(a))!.payment_reference), String((await purchaseRow(b))!.payment_reference)];
    expect((await client(wallet).transactions[":id"].cancel.$post({ param: { id: a } })).status).toBe(200);
    const signature = await sendInstructions([keypair], transferToPlatform(keypair, 300_000_000n, refs));
    expect(await confirmSol(wallet, a, signature)).toMatchObject({ success: false, status: "cancelled" });
    expect(
      await env.DB.prepare("SELECT transaction_id, attention_reason, refund_status FROM escrow_transactions WHERE tx_hash = ?").bind(signature).first(),
    ).toEqual({
      transaction_id: a,
      attention_reason: "late",
      refund_status: "needed",
    });
    expect((await confirmSol(wallet, b, signature)).success).toBe(false);
    expect(await purchaseRow(b)).toMatchObject({ status: "initiated", failure_reason: "hash-used" });
    expect((await client(wallet).transactions[":id"]["reveal-private-key"].$post({ param: { id: b }, json: REVEAL_BODY })).status).toBe(409);
  });

  it("one transfer carrying two references settles one purchase only", async () => {
    const { wallet, keypair } = await fundedSolBuyer();
    const a = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.3" })).id);
    const b = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.3" })).id);
    const refs = [String((await purchaseRow(a))!.payment_reference), String((await purchaseRow(b))!.payment_reference)];
    const signature = await sendInstructions([keypair], transferToPlatform(keypair, 300_000_000n, refs));
    expect(await confirmSol(wallet, a, signature)).toMatchObject({ success: true, status: "completed" });
    expect((await confirmSol(wallet, b, signature)).success).toBe(false);
    expect(await purchaseRow(b)).toMatchObject({ status: "initiated", failure_reason: "hash-used" });
    expect((await client(wallet).transactions[":id"]["reveal-private-key"].$post({ param: { id: b }, json: REVEAL_BODY })).status).toBe(409);
    const ledger = await env.DB.prepare("SELECT transaction_id, status FROM escrow_transactions WHERE tx_hash = ?").bind(signature).all();
    expect(ledger.results).toEqual([{ transaction_id: a, status: "released" }]);
  });
});
