// Issue 26 §5: the cron scan keeps seeing new reservations however many closed purchases are still in their
// late-payment window. More than SCAN_TARGETS_PER_RUN closed rows, then a new reservation paid without the
// browser reporting it: the next cron run finds and settles it, on both networks.
import { Keypair } from "@solana/web3.js";
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { runScheduledJobs } from "../jobs/scheduled";
import { SCAN_TARGETS_PER_RUN } from "../purchases/payment-jobs";
import { actors, listWithKey, purchaseRow, reserve, type Wallet } from "../test/purchase-fixtures";
import { amountOf, fundedBuyer, pay } from "./purchase-helpers";
import { fundedSolBuyer, payThroughWorker } from "./solana-helpers";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

/** `n` purchases closed within the late-payment window, all older than anything reserved after this. */
async function closedPurchases(network: "ethereum" | "solana", n: number) {
  const l = await listWithKey(seller.userId, { network });
  const now = Date.now();
  const statements = Array.from({ length: n }, (_, i) =>
    env.DB.prepare(
      `INSERT INTO transactions (id, address_id, buyer_wallet, network, price, price_units, currency, total_amount, total_units, status, payment_reference,
                                 amount_base_units, scan_from_block, created_at, updated_at, expires_at)
       VALUES (?, ?, ?, ?, '0.5', 50000000, ?, '0.5', 50000000, ?, ?, '500000000', 0, ?, ?, ?)`,
    ).bind(
      crypto.randomUUID(),
      l.id,
      network === "ethereum" ? `0x${String(i).padStart(40, "0")}` : Keypair.generate().publicKey.toBase58(),
      network,
      network === "ethereum" ? "ETH" : "SOL",
      ["cancelled", "expired", "failed"][i % 3],
      network === "solana" ? Keypair.generate().publicKey.toBase58() : null,
      now - 3 * 60 * 60_000 + i,
      now - 60_000,
      now - 2 * 60 * 60_000,
    ),
  );
  await env.DB.batch(statements);
}

describe("§5 every open reservation is scanned every run", () => {
  it("Ethereum: past SCAN_TARGETS_PER_RUN closed purchases, a new reservation's unreported payment is found and settled", async () => {
    await closedPurchases("ethereum", SCAN_TARGETS_PER_RUN + 10);
    const buyer = await fundedBuyer();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { price: "0.01" })).id);
    const hash = await pay(buyer.account, await amountOf(buyer, id));
    await runScheduledJobs(env);
    expect(await purchaseRow(id)).toMatchObject({ status: "completed", tx_hash: hash.toLowerCase() });
  });

  it("Solana: the same", async () => {
    await closedPurchases("solana", SCAN_TARGETS_PER_RUN + 10);
    const { wallet, keypair } = await fundedSolBuyer();
    const id = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.2" })).id);
    const signature = await payThroughWorker(wallet, keypair, id);
    await runScheduledJobs(env);
    expect(await purchaseRow(id)).toMatchObject({ status: "completed", tx_hash: signature });
  });
});
