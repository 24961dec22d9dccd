// Several grinders on one queue, through the real Worker and D1: a claim is a lease that progress renews and
// the clock ends (docs/custom-orders.md#several-grinders); grinders claiming at once never share an order; a
// dead grinder's order goes to another; hostile progress is refused and changes nothing; every grinder's rate
// is stored for the order page and the admin queue; an order has a deadline to be found.
import { env } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ClaimAnswer, CustomOrderQuote, CustomOrderView, OrderQueue } from "../../schema/custom-orders";
import { CUSTOM_ORDER_GRIND_HOURS, GRINDER_LEASE_MS } from "../../schema/custom-orders";
import type { OrderPattern } from "../../schema/custom-order-pattern";
import { publicKeyOf, randomSecret, scalarToHex } from "../../schema/split-key";
import { createDb } from "../db/database";
import { runScheduledJobs } from "../jobs/scheduled";
import { claimNext, recordProgress, submitOffset } from "../orders/fulfil";
import { ApiError } from "../http/errors";
import { findOffset } from "./custom-order-fixtures";
import { type Caller, signInAll } from "./listing-fixtures";
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
  client(caller)["custom-orders"].admin[":id{[0-9]+}"].progress.$post({ param: { id: String(id) }, json: unchecked(body) });
const view = async (id: number): Promise<CustomOrderView> => (await client(user)["custom-orders"][":id{[0-9]+}"].$get({ param: { id: String(id) } })).json();

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
    expect((await client(admin)["custom-orders"].admin[":id{[0-9]+}"].release.$post({ param: { id: String(order.id) }, json: { grinder: G2 } })).status).toBe(
      409,
    );
    expect((await client(admin)["custom-orders"].admin[":id{[0-9]+}"].release.$post({ param: { id: String(order.id) }, json: { grinder: G1 } })).status).toBe(
      200,
    );
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
            await client(caller)["custom-orders"].admin[":id{[0-9]+}"].submit.$post({
              param: { id: String(held.id) },
              json: { offset: k, variant: 0, grinder },
            })
          ).status,
        ).toBe(409);
        expect((await client(caller)["custom-orders"].admin[":id{[0-9]+}"].release.$post({ param: { id: String(held.id) }, json: { grinder } })).status).toBe(
          409,
        );
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
    const late = await client(admin)["custom-orders"].admin[":id{[0-9]+}"].submit.$post({
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
