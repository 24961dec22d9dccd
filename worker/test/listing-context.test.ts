// GET /api/addresses/{id}/context: what the listing page explains beside the price.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { COMPARABLES_LIMIT, type ListingContext, PRICE_HISTORY_LIMIT, RECENT_SALES_LIMIT } from "../../schema/listing-context";
import { estimateValue, REFERENCE_RATES } from "../domain/rarity";
import { adminAccount, signInEthereum } from "./auth-helpers";
import { clearBrowseData, insertListing, insertUser, snapshot, toUnits } from "./browse-fixtures";
import { client } from "./client";

const DAY = 24 * 60 * 60 * 1000;
const KIND = { network: "ethereum" as const, category: "leading-zeros", patternLength: 7 };

async function context(id: number | string, headers: Record<string, string> = {}) {
  const res = await client(undefined, headers).addresses[":id"].context.$get({ param: { id: String(id) } });
  return { status: res.status, body: (await res.json()) as ListingContext & { error?: string; message?: string } };
}

async function clearAll() {
  await env.DB.prepare("DELETE FROM price_history").run();
  await clearBrowseData();
}

const setDifficulty = (id: number, log2: number) => env.DB.prepare("UPDATE addresses SET difficulty_log2 = ? WHERE id = ?").bind(log2, id).run();

async function addHistory(id: number, price: string, at: number, changeType = "price_update") {
  await env.DB.prepare("INSERT INTO price_history (address_id, price, currency, change_type, created_at) VALUES (?, ?, 'ETH', ?, ?)")
    .bind(id, price, changeType, at)
    .run();
}

let tx = 0;
async function addSale(listing: number, price: string, at: number, opts: { status?: string; test?: boolean } = {}) {
  tx += 1;
  await env.DB.prepare(
    `INSERT INTO transactions (id, address_id, network, price, price_units, currency, total_amount, total_units, status, is_test_data, created_at, completed_at)
     VALUES (?, ?, 'ethereum', ?, ?, 'ETH', ?, ?, ?, ?, ?, ?)`,
  )
    .bind(`ctx-${tx}`, listing, price, toUnits(price), price, toUnits(price), opts.status ?? "completed", opts.test ? 1 : 0, at - 1000, at)
    .run();
}

describe("GET /api/addresses/{id}/context", () => {
  let subject: number;
  let near: number;
  let far: number;
  let sold: number;
  const now = Date.now();

  beforeAll(async () => {
    await clearAll();
    subject = await insertListing({ ...KIND, rarity: 7, price: "0.25", createdAt: now - 10 * DAY });
    await setDifficulty(subject, 28);
    // Same kind: two buyable (one close in rarity, one far), one sold; plus listings that must not appear.
    far = await insertListing({ ...KIND, rarity: 2 });
    near = await insertListing({ ...KIND, rarity: 7.2 });
    sold = await insertListing({ ...KIND, rarity: 7.1, status: "sold", isListed: false });
    await insertListing({ ...KIND, rarity: 7, status: "deleted" });
    await insertListing({ ...KIND, rarity: 7, isListed: false });
    await insertListing({ ...KIND, rarity: 7, network: "solana", currency: "SOL" });
    await insertListing({ ...KIND, rarity: 7, patternLength: 8 });
    await insertListing({ ...KIND, rarity: 7, category: "word-like" });
    const otherKind = await insertListing({ ...KIND, patternLength: 6 });

    await addHistory(subject, "0.4", now - 9 * DAY, "listed");
    await addHistory(subject, "0.3", now - 5 * DAY);
    await addHistory(subject, "0.25", now - 1 * DAY);

    await addSale(sold, "0.31", now - 2 * DAY);
    await addSale(far, "0.2", now - 3 * DAY, { status: "pending" });
    await addSale(near, "0.9", now - DAY, { test: true });
    await addSale(otherKind, "0.5", now - DAY);
  });

  it("explains the score: attempts, hex characters, time on a CPU core and a GPU", async () => {
    const { status, body } = await context(subject);
    expect(status).toBe(200);
    expect(body.listingId).toBe(subject);
    expect(body.difficulty).toEqual({
      log2: 28,
      attempts: 2 ** 28,
      hexCharacters: 7,
      cpuCoreSeconds: 2 ** 28 / REFERENCE_RATES.ethereum.cpuCore,
      gpuSeconds: 2 ** 28 / REFERENCE_RATES.ethereum.gpu,
      referenceRates: { cpuCore: REFERENCE_RATES.ethereum.cpuCore, gpu: REFERENCE_RATES.ethereum.gpu },
    });
  });

  it("gives the rarity engine's estimated value in the listing's currency, USD in cents", async () => {
    const { body } = await context(subject);
    const amount = estimateValue(28, "ethereum");
    expect(body.estimatedValue.amount).toBe(amount);
    expect(body.estimatedValue.currency).toBe("ETH");
    expect(body.estimatedValue.usd).toBe(Math.round(Number(amount) * 3796 * 100) / 100);
    expect(body.estimatedValue.formattedUsd).toMatch(/^\$[\d,]+\.\d{2}$/);
  });

  it("lists the price history oldest first, each with a cents USD figure", async () => {
    const { body } = await context(subject);
    expect(body.priceHistory.map((p) => [p.price, p.changeType])).toEqual([
      ["0.4", "listed"],
      ["0.3", "price_update"],
      ["0.25", "price_update"],
    ]);
    expect(body.priceHistory[0].usd).toBe(1518.4);
    expect(new Date(body.priceHistory[0].at).getTime()).toBe(now - 9 * DAY);
  });

  it("a sale in the price history says its day, never its time", async () => {
    const id = await insertListing({ ...KIND, status: "sold", isListed: false });
    const at = Date.UTC(2026, 5, 7, 15, 42, 9, 321);
    await addHistory(id, "0.5", at, "sale");
    const { body } = await context(id);
    expect(body.priceHistory.find((p) => p.changeType === "sale")?.at).toBe("2026-06-07T00:00:00.000Z");
  });

  it(`keeps only the latest ${PRICE_HISTORY_LIMIT} price changes`, async () => {
    const busy = await insertListing({ ...KIND, category: "palindrome" });
    for (let i = 0; i < PRICE_HISTORY_LIMIT + 5; i++) await addHistory(busy, `0.${i + 10}`, now - (100 - i) * 60_000);
    const { body } = await context(busy);
    expect(body.priceHistory).toHaveLength(PRICE_HISTORY_LIMIT);
    expect(body.priceHistory.at(-1)!.price).toBe(`0.${PRICE_HISTORY_LIMIT + 14}`);
    expect(body.priceHistory[0].price).toBe("0.15");
  });

  it("compares with buyable listings of the same network, category and length, closest rarity first", async () => {
    const { body } = await context(subject);
    expect(body.comparables.map((l) => l.id)).toEqual([near, far]);
    expect(body.comparables.every((l) => l.category === KIND.category && l.patternLength === 7 && l.network === "ethereum")).toBe(true);
  });

  it(`returns at most ${COMPARABLES_LIMIT} comparables`, async () => {
    const crowd = await insertListing({ ...KIND, category: "sequential" });
    for (let i = 0; i < COMPARABLES_LIMIT + 2; i++) await insertListing({ ...KIND, category: "sequential" });
    expect((await context(crowd)).body.comparables).toHaveLength(COMPARABLES_LIMIT);
  });

  it("shows completed real sales of the same kind only, newest day first, without buyers, each with its day and never its time", async () => {
    const { body } = await context(subject);
    expect(body.recentSales).toEqual([
      expect.objectContaining({
        listingId: sold,
        price: "0.31",
        currency: "ETH",
        formattedUsd: "$1,176.76",
        soldAt: new Date(now - 2 * DAY).toISOString().slice(0, 10),
      }),
    ]);
    // A listing is sold once (transactions_one_sale_per_listing): each further sale is of another listing of the kind.
    for (let i = 0; i < RECENT_SALES_LIMIT + 2; i++)
      await addSale(await insertListing({ ...KIND, rarity: 7.1, status: "sold", isListed: false }), "0.3", now - i * 1000);
    const more = await context(subject);
    expect(more.body.recentSales).toHaveLength(RECENT_SALES_LIMIT);
    expect(more.body.recentSales[0].soldAt).toBe(new Date(now).toISOString().slice(0, 10));
    expect(JSON.stringify(more.body.recentSales)).not.toMatch(/T\d{2}:\d{2}/);
  });

  it("says when ownership of the key was proved (the listing's creation)", async () => {
    const { body } = await context(subject);
    expect(body.ownershipProvedAt).toBe(new Date(now - 10 * DAY).toISOString());
  });

  it("carries no key material, seller or buyer wallet", async () => {
    const text = JSON.stringify((await context(subject)).body);
    expect(text).not.toMatch(/private|encrypted|wallet|seller|buyer|salt|mac"/i);
  });

  it("a deleted listing is 404 for visitors, readable by its owner", async () => {
    const { cookie, body } = await signInEthereum(adminAccount);
    const owned = await insertListing({ ...KIND, status: "deleted", sellerId: (body as { user: { id: number } }).user.id });
    expect((await context(owned)).status).toBe(404);
    expect((await context(owned, { cookie })).status).toBe(200);
  });

  it("an unknown listing is 404", async () => {
    const { status, body } = await context(987654321);
    expect(status).toBe(404);
    expect(body.message).toBe("Address not found");
  });

  it.each(["0", "abc", "1e3", "-1", "01", "9999999999999999", "%00", "1%20", "١٢"])("a malformed id (%s) is a 400 that changes nothing", async (id) => {
    const before = await snapshot();
    const { status, body } = await context(id);
    expect(status).toBe(400);
    expect(body).toEqual({ error: "Validation Error", message: "id: must be a listing id (a whole number from 1)" });
    expect(await snapshot()).toBe(before);
  });
});

describe("a listing with nothing around it", () => {
  it("answers empty lists, not errors", async () => {
    await clearAll();
    await insertUser("lonely", "0x0000000000000000000000000000000000000001");
    const id = await insertListing({ network: "solana", currency: "SOL", category: "word-like", patternLength: 5 });
    const { status, body } = await context(id);
    expect(status).toBe(200);
    expect(body.comparables).toEqual([]);
    expect(body.recentSales).toEqual([]);
    expect(body.priceHistory).toEqual([]);
    expect(body.estimatedValue.currency).toBe("SOL");
  });
});
