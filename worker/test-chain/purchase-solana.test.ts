// Buying on Solana against the LiteSVM JSON-RPC: the Worker builds the unsigned transfer (Solana Pay
// transaction request), the buyer signs and sends it, the Worker decodes it from getTransaction itself.
import { Keypair } from "@solana/web3.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { runScheduledJobs } from "../jobs/scheduled";
import { actors, listWithKey, purchaseRow, reserve, type Wallet } from "../test/purchase-fixtures";
import { confirmSol, fundedSolBuyer, payThroughWorker, sendInstructions, transferToPlatform } from "./solana-helpers";
import { client } from "../test/client";
import { revealSealed } from "../test/sealed-reveal";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

const manualPayment = (keypair: Keypair, lamports: bigint, reference: string | null) =>
  sendInstructions([keypair], transferToPlatform(keypair, lamports, reference ? [reference] : []));

describe("Solana purchases on the LiteSVM chain", () => {
  it("pay with the Worker-built transfer, confirm, reveal: the key derives the listing's address", async () => {
    const { wallet, keypair } = await fundedSolBuyer();
    const l = await listWithKey(seller.userId, { network: "solana", price: "0.75" });
    const id = await reserve(wallet, l.id);
    const view = await (await client(wallet).transactions[":id"].$get({ param: { id } })).json();
    expect(view).toMatchObject({ amountBaseUnits: "750000000", recipient: env.PLATFORM_SOL_ADDRESS, requiredConfirmations: 1 });
    const signature = await payThroughWorker(wallet, keypair, id);
    expect(await confirmSol(wallet, id, signature)).toMatchObject({ success: true, status: "completed" });
    // The fee the transaction paid beside the reservation's fixed estimate: one signature, 5000 lamports.
    expect(
      await env.DB.prepare("SELECT estimated_cost, actual_gas, actual_cost, accuracy, success FROM gas_estimation_audit WHERE transaction_id = ?")
        .bind(id)
        .first(),
    ).toEqual({
      estimated_cost: "0.000005",
      actual_gas: null,
      actual_cost: "0.000005",
      accuracy: 1,
      success: 1,
    });
    const { body: reveal, privateKey: opened } = await revealSealed(client(wallet), id);
    if (!reveal.success) throw new Error(reveal.message);
    const privateKey = opened!;
    const secret = base58.decode(privateKey);
    expect(base58.encode(ed25519.getPublicKey(secret.slice(0, 32)))).toBe(l.key.address);
  });

  it("another wallet cannot get the transfer built for it: 403", async () => {
    const { wallet } = await fundedSolBuyer();
    const id = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana" })).id);
    const res = await client(wallet).transactions[":id"]["solana-transaction"].$post({
      param: { id },
      json: { account: Keypair.generate().publicKey.toBase58() },
    });
    expect(res.status).toBe(403);
  });

  it("underpaid by one lamport: failed, listed for refund", async () => {
    const { wallet, keypair } = await fundedSolBuyer();
    const id = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.5" })).id);
    const row = await purchaseRow(id);
    const signature = await manualPayment(keypair, 499_999_999n, String(row!.payment_reference));
    expect(await confirmSol(wallet, id, signature)).toMatchObject({ success: false, status: "failed" });
    expect(await purchaseRow(id)).toMatchObject({ failure_reason: "underpaid" });
    const escrow = await env.DB.prepare("SELECT attention_reason, refund_status FROM escrow_transactions WHERE tx_hash = ?").bind(signature).first();
    expect(escrow).toEqual({ attention_reason: "partial", refund_status: "needed" });
  });

  it("a transfer without the purchase's reference key is refused", async () => {
    const { wallet, keypair } = await fundedSolBuyer();
    const id = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.5" })).id);
    const signature = await manualPayment(keypair, 500_000_000n, null);
    expect(await confirmSol(wallet, id, signature)).toMatchObject({ success: false, status: "initiated" });
    expect(await purchaseRow(id)).toMatchObject({ failure_reason: "missing-reference" });
  });

  it("the tab was closed after paying: the cron job finds the payment by its reference key and settles it", async () => {
    const { wallet, keypair } = await fundedSolBuyer();
    const l = await listWithKey(seller.userId, { network: "solana", price: "0.2" });
    const id = await reserve(wallet, l.id);
    const signature = await payThroughWorker(wallet, keypair, id);
    const report = await runScheduledJobs(env);
    expect(report.payments.foundByScan).toBeGreaterThanOrEqual(1);
    expect(await purchaseRow(id)).toMatchObject({ status: "completed", tx_hash: signature });
  });
});
