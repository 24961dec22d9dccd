// Dust switches every alert off. 205 zero-value transfers to the platform (in one block, as a party
// sending them cheaply would) and then a real late payment: the dust is recorded as ignored (not owed back, not in
// Admin > Payments), the late payment is listed for refund, and the webhook receives its alert.
import { env } from "cloudflare:test";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { runScheduledJobs } from "../jobs/scheduled";
import { actors, listWithKey, reserve, type Wallet } from "../test/purchase-fixtures";
import { amountOf, anvil, countRows, escrowOf, fundedBuyer, pay } from "./purchase-helpers";
import { webhookBox } from "./webhook";
import { client } from "../test/client";

const hook = webhookBox("dust");
let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

/** `n` transfers of `wei` to the platform, all mined in one block, from one fresh wallet or each from its own; their hashes. */
async function dustInOneBlock(n: number, { wei = 0n, senders = 1 } = {}): Promise<Hex[]> {
  const wallets = Array.from({ length: senders }, () => privateKeyToAccount(generatePrivateKey()).address);
  for (const w of wallets) {
    await anvil("anvil_setBalance", [w, "0x56BC75E2D63100000"]);
    await anvil("anvil_impersonateAccount", [w]);
  }
  // Other test files share this anvil: automine is off only for as long as the sends take.
  await anvil("evm_setAutomine", [false]);
  const hashes: Hex[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const from = wallets[i % senders];
      hashes.push(await anvil<Hex>("eth_sendTransaction", [{ from, to: env.PLATFORM_ETH_ADDRESS, value: `0x${wei.toString(16)}`, gas: "0x5208" }]));
    }
  } finally {
    await anvil("evm_mine");
    await anvil("evm_setAutomine", [true]);
    for (const w of wallets) await anvil("anvil_stopImpersonatingAccount", [w]);
  }
  return hashes;
}

/** Cron runs until the Ethereum reconciliation has read `block`. */
async function reconciledThrough(block: number) {
  for (let i = 0; i < 20; i++) {
    const cursor = await env.DB.prepare("SELECT next_block FROM reconcile_cursors WHERE network = 'ethereum'").first<{ next_block: number }>();
    if (cursor && cursor.next_block > block) return;
    await anvil("anvil_mine", ["0x1"]);
    await runScheduledJobs(hook.env);
  }
  throw new Error(`the reconciliation did not reach block ${block}`);
}

describe("dust", () => {
  it("205 zero-value transfers, then a late payment: the dust is ignored and the late payment is alerted", async () => {
    await runScheduledJobs(hook.env); // the reconciliation starts from where the chain is now
    const dust = await dustInOneBlock(205);
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const wei = await amountOf(buyer, id);
    expect((await client(buyer).transactions[":id"].cancel.$post({ param: { id } })).status).toBe(200);
    const late = (await pay(buyer.account, wei)).toLowerCase();
    const block = Number((await anvil<{ blockNumber: string }>("eth_getTransactionReceipt", [late])).blockNumber);
    await reconciledThrough(block);

    const escrow = await escrowOf(late);
    expect(escrow).toMatchObject({ transaction_id: id, attention_reason: "late", refund_status: "needed" });
    // The alerts run first in each cron run (worker/jobs/scheduled.ts), so what this run found goes out in the next.
    await runScheduledJobs(hook.env);
    const alerts = await hook.received(`escrow:${escrow!.id}`);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].body.text).toContain(`transaction ${late}`);

    // Every dust transfer is in the ledger, ignored; none is owed back, none is a difference, none is alerted.
    for (const h of [dust[0], dust[204]]) expect(await escrowOf(h)).toMatchObject({ refund_status: "ignored", amount_base_units: "0" });
    const lower = JSON.stringify(dust.map((h) => h.toLowerCase()));
    expect(await countRows("escrow_transactions", "refund_status = 'ignored' AND tx_hash IN (SELECT value FROM json_each(?))", lower)).toBe(205);
    expect(await countRows("payment_attention", "tx_hash IN (SELECT value FROM json_each(?))", lower)).toBe(0);
    expect(await countRows("alert_incidents", "key IN (SELECT 'escrow:' || id FROM escrow_transactions WHERE refund_status = 'ignored')")).toBe(0);
    // (Other test files pay the same platform address on the same anvil: their transfers are strangers' here.)
    const listed = (await (await client(seller).admin.payments.attention.$get()).json()).payments.map((p) => p.txHash);
    expect(listed).toContain(late);
    expect(listed.filter((h) => dust.some((d) => d.toLowerCase() === h))).toEqual([]);
  });

  it("120 one-wei transfers from 120 wallets in one block: the scan and the reconciliation take them in one window, each recorded as dust", async () => {
    await runScheduledJobs(hook.env);
    const dust = (await dustInOneBlock(120, { wei: 1n, senders: 120 })).map((h) => h.toLowerCase());
    const block = Number((await anvil<{ blockNumber: string }>("eth_getTransactionReceipt", [dust[0]])).blockNumber);
    await reconciledThrough(block);
    const mine = JSON.stringify(dust);
    expect(
      await countRows("escrow_transactions", "refund_status = 'ignored' AND amount_base_units = '1' AND tx_hash IN (SELECT value FROM json_each(?))", mine),
    ).toBe(120);
    expect(await countRows("payment_attention", "tx_hash IN (SELECT value FROM json_each(?))", mine)).toBe(0);
  });
});
