// A sold listing is never reserved, paid and revealed a second time. The race of the review,
// replayed deterministically: buyer 2's reservation has read the listing as available (its reads and chain
// calls run before the write) when buyer 1's purchase settles; the write itself must refuse. Also the
// database's own guard: at most one verified/completed purchase per listing.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuthSession } from "../auth/middleware";
import { paymentVerifier } from "../chain/payment-verifier";
import { createDb } from "../db/database";
import { findPurchase } from "../purchases/purchase-row";
import { planReservation, writeReservation } from "../purchases/reserve";
import { settlePurchase } from "../purchases/settle";
import { actors, ethWallet, listWithKey, purchaseRow, reserve, type Wallet } from "./purchase-fixtures";
import { readDeployment } from "../deployment/deployment";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

const sessionOf = (w: Wallet): AuthSession => ({
  userId: w.userId,
  network: "ethereum",
  walletAddress: w.address.toLowerCase(),
  isAdmin: false,
  expiresAt: Date.now() + 60_000,
});
const info = { ip: "127.0.0.1", userAgent: null };
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

/** Settles `id` as the verifier would after a deep, exact payment with `hash` (the chain is not needed here). */
async function settle(id: string, hash: string): Promise<boolean> {
  const db = createDb(env.DB);
  const p = (await findPurchase(db, id))!;
  const seen = {
    kind: "found" as const,
    succeeded: true,
    onExpectedChain: true,
    fromBuyer: true,
    toPlatform: true,
    carriesReference: true,
    amount: BigInt(p.amountBaseUnits!),
    confirmations: 2,
    block: "0xb1",
    blockNumber: 1,
    minedAt: Date.now(),
  };
  const deployment = readDeployment(env);
  return settlePurchase({ db, deployment, verifier: paymentVerifier(deployment, "ethereum", null), purchase: p, hash, now: Date.now() }, seen, 0n);
}

describe("a sold listing is sold once", () => {
  it("the review's race: buyer 2's reservation, planned while buyer 1's purchase was open, is refused once buyer 1 has settled", async () => {
    const l = await listWithKey(seller.userId);
    const first = await ethWallet();
    const second = await ethWallet();
    const a = await reserve(first, l.id);
    const db = createDb(env.DB);
    const plan = await planReservation(db, readDeployment(env), sessionOf(second), { addressId: l.id });
    expect(await settle(a, hashOf(1))).toBe(true);
    await expect(writeReservation(db, plan, info)).rejects.toMatchObject({ status: 409 });
    const open = await env.DB.prepare("SELECT count(*) AS n FROM transactions WHERE address_id = ? AND id != ?").bind(l.id, a).first<{ n: number }>();
    expect(open!.n).toBe(0);
    expect(await env.DB.prepare("SELECT status FROM addresses WHERE id = ?").bind(l.id).first()).toEqual({ status: "sold" });
  });

  it("a listing deactivated between the plan and the write is not reserved either", async () => {
    const l = await listWithKey(seller.userId);
    const buyer = await ethWallet();
    const db = createDb(env.DB);
    const plan = await planReservation(db, readDeployment(env), sessionOf(buyer), { addressId: l.id });
    await env.DB.prepare("UPDATE addresses SET status = 'inactive' WHERE id = ?").bind(l.id).run();
    await expect(writeReservation(db, plan, info)).rejects.toMatchObject({ status: 409 });
  });

  it("a second purchase of a sold listing (written by older code) cannot settle: the settle batch and the database refuse it", async () => {
    const l = await listWithKey(seller.userId);
    const a = await reserve(await ethWallet(), l.id);
    expect(await settle(a, hashOf(2))).toBe(true);
    const b = await reserve(await ethWallet(), (await listWithKey(seller.userId)).id);
    // B is moved onto A's (sold) listing, as the old race left it.
    await env.DB.prepare("UPDATE transactions SET address_id = ? WHERE id = ?").bind(l.id, b).run();
    expect(await settle(b, hashOf(3))).toBe(false);
    expect(await purchaseRow(b)).toMatchObject({ status: "initiated" });
    await expect(env.DB.prepare("UPDATE transactions SET status = 'completed', tx_hash = ? WHERE id = ?").bind(hashOf(4), b).run()).rejects.toThrow(/UNIQUE/);
    const sales = await env.DB.prepare("SELECT count(*) AS n FROM sales_analytics WHERE address_id = ?").bind(l.id).first<{ n: number }>();
    expect(sales!.n).toBe(1);
  });
});
