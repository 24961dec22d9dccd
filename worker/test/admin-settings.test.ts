// Admin > Settings: fee configuration per network with an effective-from time (reservations use the
// one in force when they are made; history kept), the custom-order quote in D1, every change audited; hostile
// input refused with a clear message and nothing written.
import { env } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SettingsResponse } from "../../schema/settings";
import { createDb } from "../db/database";
import { readDeployment } from "../deployment/deployment";
import { quoteFees } from "../purchases/fee-quote";
import { actors, call, ethWallet, listWithKey, purchaseRow, reserve, type Wallet } from "./purchase-fixtures";
import { client, unchecked, refusal } from "./client";

let admin: Wallet;
let buyer: Wallet;
beforeAll(async () => {
  ({ seller: admin } = await actors());
});
beforeEach(async () => {
  buyer = await ethWallet();
});

const good = {
  network: "ethereum" as const,
  exchangeFeePercentage: "2.5",
  commissionFeePercentage: "1",
  minimumFee: "0.001",
  maximumFee: "1",
  gasFeeMultiplier: "1.5",
};

async function settings(): Promise<SettingsResponse> {
  const res = await client(admin).admin.settings.$get();
  expect(res.status).toBe(200);
  return res.json();
}

/** Everything a settings change could write. */
async function settingsState() {
  const [fees, quote, audit] = await env.DB.batch([
    env.DB.prepare("SELECT count(*) AS n, max(id) AS m FROM fee_config"),
    env.DB.prepare("SELECT count(*) AS n, max(id) AS m FROM custom_order_quote_settings"),
    env.DB.prepare("SELECT count(*) AS n FROM transaction_audit"),
  ]);
  return JSON.stringify([fees.results, quote.results, audit.results]);
}

describe("who may read and change settings", () => {
  it("a visitor gets 401 and a signed-in non-admin 403; nothing is written", async () => {
    const before = await settingsState();
    expect((await client().admin.settings.$get()).status).toBe(401);
    expect((await client().admin.settings.fees.$post({ json: good })).status).toBe(401);
    expect((await client(buyer).admin.settings.$get()).status).toBe(403);
    expect((await client(buyer).admin.settings.fees.$post({ json: good })).status).toBe(403);
    expect(
      (await client(buyer).admin.settings.quote.$post({ json: { basePrice: "0", pricePerBillion: "0", maxPrice: "0", maxDifficultyBits: 1, grindRate: 1 } }))
        .status,
    ).toBe(403);
    expect(await settingsState()).toBe(before);
  });
});

describe("fee configuration", () => {
  it("reservations use the configuration in force when they are made; history is kept and audited", async () => {
    const listingA = await listWithKey(admin.userId, { price: "1" });
    const before = await reserve(buyer, listingA.id);
    const beforeRow = await purchaseRow(before);

    const res = await client(admin).admin.settings.fees.$post({ json: good });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ network: "ethereum", exchangeFeePercentage: "2.5", state: "in-force", createdBy: admin.address.toLowerCase() });

    const listingB = await listWithKey(admin.userId, { price: "1" });
    const after = await reserve(await ethWallet(), listingB.id);
    expect(await purchaseRow(after)).toMatchObject({ exchange_fee: "0.025", commission_fee: "0.01" });
    // The earlier reservation keeps the fees it was made with.
    expect(await purchaseRow(before)).toMatchObject({ exchange_fee: beforeRow!.exchange_fee, commission_fee: beforeRow!.commission_fee });
    expect(beforeRow!.exchange_fee).not.toBe("0.025");

    const s = await settings();
    const eth = s.fees.filter((f) => f.network === "ethereum");
    expect(eth.length).toBeGreaterThanOrEqual(2);
    expect(eth[0]).toMatchObject({ exchangeFeePercentage: "2.5", state: "in-force" });
    expect(eth.slice(1).every((f) => f.state === "superseded")).toBe(true);
    expect(s.audit[0]).toMatchObject({
      action: "fee_config_set",
      performedBy: admin.address.toLowerCase(),
      details: expect.objectContaining({ exchangeFeePercentage: "2.5" }),
    });
    expect(Date.parse(s.audit[0].at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("a future-dated change is not applied early, and applies from its time", async () => {
    const now = Date.now();
    const from = new Date(now + 3_600_000).toISOString();
    const res = await client(admin).admin.settings.fees.$post({ json: { ...good, network: "solana", exchangeFeePercentage: "7", effectiveFrom: from } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ state: "scheduled", effectiveFrom: from });
    const db = createDb(env.DB);
    const nowQuote = await quoteFees(db, readDeployment(env).ethereum, "solana", 100_000_000n, "basic", now);
    expect(nowQuote.exchangeFee).not.toBe(7_000_000n);
    const laterQuote = await quoteFees(db, readDeployment(env).ethereum, "solana", 100_000_000n, "basic", now + 3_600_000);
    expect(laterQuote.exchangeFee).toBe(7_000_000n);
    // A reservation now is charged the configuration in force now.
    const listing = await listWithKey(admin.userId, { network: "solana", price: "1" });
    const { solWallet } = await import("./purchase-fixtures");
    const id = await reserve(await solWallet(), listing.id);
    expect((await purchaseRow(id))!.exchange_fee).not.toBe("0.07");
    expect((await settings()).fees.find((f) => f.network === "solana" && f.effectiveFrom === from)?.state).toBe("scheduled");
  });

  // [what, the change, the refused field, its problem in an operator's words]; the message is "<field>: <problem>".
  const hostile: [string, Record<string, unknown>, string, string][] = [
    ["a negative percentage", { exchangeFeePercentage: "-1" }, "exchangeFeePercentage", "enter a percentage such as 2.5"],
    ["a huge percentage", { commissionFeePercentage: "1000" }, "commissionFeePercentage", "enter at most 50"],
    ["a non-numeric percentage", { exchangeFeePercentage: "abc" }, "exchangeFeePercentage", "enter a percentage such as 2.5"],
    ["a number instead of text", { exchangeFeePercentage: 2.5 }, "exchangeFeePercentage", "enter a percentage such as 2.5, written as text"],
    ["an exponent", { minimumFee: "1e3" }, "minimumFee", "enter an amount such as 0.001"],
    ["too many decimals in a percentage", { exchangeFeePercentage: "1.123456" }, "exchangeFeePercentage", "use at most 4 decimals"],
    ["too many decimals in an amount", { minimumFee: "0.000000001" }, "minimumFee", "use at most 8 decimals"],
    ["a huge amount", { maximumFee: "99999999999999999999" }, "maximumFee", "enter at most 1000"],
    [
      "a maximum below the minimum",
      { minimumFee: "1", maximumFee: "0.5" },
      "maximumFee",
      "enter no less than the minimum fee, or leave it empty for no maximum",
    ],
    ["a multiplier below 1", { gasFeeMultiplier: "0.5" }, "gasFeeMultiplier", "enter at least 1 (1 charges the node's gas price as it is)"],
    ["an unknown network", { network: "bitcoin" }, "network", "choose ethereum or solana"],
    ["a date in the past", { effectiveFrom: "2020-01-01T00:00:00Z" }, "effectiveFrom", "choose now or a later time: fees already charged cannot change"],
    ["a date years ahead", { effectiveFrom: "2099-01-01T00:00:00Z" }, "effectiveFrom", "choose a time at most 365 days ahead"],
    ["a date that is not one", { effectiveFrom: "tomorrow" }, "effectiveFrom", "enter a date and time with a time zone, such as 2027-01-01T00:00:00Z"],
  ];
  for (const [what, change, field, problem] of hostile) {
    it(`refuses ${what} at its field, in words, and changes nothing`, async () => {
      const before = await settingsState();
      const res = await client(admin).admin.settings.fees.$post({ json: unchecked({ ...good, ...change }) });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "Validation Error", message: `${field}: ${problem}`, fields: { [field]: problem } });
      expect(await settingsState()).toBe(before);
    });
  }

  it("names every refused field, each with its first problem", async () => {
    const res = await client(admin).admin.settings.fees.$post({ json: { ...good, exchangeFeePercentage: "x", minimumFee: "-2", gasFeeMultiplier: "9" } });
    expect(res.status).toBe(400);
    expect((await refusal(res)).fields).toEqual({
      exchangeFeePercentage: "enter a percentage such as 2.5",
      minimumFee: "enter an amount such as 0.001",
      gasFeeMultiplier: "enter at most 5",
    });
  });

  it("refuses a second configuration at the very same time (409), and a body that is not JSON (400)", async () => {
    const from = new Date(Date.now() + 7_200_000).toISOString();
    expect((await client(admin).admin.settings.fees.$post({ json: { ...good, effectiveFrom: from } })).status).toBe(201);
    const before = await settingsState();
    const again = await client(admin).admin.settings.fees.$post({ json: { ...good, effectiveFrom: from } });
    expect(again.status).toBe(409);
    expect((await refusal(again)).fields).toEqual({
      effectiveFrom: "another configuration for this network starts at that very time; choose another time",
    });
    expect((await call("POST", "/api/admin/settings/fees", admin, "{not json")).status).toBe(400);
    expect(await settingsState()).toBe(before);
  });
});

describe("custom-order quote settings", () => {
  const quote = { basePrice: "0.01", pricePerBillion: "0.004", maxPrice: "1", maxDifficultyBits: 30, grindRate: 1000 };

  it("start from one production GPU's defaults (migration 0025), change through the tab, and the public quote follows", async () => {
    const q0 = await (await client()["custom-orders"].quote.$get({ query: { prefix: "abcd" } })).json();
    expect(q0).toMatchObject({ maxDifficultyBits: 44, grindRate: 2_000_000_000 });
    const history = (await settings()).quote;
    expect(history.at(-1)).toMatchObject({ basePrice: "0.005", pricePerBillion: "0.002", maxPrice: "0.5", createdBy: "migration 0018" });
    // 0025 kept 0018's prices and changed only the rate and the cap, since no admin had edited the quote
    expect(history[0]).toMatchObject({
      basePrice: "0.005",
      pricePerBillion: "0.002",
      maxPrice: "0.5",
      maxDifficultyBits: 44,
      grindRate: 2_000_000_000,
      createdBy: "migration 0025",
    });

    const res = await client(admin).admin.settings.quote.$post({ json: quote });
    expect(res.status).toBe(201);
    const q1 = (await (await client()["custom-orders"].quote.$get({ query: { prefix: "abcd" } })).json()) as {
      price: string;
      maxDifficultyBits: number;
      grindRate: number;
    };
    expect(q1).toMatchObject({ maxDifficultyBits: 30, grindRate: 1000 });
    // 16^4 attempts x 0.004 per billion, rounded up to a unit, plus the 0.01 base
    expect(q1.price).toBe("0.01000027");
    const s = await settings();
    expect(s.quote[0]).toMatchObject({ ...quote, createdBy: admin.address.toLowerCase() });
    expect(s.audit[0]).toMatchObject({ action: "quote_settings_set", details: quote });
  });

  it("migration 0025 leaves a quote an admin set alone", async () => {
    const { TEST_MIGRATIONS } = env as Env & { TEST_MIGRATIONS: { name: string; queries: string[] }[] };
    const insert = TEST_MIGRATIONS.find((m) => m.name.startsWith("0025_"))!.queries.find((q) => q.includes("INSERT INTO `custom_order_quote_settings`"))!;
    expect((await client(admin).admin.settings.quote.$post({ json: quote })).status).toBe(201);
    const before = await settingsState();
    await env.DB.prepare(insert).run();
    expect(await settingsState()).toBe(before);
    expect(await (await client()["custom-orders"].quote.$get({ query: { prefix: "abcd" } })).json()).toMatchObject({ maxDifficultyBits: 30, grindRate: 1000 });
    // where the row in force is still 0018's seed, the same statement moves the defaults
    await env.DB.prepare("DELETE FROM custom_order_quote_settings WHERE created_by <> 'migration 0018'").run();
    await env.DB.prepare(insert).run();
    expect(await (await client()["custom-orders"].quote.$get({ query: { prefix: "abcd" } })).json()).toMatchObject({
      maxDifficultyBits: 44,
      grindRate: 2_000_000_000,
    });
  });

  const hostile: [string, Record<string, unknown>, string, string][] = [
    ["a negative base", { basePrice: "-0.1" }, "basePrice", "enter a price in ETH such as 0.005"],
    ["a huge maximum", { maxPrice: "100000" }, "maxPrice", "enter at most 1000"],
    ["too many decimals", { pricePerBillion: "0.123456789" }, "pricePerBillion", "use at most 8 decimals"],
    ["a maximum below the base", { basePrice: "2", maxPrice: "1" }, "maxPrice", "enter no less than the base price"],
    ["a fractional difficulty", { maxDifficultyBits: 30.5 }, "maxDifficultyBits", "enter a whole number of bits"],
    ["a difficulty past the ceiling", { maxDifficultyBits: 45 }, "maxDifficultyBits", "enter at most 44"],
    ["a difficulty as text", { maxDifficultyBits: "30" }, "maxDifficultyBits", "enter a whole number of bits"],
    ["a zero grinding rate", { grindRate: 0 }, "grindRate", "enter at least 1"],
    ["a huge grinding rate", { grindRate: 1e15 }, "grindRate", "enter at most 1000000000000"],
  ];
  for (const [what, change, field, problem] of hostile) {
    it(`refuses ${what} at its field, in words, and changes nothing`, async () => {
      const before = await settingsState();
      const res = await client(admin).admin.settings.quote.$post({ json: { ...quote, ...change } });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "Validation Error", message: `${field}: ${problem}`, fields: { [field]: problem } });
      expect(await settingsState()).toBe(before);
    });
  }
});
