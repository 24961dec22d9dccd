// Several grinders on one queue, through the real Worker and D1: a claim is a lease that progress renews and
// the clock ends (docs/custom-orders.md#several-grinders); grinders claiming at once never share an order; a
// dead grinder's order goes to another; hostile progress is refused and changes nothing; every grinder's rate
// is stored for the order page and the admin queue; an order has a deadline to be found. Supply targets' claims
// (docs/supply.md) share this file's grinders and set-up: see the last block.
import { env } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ClaimAnswer, CustomOrderQuote, CustomOrderView, OrderQueue } from "../../schema/custom-orders";
import { CUSTOM_ORDER_GRIND_HOURS, GRINDER_LEASE_MS } from "../../schema/custom-orders";
import type { OrderPattern } from "../../schema/custom-order-pattern";
import { publicKeyOf, randomSecret, scalarToHex } from "../../schema/split-key";
import { type SealedRow, sealIntakeRow } from "../../schema/sealed-intake";
import {
  MAX_OPEN_CLAIMS_PER_TARGET,
  MAX_SUPPLY_TARGETS,
  MAX_SUPPLY_WANTED,
  SUPPLY_CLAIM_FORGET_MS,
  SUPPLY_CLAIM_LEASE_MS,
  type SupplyClaimAnswer,
  type SupplyProgressAnswer,
  type SupplySealedAnswer,
  type SupplyTargetList,
  type SupplyTargetView,
} from "../../schema/supply";
import { privateKeyToAddress } from "viem/accounts";
import { createDb } from "../db/database";
import { runSupplyJob } from "../supply/claims";
import { currentIntakeKey } from "../vault/intake";
import { runScheduledJobs } from "../jobs/scheduled";
import { claimNext, recordProgress, submitOffset } from "../orders/fulfil";
import { ApiError } from "../http/errors";
import { findOffset } from "./custom-order-fixtures";
import { bulkRow, type Caller, ethKey, signInAll } from "./listing-fixtures";
import { client, refusal, unchecked } from "./client";

let admin: Caller;
let user: Caller;
let other: Caller;
beforeAll(async () => {
  ({ admin, user, other } = await signInAll());
});
beforeEach(async () => {
  // Each test starts from an empty queue, no grinders, and a fresh placing-rate window (20 orders a minute).
  await env.DB.batch(["custom_orders", "order_grinders", "rate_limits"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
});

const G1 = "grinder-one-aaaaaaaaaa";
const G2 = "grinder-two-bbbbbbbbbb";

async function place(pattern: Partial<OrderPattern> = {}): Promise<CustomOrderView> {
  const body = { prefix: "a", suffix: "", caseSensitive: false, ...pattern };
  const q = (await (await client()["custom-orders"].quote.$get({ query: { prefix: body.prefix, suffix: body.suffix } })).json()) as CustomOrderQuote;
  const res = await client(user)["custom-orders"].$post({ json: { ...body, publicKey: publicKeyOf(randomSecret()), price: q.price } });
  expect(res.status).toBe(201);
  return res.json();
}

const claim = (grinder: string, caller = admin, label = "CPU, 1 thread") => client(caller)["custom-orders"].admin.claim.$post({ json: { grinder, label } });
const progress = (id: number, body: Record<string, unknown>, caller = admin) =>
  client(caller)["custom-orders"].admin[":id"].progress.$post({ param: { id: String(id) }, json: unchecked(body) });
const view = async (id: number): Promise<CustomOrderView> => (await client(user)["custom-orders"][":id"].$get({ param: { id: String(id) } })).json();

async function row(id: number) {
  return env.DB.prepare("SELECT status, claim_id, claim_expires_at, attempts_before, progress_attempts, progress_rate FROM custom_orders WHERE id = ?")
    .bind(id)
    .first<{
      status: string;
      claim_id: string | null;
      claim_expires_at: number | null;
      attempts_before: number;
      progress_attempts: number | null;
      progress_rate: number | null;
    }>();
}

async function tableState() {
  const [orders, grinders] = await env.DB.batch([
    env.DB.prepare(
      "SELECT group_concat(id || status || coalesce(claim_id, '') || coalesce(claim_expires_at, '') || attempts_before || coalesce(progress_attempts, '') || coalesce(progress_rate, ''), ',') AS s FROM custom_orders",
    ),
    env.DB.prepare(
      "SELECT group_concat(id || admin_id || label || coalesce(rate, '') || coalesce(order_id, '') || last_seen_at, ',') AS s FROM order_grinders",
    ),
  ]);
  return JSON.stringify([orders.results, grinders.results]);
}

describe("several grinders share the queue", () => {
  it("grinders claiming at once get different orders, oldest first, and none when the queue is empty; asking again gives the same order", async () => {
    const placed = [await place({ prefix: "1" }), await place({ prefix: "2" }), await place({ prefix: "3" })];
    const grinders = ["g-at-once-0000000001", "g-at-once-0000000002", "g-at-once-0000000003", "g-at-once-0000000004", "g-at-once-0000000005"];
    const answers = await Promise.all(grinders.map(async (g) => ((await (await claim(g)).json()) as ClaimAnswer).order?.id ?? null));
    const got = answers.filter((id): id is number => id !== null);
    expect(got.sort((a, b) => a - b)).toEqual(placed.map((o) => o.id));
    expect(answers.filter((id) => id === null)).toHaveLength(2);
    for (const [i, g] of grinders.entries()) {
      if (answers[i] === null) continue;
      expect((await row(answers[i]!))?.claim_id).toBe(g);
      // asking again (an answer lost on the way) gives the grinder its own order, never a second one
      expect(((await (await claim(g)).json()) as ClaimAnswer).order?.id).toBe(answers[i]);
    }
  });

  it("a claim is a lease the clock ends: progress renews it; once it lapses another grinder takes the order and the dead one is refused", async () => {
    const db = createDb(env.DB);
    const order = await place({ prefix: "5" });
    const t0 = Date.now();
    const g1 = { adminId: admin.userId, grinder: G1 };
    const g2 = { adminId: admin.userId, grinder: G2 };
    expect((await claimNext(db, g1, t0))?.id).toBe(order.id);
    expect((await row(order.id))?.claim_expires_at).toBe(t0 + GRINDER_LEASE_MS);
    expect(await claimNext(db, g2, t0 + GRINDER_LEASE_MS - 1)).toBeNull();
    await recordProgress(db, order.id, g1, 1_000, 100, t0 + GRINDER_LEASE_MS - 1); // renewed
    expect(await claimNext(db, g2, t0 + GRINDER_LEASE_MS + 1)).toBeNull();
    // G1 dies: no report for a whole lease
    const lapse = t0 + 2 * GRINDER_LEASE_MS - 1;
    expect((await claimNext(db, g2, lapse))?.id).toBe(order.id);
    await expect(recordProgress(db, order.id, g1, 2_000, 100, lapse + 1)).rejects.toMatchObject({ status: 409 });
    const k = findOffset(order.publicKey, { prefix: "5", suffix: "", caseSensitive: false });
    await expect(submitOffset(db, order.id, g1, scalarToHex(k), 0, lapse + 1)).rejects.toBeInstanceOf(ApiError);
    // the dead grinder's attempts still count toward the order's total
    await recordProgress(db, order.id, g2, 500, 200, lapse + 10_000);
    expect((await view(order.id)).progress).toMatchObject({ attempts: 1_500, rate: 200 });
    expect((await submitOffset(db, order.id, g2, scalarToHex(k), 0, lapse + 10_001)).status).toBe("found");
  });

  it("the same through the API: a progress report renews the lease; a lapsed claim is taken over", async () => {
    const order = await place({ prefix: "6" });
    expect(((await (await claim(G1)).json()) as ClaimAnswer).order?.id).toBe(order.id);
    expect(((await (await claim(G2)).json()) as ClaimAnswer).order).toBeNull();
    const before = Date.now();
    expect((await progress(order.id, { attempts: 10, rate: 1, grinder: G1 })).status).toBe(200);
    expect((await row(order.id))?.claim_expires_at).toBeGreaterThanOrEqual(before + GRINDER_LEASE_MS);
    await env.DB.prepare("UPDATE custom_orders SET claim_expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, order.id)
      .run();
    expect(((await (await claim(G2)).json()) as ClaimAnswer).order?.id).toBe(order.id);
    expect((await progress(order.id, { attempts: 20, rate: 1, grinder: G1 })).status).toBe(409);
    expect((await progress(order.id, { attempts: 5, rate: 1, grinder: G2 })).status).toBe(200);
  });

  it("a grinder that stops gives its order back at once, and its attempts still count", async () => {
    const order = await place({ prefix: "7" });
    await claim(G1);
    await progress(order.id, { attempts: 4_000, rate: 1_000, grinder: G1 });
    expect((await client(admin)["custom-orders"].admin[":id"].release.$post({ param: { id: String(order.id) }, json: { grinder: G2 } })).status).toBe(409);
    expect((await client(admin)["custom-orders"].admin[":id"].release.$post({ param: { id: String(order.id) }, json: { grinder: G1 } })).status).toBe(200);
    expect((await view(order.id)).status).toBe("open");
    expect(((await (await claim(G2)).json()) as ClaimAnswer).order?.id).toBe(order.id);
    await progress(order.id, { attempts: 1, rate: 3, grinder: G2 });
    expect((await view(order.id)).progress).toMatchObject({ attempts: 4_001, rate: 3 });
  });

  it("each grinder's rate is stored: the admin queue lists the grinders, the order page shows its grinder's rate", async () => {
    const [a, b] = [await place({ prefix: "8" }), await place({ prefix: "9" })];
    await claim(G1, admin, "GPU NVIDIA H200");
    await claim(G2, admin, "CPU, 1 thread");
    expect((await progress(a.id, { attempts: 5_000_000, rate: 2_700_000_000, grinder: G1 })).status).toBe(200);
    expect((await progress(b.id, { attempts: 900, rate: 1_040_000, grinder: G2 })).status).toBe(200);
    const q = (await (await client(admin)["custom-orders"].admin.queue.$get({ query: {} })).json()) as OrderQueue;
    const byId = new Map(q.grinders.map((g) => [g.id, g]));
    expect(byId.get(G1)).toMatchObject({ label: "GPU NVIDIA H200", rate: 2_700_000_000, orderId: a.id, online: true });
    expect(byId.get(G2)).toMatchObject({ label: "CPU, 1 thread", rate: 1_040_000, orderId: b.id, online: true });
    expect(q.orders.find((o) => o.id === a.id)?.claim).toMatchObject({ grinder: G1 });
    const va = await view(a.id);
    expect(va.progress).toMatchObject({ attempts: 5_000_000, rate: 2_700_000_000 });
    expect(va.grinders).toMatchObject({ online: 2, fastestRate: 2_700_000_000 });
    expect(Date.now() - Date.parse(va.grinders.lastReportAt!)).toBeLessThan(60_000);
  });
});

describe("hostile grinder input", () => {
  it("negative, fractional, huge, backwards or impossibly fast attempts, and bad ids, are 400 and change nothing", async () => {
    const order = await place({ prefix: "b" });
    await claim(G1);
    expect((await progress(order.id, { attempts: 5_000, rate: 10, grinder: G1 })).status).toBe(200);
    const before = await tableState();
    const bodies: [string, Record<string, unknown>, RegExp][] = [
      ["negative attempts", { attempts: -1, rate: 1, grinder: G1 }, /attempts must not be negative/],
      ["fractional attempts", { attempts: 5_000.5, rate: 1, grinder: G1 }, /attempts must be a whole number/],
      ["attempts beyond a safe integer", { attempts: 2 ** 60, rate: 1, grinder: G1 }, /attempts must be a whole number/],
      ["attempts going backwards", { attempts: 4_999, rate: 1, grinder: G1 }, /fewer than the 5000 this claim reported before/],
      ["more attempts than any grinder makes in the time", { attempts: 1e15, rate: 1, grinder: G1 }, /more than any grinder manages/],
      ["a rate beyond belief", { attempts: 6_000, rate: 1e13, grinder: G1 }, /rate is not believable/],
      ["a negative rate", { attempts: 6_000, rate: -5, grinder: G1 }, /rate must not be negative/],
      ["a short grinder id", { attempts: 6_000, rate: 1, grinder: "short" }, /grinder must be 16 to 64/],
      ["a grinder id with odd characters", { attempts: 6_000, rate: 1, grinder: "grinder one; drop tables" }, /grinder must be 16 to 64/],
    ];
    for (const [what, body, message] of bodies) {
      const res = await progress(order.id, body);
      expect(res.status, what).toBe(400);
      expect((await refusal(res)).message, what).toMatch(message);
    }
    expect(await tableState()).toBe(before);
  });

  it("progress, submit and release for an order the grinder does not hold are 409 (404 for no order) and change nothing", async () => {
    const held = await place({ prefix: "c" });
    const open = await place({ prefix: "d" });
    await claim(G1);
    await env.DB.prepare("UPDATE users SET is_admin = 1 WHERE id = ?").bind(other.userId).run();
    try {
      const before = await tableState();
      const k = scalarToHex(findOffset(held.publicKey, { prefix: "c", suffix: "", caseSensitive: false }));
      // another grinder of the same admin, the admin without a grinder id, another admin with G1's id
      for (const [caller, grinder] of [
        [admin, G2],
        [admin, undefined],
        [other, G1],
      ] as const) {
        expect((await progress(held.id, { attempts: 1, rate: 1, grinder }, caller)).status).toBe(409);
        expect(
          (
            await client(caller)["custom-orders"].admin[":id"].submit.$post({
              param: { id: String(held.id) },
              json: { offset: k, variant: 0, grinder },
            })
          ).status,
        ).toBe(409);
        expect((await client(caller)["custom-orders"].admin[":id"].release.$post({ param: { id: String(held.id) }, json: { grinder } })).status).toBe(409);
      }
      expect((await progress(open.id, { attempts: 1, rate: 1, grinder: G1 })).status).toBe(409);
      expect((await progress(999_999, { attempts: 1, rate: 1, grinder: G1 })).status).toBe(404);
      // a grinder id is bound to the admin who first used it
      expect((await claim(G1, other)).status).toBe(409);
      expect(await tableState()).toBe(before);
    } finally {
      await env.DB.prepare("UPDATE users SET is_admin = 0 WHERE id = ?").bind(other.userId).run();
    }
  });

  it("claim bodies are checked, and claiming is for admins only", async () => {
    await place({ prefix: "e" });
    const before = await tableState();
    for (const body of [
      {},
      { grinder: G1 },
      { grinder: G1, label: "" },
      { grinder: G1, label: "x".repeat(81) },
      { grinder: G1, label: "GPU\u0000" },
      { grinder: 5, label: "x" },
    ]) {
      expect((await client(admin)["custom-orders"].admin.claim.$post({ json: unchecked(body) })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await claim(G1, user)).status).toBe(403);
    expect((await client()["custom-orders"].admin.claim.$post({ json: { grinder: G1, label: "x" } })).status).toBe(401);
    expect(await tableState()).toBe(before);
  });
});

describe("the grinding deadline and the buyer's view of the queue", () => {
  it("an order has a week to be found; past it no grinder may claim or submit it, and the cron job expires it unfilled", async () => {
    const claimed = await place({ prefix: "f" });
    const waiting = await place({ prefix: "0" });
    expect(Date.parse(claimed.grindDeadline!) - Date.parse(claimed.createdAt)).toBe(CUSTOM_ORDER_GRIND_HOURS * 3600_000);
    await claim(G1);
    await env.DB.prepare("UPDATE custom_orders SET grind_deadline = ?")
      .bind(Date.now() - 1)
      .run();
    expect(((await (await claim(G2)).json()) as ClaimAnswer).order).toBeNull();
    const k = scalarToHex(findOffset(claimed.publicKey, { prefix: "f", suffix: "", caseSensitive: false }));
    const late = await client(admin)["custom-orders"].admin[":id"].submit.$post({
      param: { id: String(claimed.id) },
      json: { offset: k, variant: 0, grinder: G1 },
    });
    expect(late.status).toBe(409);
    expect((await refusal(late)).message).toMatch(/past its grinding deadline/);
    expect((await runScheduledJobs(env, Date.now())).expiredCustomOrders).toBe(2);
    for (const o of [claimed, waiting]) expect(await view(o.id)).toMatchObject({ status: "expired", address: null, payment: null });
    // the buyer's slots are free again
    for (const prefix of ["1", "2", "3"]) await place({ prefix });
  });

  it("a waiting order says how many orders are ahead and when a grinder last reported", async () => {
    const first = await place({ prefix: "1" });
    const second = await place({ prefix: "2" });
    expect(await view(second.id)).toMatchObject({ status: "open", queueAhead: 1, grinders: { online: 0, lastReportAt: null, fastestRate: null } });
    expect((await view(first.id)).queueAhead).toBe(0);
    await claim(G1);
    await progress(first.id, { attempts: 10, rate: 1_000_000, grinder: G1 });
    const seen = await view(second.id);
    expect(seen).toMatchObject({ queueAhead: 1, grinders: { online: 1, fastestRate: 1_000_000 } });
    // the grinder goes quiet: after a lease it is no longer online, and the page can say since when
    const quiet = Date.now() - GRINDER_LEASE_MS - 60_000;
    await env.DB.prepare("UPDATE order_grinders SET last_seen_at = ?").bind(quiet).run();
    expect((await view(second.id)).grinders).toEqual({ online: 0, lastReportAt: new Date(quiet).toISOString(), fastestRate: null });
    // the public quote says the same
    const q = (await (await client()["custom-orders"].quote.$get({ query: { prefix: "ab" } })).json()) as CustomOrderQuote;
    expect(q.grinders).toEqual({ online: 0, lastReportAt: new Date(quiet).toISOString(), fastestRate: null });
  });
});

// Supply targets and the grinders' claims on them (docs/supply.md), here for the grinders' shared set-up: admins
// only; bad input is a 400 that changes nothing; the bounds on targets and on open claims per target and per grinder
// hold for grinders claiming at once; a claim without reports is closed by the cron job; stock is counted from
// matching active listings, and a sealed hit listed under a claim is one of them, at the target's price.
describe("supply targets and claims", () => {
  const FAKE = "supply-fake-";
  beforeEach(async () => {
    await env.DB.batch([
      env.DB.prepare("DELETE FROM supply_claims"),
      env.DB.prepare("DELETE FROM supply_targets"),
      env.DB.prepare(`DELETE FROM addresses WHERE address LIKE '${FAKE}%'`),
    ]);
  });

  const api = (caller?: Caller) => client(caller).supply;
  const ethTarget = { network: "ethereum", category: "trailing-zeros", patternLength: 5, price: "0.05", wanted: 3 };

  async function create(body: Record<string, unknown> = ethTarget): Promise<SupplyTargetView> {
    const res = await api(admin).targets.$post({ json: unchecked(body) });
    expect(res.status, await res.clone().text()).toBe(201);
    return res.json() as Promise<SupplyTargetView>;
  }
  const list = async (): Promise<SupplyTargetList> => (await api(admin).targets.$get()).json();
  const claim = async (grinder: string, caller = admin) =>
    (await (await api(caller).claims.$post({ json: { grinder, label: "CPU, 1 thread" } })).json()) as SupplyClaimAnswer;
  const progress = (id: number, body: Record<string, unknown>, caller = admin) =>
    api(caller).claims[":id"].progress.$post({ param: { id: String(id) }, json: unchecked(body) });
  const claimRow = (id: number) => env.DB.prepare("SELECT status, attempts, rate, listed, expires_at FROM supply_claims WHERE id = ?").bind(id).first();
  const tables = async () =>
    JSON.stringify(
      (await env.DB.batch([env.DB.prepare("SELECT * FROM supply_targets ORDER BY id"), env.DB.prepare("SELECT * FROM supply_claims ORDER BY id")])).map(
        (r) => r.results,
      ),
    );

  let fakeCount = 0;
  /** A listing row as the import would store it, for stock counting (no key: it is never sold here). */
  async function fakeListing(fields: { network?: string; category?: string; patternLength?: number; status?: string; isListed?: number } = {}) {
    const f = { network: "ethereum", category: "trailing-zeros", patternLength: 5, status: "active", isListed: 1, ...fields };
    await env.DB.prepare(
      "INSERT INTO addresses (address, network, price, price_units, currency, category, pattern_length, status, is_listed) VALUES (?, ?, '1', 100000000, ?, ?, ?, ?, ?)",
    )
      .bind(`${FAKE}${++fakeCount}`, f.network, f.network === "ethereum" ? "ETH" : "SOL", f.category, f.patternLength, f.status, f.isListed)
      .run();
  }

  describe("who may call", () => {
    it("refuses every supply call without an admin session: 401 signed out, 403 for an ordinary wallet, nothing written", async () => {
      const before = await tables();
      expect((await api().targets.$get()).status).toBe(401);
      expect((await api(user).targets.$get()).status).toBe(403);
      expect((await api(user).targets.$post({ json: unchecked(ethTarget) })).status).toBe(403);
      expect((await api(user).claims.$post({ json: { grinder: G1, label: "x" } })).status).toBe(403);
      expect((await progress(1, { grinder: G1, attempts: 1, rate: 1 }, user)).status).toBe(403);
      expect((await api(user).targets[":id"].$delete({ param: { id: "1" } })).status).toBe(403);
      expect(await tables()).toBe(before);
    });
  });

  describe("targets", () => {
    it("refuses bad input with 400 and the reason, and writes nothing", async () => {
      await create();
      const before = await tables();
      const bad: [Record<string, unknown>, RegExp][] = [
        [{ ...ethTarget, network: "bitcoin" }, /network must be ethereum or solana/],
        [{ ...ethTarget, category: "palindrome" }, /category must be one of leading-zeros, trailing-zeros/],
        [{ ...ethTarget, patternLength: 2 }, /^patternLength: Ethereum trailing zeros take 3 to 12 characters$/],
        [{ ...ethTarget, patternLength: 13 }, /^patternLength: Ethereum trailing zeros take 3 to 12 characters$/],
        [{ ...ethTarget, network: "solana", category: "leading-zeros", patternLength: 7 }, /^patternLength: Solana leading zeros take 2 to 6 characters$/],
        [{ ...ethTarget, patternLength: 4.5 }, /patternLength must be a whole number/],
        [{ ...ethTarget, price: "" }, /^price: Price is required$/],
        [{ ...ethTarget, price: "0" }, /^price: Price must be a positive number greater than 0$/],
        [{ ...ethTarget, price: "1.123456789" }, /^price: Price can have at most 8 decimal places$/],
        [{ ...ethTarget, price: 1 }, /price must be a decimal as text/],
        [{ ...ethTarget, wanted: 0 }, new RegExp(`^wanted: Enter a whole number from 1 to ${MAX_SUPPLY_WANTED}$`)],
        [{ ...ethTarget, wanted: 2.5 }, new RegExp(`^wanted: Enter a whole number from 1 to ${MAX_SUPPLY_WANTED}$`)],
        [{ ...ethTarget, wanted: MAX_SUPPLY_WANTED + 1 }, new RegExp(`^wanted: Enter a whole number from 1 to ${MAX_SUPPLY_WANTED}$`)],
        [{ ...ethTarget, status: "paused" }, /only network, category, patternLength, price and wanted/],
      ];
      for (const [body, message] of bad) {
        const res = await api(admin).targets.$post({ json: unchecked(body) });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((await refusal(res)).message).toMatch(message);
      }
      // Each refused field by name, for the form to show at its field: the length too when the price is refused.
      const both = await api(admin).targets.$post({ json: unchecked({ ...ethTarget, patternLength: 0, price: "", wanted: 0 }) });
      expect(both.status).toBe(400);
      expect((await refusal(both)).fields).toEqual({
        patternLength: "Ethereum trailing zeros take 3 to 12 characters",
        price: "Price is required",
        wanted: `Enter a whole number from 1 to ${MAX_SUPPLY_WANTED}`,
      });
      const [{ id }] = (await list()).targets;
      const target = api(admin).targets[":id"];
      for (const body of [{}, { wanted: 0 }, { price: "-1" }, { wanted: 5, network: "solana" }]) {
        const res = await target.$patch({ param: { id: String(id) }, json: unchecked(body) });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      const edit = await target.$patch({ param: { id: String(id) }, json: unchecked({ price: "", wanted: 0 }) });
      expect((await refusal(edit)).fields).toEqual({ price: "Price is required", wanted: `Enter a whole number from 1 to ${MAX_SUPPLY_WANTED}` });
      expect((await target.$patch({ param: { id: "999999" }, json: { wanted: 5 } })).status).toBe(404);
      expect((await api(admin).targets[":id"].pause.$post({ param: { id: "999999" } })).status).toBe(404);
      expect(await tables()).toBe(before);
    });

    it("keeps one target per shape and at most MAX_SUPPLY_TARGETS, each refusal a 409 that writes nothing", async () => {
      const first = await create();
      const before = await tables();
      const dup = await api(admin).targets.$post({ json: unchecked({ ...ethTarget, price: "1", wanted: 9 }) });
      expect(dup.status).toBe(409);
      expect(await refusal(dup)).toMatchObject({ targetId: first.id });
      expect(await tables()).toBe(before);
      // Fill up to the cap (the rows alone: the valid shapes are fewer than the cap, which bounds categories to come).
      await env.DB.batch(
        Array.from({ length: MAX_SUPPLY_TARGETS - 1 }, (_, i) =>
          env.DB.prepare(
            "INSERT INTO supply_targets (network, category, pattern_length, price, price_units, currency, wanted, created_by, updated_at) VALUES ('ethereum', 'leading-zeros', ?, '1', 100000000, 'ETH', 1, ?, 0)",
          ).bind(100 + i, admin.userId),
        ),
      );
      const full = await tables();
      const res = await api(admin).targets.$post({ json: unchecked({ ...ethTarget, category: "leading-zeros" }) });
      expect(res.status).toBe(409);
      expect((await refusal(res)).message).toMatch(`at most ${MAX_SUPPLY_TARGETS} targets`);
      expect(await tables()).toBe(full);
    });

    it("edits, pauses (ending its claims), resumes and deletes; a repeated pause is a 409", async () => {
      const t = await create();
      const target = api(admin).targets[":id"];
      const edited = (await (await target.$patch({ param: { id: String(t.id) }, json: { price: "0.07", wanted: 10 } })).json()) as SupplyTargetView;
      expect(edited).toMatchObject({ price: "0.07", wanted: 10, status: "active" });
      const { claim: c1 } = await claim(G1);
      expect(c1?.targetId).toBe(t.id);
      expect((await target.pause.$post({ param: { id: String(t.id) } })).status).toBe(200);
      expect(await claimRow(c1!.id)).toMatchObject({ status: "ended" });
      const again = await target.pause.$post({ param: { id: String(t.id) } });
      expect(again.status).toBe(409);
      expect((await claim(G2)).claim).toBeNull();
      const resumed = (await (await target.resume.$post({ param: { id: String(t.id) } })).json()) as SupplyTargetView;
      expect(resumed.status).toBe("active");
      const { claim: c2 } = await claim(G2);
      expect(c2?.targetId).toBe(t.id);
      expect((await target.$delete({ param: { id: String(t.id) } })).status).toBe(200);
      expect((await list()).targets).toEqual([]);
      // The grinder learns at its next report that the claim is gone.
      expect((await progress(c2!.id, { grinder: G2, attempts: 10, rate: 5 })).status).toBe(404);
    });
  });

  describe("claims", () => {
    it("grinders claiming at once get at most MAX_OPEN_CLAIMS_PER_TARGET claims on a target; asking again gives the same claim", async () => {
      const t = await create({ ...ethTarget, wanted: 100 });
      const grinders = Array.from({ length: MAX_OPEN_CLAIMS_PER_TARGET + 2 }, (_, i) => `grinder-at-once-${String(i).padStart(6, "0")}`);
      const answers = await Promise.all(grinders.map((g) => claim(g)));
      const got = answers.filter((a) => a.claim !== null);
      expect(got).toHaveLength(MAX_OPEN_CLAIMS_PER_TARGET);
      expect(new Set(got.map((a) => a.claim!.id)).size).toBe(MAX_OPEN_CLAIMS_PER_TARGET);
      expect(got[0].claim).toMatchObject({ targetId: t.id, prefix: "", suffix: "00000", caseSensitive: false, price: "0.05", shortfall: 100 });
      expect(got[0].claim!.expectedAttempts).toBe(String(16 ** 5));
      const holder = grinders[answers.findIndex((a) => a.claim !== null)];
      const repeat = await claim(holder);
      expect(repeat.claim?.id).toBe(got[0].claim!.id);
      const n = await env.DB.prepare("SELECT count(*) AS n FROM supply_claims WHERE status = 'open'").first<{ n: number }>();
      expect(n?.n).toBe(MAX_OPEN_CLAIMS_PER_TARGET);
    });

    it("a grinder holds one claim at a time, work goes to the target that lacks most, and a full target gets none", async () => {
      const small = await create({ ...ethTarget, wanted: 2 });
      const big = await create({ ...ethTarget, category: "leading-zeros", wanted: 10 });
      expect((await claim(G1)).claim?.targetId).toBe(big.id);
      expect((await claim(G1)).claim?.targetId).toBe(big.id);
      expect(await env.DB.prepare("SELECT count(*) AS n FROM supply_claims WHERE grinder_id = ?").bind(G1).first()).toEqual({ n: 1 });
      // Stock of the small target reaches its wanted count: nobody is given work on it.
      await fakeListing();
      await fakeListing({ patternLength: 7 });
      await env.DB.prepare("UPDATE supply_targets SET wanted = 1 WHERE id = ?").bind(big.id).run();
      await fakeListing({ category: "leading-zeros" });
      expect((await claim(G2)).claim).toBeNull();
      expect((await list()).targets.find((x) => x.id === small.id)).toMatchObject({ stock: 2, secondsToFill: 0 });
    });

    it("refuses reports from another grinder or with bad figures, changing nothing; a report past a full target ends the claim", async () => {
      const t = await create({ ...ethTarget, wanted: 1 });
      const { claim: c } = await claim(G1);
      const before = await tables();
      expect((await progress(c!.id, { grinder: G2, attempts: 5, rate: 1 })).status).toBe(409);
      for (const body of [
        { grinder: G1, attempts: -1, rate: 1 },
        { grinder: G1, attempts: 1.5, rate: 1 },
        { grinder: G1, attempts: 1, rate: 1e13 },
        { grinder: G1, attempts: 1, rate: 1, extra: true },
        { grinder: "short", attempts: 1, rate: 1 },
      ]) {
        expect((await progress(c!.id, body)).status, JSON.stringify(body)).toBe(400);
      }
      expect(await tables()).toBe(before);
      const ok = (await (await progress(c!.id, { grinder: G1, attempts: 5000, rate: 2500 })).json()) as SupplyProgressAnswer;
      expect(ok.continue).toBe(true);
      const shown = (await list()).targets.find((x) => x.id === t.id)!;
      expect(shown).toMatchObject({ rate: 2500, openClaims: 1, stock: 0 });
      expect(shown.secondsToFill).toBeCloseTo(16 ** 5 / 2500);
      await fakeListing();
      const stop = (await (await progress(c!.id, { grinder: G1, attempts: 6000, rate: 2500 })).json()) as SupplyProgressAnswer;
      expect(stop.continue).toBe(false);
      expect(await claimRow(c!.id)).toMatchObject({ status: "ended", attempts: 6000 });
      expect((await progress(c!.id, { grinder: G1, attempts: 7000, rate: 2500 })).status).toBe(409);
    });

    it("the holder gives a claim up, once; another grinder cannot, and the place is free again", async () => {
      await create({ ...ethTarget, wanted: 100 });
      const { claim: c } = await claim(G1);
      const release = (grinder: string) => api(admin).claims[":id"].release.$post({ param: { id: String(c!.id) }, json: { grinder } });
      const before = await tables();
      expect((await release(G2)).status).toBe(409);
      expect(await tables()).toBe(before);
      expect((await release(G1)).status).toBe(200);
      expect(await claimRow(c!.id)).toMatchObject({ status: "released" });
      expect((await release(G1)).status).toBe(409);
      const next = await claim(G1);
      expect(next.claim?.id).not.toBe(c!.id);
    });

    it("a claim without a report within its lease is expired by the cron job, and its place goes to another grinder", async () => {
      await create({ ...ethTarget, wanted: 100 });
      const holders = Array.from({ length: MAX_OPEN_CLAIMS_PER_TARGET }, (_, i) => `grinder-lapsing-${String(i).padStart(6, "0")}`);
      const claims = await Promise.all(holders.map((g) => claim(g)));
      expect((await claim(G2)).claim).toBeNull();
      // A cron run inside the lease leaves them open.
      expect((await runScheduledJobs(env, Date.now() + SUPPLY_CLAIM_LEASE_MS / 2)).supplyClaims).toEqual({ expired: 0, forgotten: 0 });
      const report = await runScheduledJobs(env, Date.now() + SUPPLY_CLAIM_LEASE_MS + 1000);
      expect(report.supplyClaims).toEqual({ expired: MAX_OPEN_CLAIMS_PER_TARGET, forgotten: 0 });
      for (const c of claims) expect(await claimRow(c.claim!.id)).toMatchObject({ status: "expired" });
      expect((await progress(claims[0].claim!.id, { grinder: holders[0], attempts: 1, rate: 1 })).status).toBe(409);
      expect((await claim(G2)).claim).not.toBeNull();
      // Closed claims are forgotten a week later (the supply task alone: a whole run that late would end the sessions).
      expect(await runSupplyJob(createDb(env.DB), Date.now() + SUPPLY_CLAIM_FORGET_MS + 2 * SUPPLY_CLAIM_LEASE_MS)).toEqual({
        expired: 1,
        forgotten: MAX_OPEN_CLAIMS_PER_TARGET,
      });
    });
  });

  describe("stock", () => {
    it("counts active listed listings of the target's network and category with at least its pattern length, nothing else", async () => {
      const t = await create({ ...ethTarget, wanted: 50 });
      await fakeListing();
      await fakeListing({ patternLength: 9 });
      await fakeListing({ patternLength: 4 }); // too short
      await fakeListing({ category: "leading-zeros" }); // another category
      await fakeListing({ network: "solana" }); // another network
      await fakeListing({ status: "sold" });
      await fakeListing({ status: "inactive" });
      await fakeListing({ isListed: 0 });
      const shown = (await list()).targets.find((x) => x.id === t.id)!;
      expect(shown).toMatchObject({ stock: 2, wanted: 50, rate: 0, openClaims: 0, secondsToFill: null });
    });
  });

  describe("sealed hits under a claim", () => {
    /** An Ethereum key whose address starts with `zeros` zeros after 0x (about 16^zeros tries). */
    function groundKey(zeros: number) {
      for (;;) {
        const k = ethKey();
        if (k.address.slice(2, 2 + zeros) === "0".repeat(zeros)) return k;
      }
    }
    const send = async (id: number, grinder: string, rows: SealedRow[]) => {
      const res = await api(admin).claims[":id"].sealed.$post({ param: { id: String(id) }, json: { grinder, rows } });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as SupplySealedAnswer;
    };

    it("lists a hit at the target's price, counts it in stock and ends the claim when the target is full; an off-target row is refused", async () => {
      const t = await create({ network: "ethereum", category: "leading-zeros", patternLength: 3, price: "0.0123", wanted: 1 });
      const { claim: c } = await claim(G1);
      const key = await currentIntakeKey(env);
      const stray = ethKey();
      const off = await send(c!.id, G1, [await sealIntakeRow(key, bulkRow(stray, 4))]);
      expect(off.results[0]).toMatchObject({ status: "error", reason: "off-target" });
      expect(off.continue).toBe(true);
      expect(await env.DB.prepare("SELECT count(*) AS n FROM addresses WHERE address = ?").bind(stray.address).first()).toEqual({ n: 0 });
      // Another grinder may not list under this claim.
      const hit = groundKey(3);
      expect(privateKeyToAddress(hit.privateKey as `0x${string}`)).toBe(hit.address);
      const sealed = await sealIntakeRow(key, bulkRow(hit, 3));
      const stranger = await api(admin).claims[":id"].sealed.$post({ param: { id: String(c!.id) }, json: { grinder: G2, rows: [sealed] } });
      expect(stranger.status).toBe(409);
      const answer = await send(c!.id, G1, [sealed]);
      expect(answer.results[0]).toMatchObject({ status: "success", address: hit.address, price: "0.0123", currency: "ETH" });
      expect(answer.continue).toBe(false);
      expect(await claimRow(c!.id)).toMatchObject({ status: "ended", listed: 1 });
      const shown = (await list()).targets.find((x) => x.id === t.id)!;
      expect(shown.stock).toBeGreaterThanOrEqual(1);
      expect(shown.secondsToFill).toBe(0);
      const listing = await env.DB.prepare("SELECT category, pattern_length, status, price FROM addresses WHERE address = ?").bind(hit.address).first();
      expect(listing).toMatchObject({ category: "leading-zeros", status: "active", price: "0.0123" });
    });
  });
});
