// Custom orders through the real Worker and D1: quote, placing, the buyer's views, the grinder's take /
// progress / submit (the server recomputes the point), cancellation, expiry and hostile input everywhere.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { CustomOrderList, CustomOrderQuote, CustomOrderView, OrderQueue, QueuedOrder } from "../../schema/custom-orders";
import { addressMatchesOrder, type OrderPattern } from "../../schema/custom-order-pattern";
import { CURVE_ORDER, orderAddress, publicKeyOf, randomSecret, scalarToHex } from "../../schema/split-key";
import { runScheduledJobs } from "../jobs/scheduled";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { signInEthereum, signInSolana } from "./auth-helpers";
import { type Caller, signInAll } from "./listing-fixtures";
import { call } from "./purchase-fixtures";
import { inFreshRateWindow } from "./helpers";
import { client, refusal, unchecked } from "./client";

let admin: Caller;
let user: Caller;
let other: Caller;
beforeAll(async () => {
  ({ admin, user, other } = await signInAll());
});

const quote = (query: { prefix?: string; suffix?: string; caseSensitive?: "true" | "false" }) => client()["custom-orders"].quote.$get({ query });
/** A quote from a query string as written, malformed ones too (the typed client would re-encode them). */
const rawQuote = (query: string) => call("GET", `${client()["custom-orders"].quote.$path()}?${query}`);
async function priceOf(prefix: string, suffix = "", caseSensitive = false) {
  const res = await quote({ prefix, suffix, caseSensitive: caseSensitive ? "true" : "false" });
  return ((await res.json()) as CustomOrderQuote).price;
}

async function place(caller: Caller, pattern: Partial<OrderPattern>, secret = randomSecret()) {
  const body = { prefix: "", suffix: "", caseSensitive: false, ...pattern };
  const price = await priceOf(body.prefix, body.suffix, body.caseSensitive);
  const res = await client(caller)["custom-orders"].$post({ json: { ...body, publicKey: publicKeyOf(secret), price } });
  return { res, secret, order: res.status === 201 ? ((await res.clone().json()) as CustomOrderView) : null };
}

/** Finds an offset the way the grinder would, for a short pattern (a few dozen tries). */
function findOffset(publicKey: string, pattern: OrderPattern, variant = 0): bigint {
  let k = randomSecret() % (CURVE_ORDER - 100_000n);
  for (let i = 0; i < 100_000; i++, k++) if (addressMatchesOrder(pattern, orderAddress(publicKey, k, variant))) return k;
  throw new Error("no offset found");
}

async function tableState() {
  const r = await env.DB.prepare(
    "SELECT count(*) AS n, group_concat(id || status || coalesce(found_address, '') || coalesce(progress_attempts, ''), ',') AS s FROM custom_orders",
  ).first();
  return JSON.stringify(r);
}

async function clearOrders() {
  await env.DB.prepare("DELETE FROM custom_orders").run();
}

describe("GET /api/custom-orders/quote", () => {
  it("states difficulty, expected attempts, time at the grinding rate and the price; the same for a 0x prefix", async () => {
    const res = await quote({ prefix: "0xdead", suffix: "beef" });
    expect(res.status).toBe(200);
    const q = (await res.json()) as CustomOrderQuote;
    expect(q).toMatchObject({
      prefix: "dead",
      suffix: "beef",
      caseSensitive: false,
      difficultyBits: 32,
      expectedAttempts: "4294967296",
      currency: "ETH",
      refusal: null,
    });
    expect(q.estimatedSeconds).toBeCloseTo(4294967296 / q.grindRate, 3);
    expect(q.price).toBe("0.01358994");
    // migration 0025's defaults (no admin changed the quote here): one production GPU
    expect(q).toMatchObject({ grindRate: 2_000_000_000, rateSource: "configured", maxDifficultyBits: 44, grindHours: 168 });
  });

  it("while a grinder runs, the time is at its own measured rate, so the quote and the note on the grinders agree", async () => {
    // A CPU thread of the local stack's grinder, far slower than the configured GPU rate.
    await env.DB.prepare("INSERT INTO order_grinders (id, admin_id, label, rate, started_at, last_seen_at) VALUES ('quote-cpu', ?, 'cpu', 1200000, ?, ?)")
      .bind(admin.userId, Date.now(), Date.now())
      .run();
    try {
      const q = (await (await quote({ prefix: "abcdef" })).json()) as CustomOrderQuote;
      expect(q).toMatchObject({ rateSource: "running", grindRate: 1_200_000, grinders: { online: 1, fastestRate: 1_200_000 } });
      expect(q.estimatedSeconds).toBeCloseTo(2 ** 24 / 1_200_000, 6);
    } finally {
      await env.DB.prepare("DELETE FROM order_grinders WHERE id = 'quote-cpu'").run();
    }
  });

  it("answers a too-hard pattern with its refusal and reason", async () => {
    expect(((await (await quote({ prefix: "abcdef12345" })).json()) as CustomOrderQuote).refusal).toBeNull(); // 2^44
    const q = (await (await quote({ prefix: "abcdef123456" })).json()) as CustomOrderQuote;
    expect(q.refusal).toMatch(/Too hard to order/);
    expect(q.maxDifficultyBits).toBe(44);
  });

  it("refuses hostile and malformed queries with 400", async () => {
    for (const qs of [
      "",
      "prefix=",
      "prefix=xyz",
      "suffix=0xdead",
      "prefix=%00",
      "prefix=de%20ad",
      `prefix=${"a".repeat(43)}`,
      `prefix=${"a".repeat(30)}&suffix=${"b".repeat(11)}`,
      "prefix=ab&caseSensitive=yes",
      "prefix[]=ab",
    ]) {
      const res = await rawQuote(qs);
      expect(res.status, qs).toBe(400);
      expect(await res.json(), qs).toMatchObject({ error: "Validation Error" });
    }
  });
});

describe("POST /api/custom-orders", () => {
  it("stores A, the pattern, the quote and the signed-in wallet; the answer has no offset", async () => {
    await clearOrders();
    const secret = randomSecret();
    const { res, order } = await place(user, { prefix: "Ab", caseSensitive: true }, secret);
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(order).toMatchObject({
      status: "open",
      prefix: "Ab",
      suffix: "",
      caseSensitive: true,
      difficultyBits: 10,
      publicKey: publicKeyOf(secret),
      address: null,
      offset: null,
      variant: null,
    });
    const row = await env.DB.prepare("SELECT * FROM custom_orders WHERE id = ?").bind(order!.id).first<Record<string, unknown>>();
    expect(row).toMatchObject({
      buyer_wallet: expect.stringMatching(/^0x[0-9a-f]{40}$/),
      public_key: publicKeyOf(secret),
      price: order!.price,
      difficulty_bits: 10,
    });
    expect(JSON.stringify(row)).not.toContain(scalarToHex(secret).slice(2));
  });

  it("401 signed out, 403 for a Solana wallet, and nothing is stored", async () => {
    const before = await tableState();
    const body = { prefix: "ab", publicKey: publicKeyOf(randomSecret()), price: await priceOf("ab") };
    expect((await client()["custom-orders"].$post({ json: body })).status).toBe(401);
    const sol = await signInSolana();
    const res = await client({ headers: { cookie: sol.cookie } })["custom-orders"].$post({ json: body });
    expect(res.status).toBe(403);
    expect((await refusal(res)).message).toMatch(/Ethereum/);
    expect(await tableState()).toBe(before);
  });

  it("refuses a price other than the server's quote with 409 and the current price", async () => {
    const before = await tableState();
    const res = await client(user)["custom-orders"].$post({ json: { prefix: "abc", publicKey: publicKeyOf(randomSecret()), price: "0.000001" } });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ currentPrice: await priceOf("abc") });
    expect(await tableState()).toBe(before);
  });

  it("refuses a pattern beyond the maximum with the reason", async () => {
    const res = await client(user)["custom-orders"].$post({ json: { prefix: "abcdef123456", publicKey: publicKeyOf(randomSecret()), price: "0.5" } });
    expect(res.status).toBe(400);
    expect((await refusal(res)).message).toMatch(/^pattern: Too hard to order/);
  });

  it("refuses hostile bodies with 400 and changes nothing", async () => {
    const before = await tableState();
    const A = publicKeyOf(randomSecret());
    const price = await priceOf("ab");
    const notOnCurve = "0x02" + "f".repeat(64);
    const bodies: unknown[] = [
      "not json",
      "[]",
      "null",
      {},
      { prefix: "ab", price },
      { prefix: "ab", publicKey: A },
      { prefix: "zz", publicKey: A, price },
      { prefix: "", suffix: "", publicKey: A, price },
      { prefix: "ab", publicKey: notOnCurve, price },
      { prefix: "ab", publicKey: "0x04" + A.slice(4), price },
      { prefix: "ab", publicKey: A + "00", price },
      { prefix: "ab", publicKey: 12, price },
      { prefix: "ab", publicKey: A, price: 0.005 },
      { prefix: "ab", publicKey: A, price: "-1" },
      { prefix: "ab", publicKey: A, price: "1e3" },
      { prefix: ["ab"], publicKey: A, price },
      { prefix: "ab", caseSensitive: "true", publicKey: A, price },
      { prefix: "a".repeat(10_000), publicKey: A, price },
      { prefix: "ab\u0000", publicKey: A, price },
    ];
    for (const body of bodies) {
      // String cases are sent as they are ("not json", "[]", "null"), not JSON-encoded again.
      const res =
        typeof body === "string"
          ? await call("POST", client()["custom-orders"].$path(), user, body)
          : await client(user)["custom-orders"].$post({ json: unchecked(body) });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ error: "Validation Error" });
    }
    expect(await tableState()).toBe(before);
  });

  it("keeps at most 3 unfinished orders per wallet, even when they are placed at once", async () => {
    await clearOrders();
    const results = await Promise.all(Array.from({ length: 6 }, () => place(other, { prefix: "ab" })));
    expect(results.filter((r) => r.res.status === 201)).toHaveLength(3);
    const refused = results.find((r) => (r.res.status as number) === 409)!;
    expect((await refusal(refused.res)).message).toMatch(/already have 3 orders waiting/);
    // another wallet is not affected
    expect((await place(user, { prefix: "ab" })).res.status).toBe(201);
  });

  it("limits placing orders to 20 a minute per wallet (429), counted after validation", async () => {
    await inFreshRateWindow();
    const account = privateKeyToAccount(generatePrivateKey());
    const { cookie } = await signInEthereum(account);
    const caller = { cookie, userId: 0, headers: { cookie } };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await place(caller, { prefix: "ab" })).res.status);
    expect(statuses.slice(0, 3)).toEqual([201, 201, 201]);
    expect(statuses.slice(3, 20).every((s) => s === 409)).toBe(true);
    expect(statuses[20]).toBe(429);
  }, 60_000);
});

describe("the buyer's views", () => {
  it("GET /:id for the buyer and admins only (404 for anyone else), /mine lists only the session's orders", async () => {
    await clearOrders();
    const mine = (await place(user, { suffix: "01" })).order!;
    const theirs = (await place(other, { suffix: "02" })).order!;
    expect((await client(user)["custom-orders"][":id"].$get({ param: { id: String(mine.id) } })).status).toBe(200);
    expect((await client(admin)["custom-orders"][":id"].$get({ param: { id: String(mine.id) } })).status).toBe(200);
    expect((await client(other)["custom-orders"][":id"].$get({ param: { id: String(mine.id) } })).status).toBe(404);
    expect((await client()["custom-orders"][":id"].$get({ param: { id: String(mine.id) } })).status).toBe(401);
    const list = (await (await client(user)["custom-orders"].mine.$get()).json()) as CustomOrderList;
    expect(list.orders.map((o) => o.id)).toEqual([mine.id]);
    expect(list.orders.some((o) => o.id === theirs.id)).toBe(false);
    for (const bad of ["0", "01", "abc", "1.5", "-1", "99999999999999999"]) {
      expect((await client(user)["custom-orders"][":id"].$get({ param: { id: bad } })).status, bad).toBeGreaterThanOrEqual(400);
      expect((await client(user)["custom-orders"][":id"].$get({ param: { id: bad } })).status, bad).toBeLessThan(500);
    }
  });
});

describe("the grinder's calls (admin)", () => {
  let order: CustomOrderView;
  let secret: bigint;
  const pattern: OrderPattern = { prefix: "c", suffix: "", caseSensitive: false };
  beforeAll(async () => {
    await clearOrders();
    const placed = await place(user, pattern);
    order = placed.order!;
    secret = placed.secret;
  });

  it("are refused to non-admins and the signed out", async () => {
    const before = await tableState();
    for (const caller of [user, undefined]) {
      expect((await client(caller)["custom-orders"].admin.queue.$get({ query: {} })).status).toBe(caller ? 403 : 401);
      expect((await client(caller)["custom-orders"].admin[":id"].take.$post({ param: { id: String(order.id) }, json: {} })).status).toBe(caller ? 403 : 401);
      expect(
        (await client(caller)["custom-orders"].admin[":id"].progress.$post({ param: { id: String(order.id) }, json: { attempts: 1, rate: 1 } })).status,
      ).toBe(caller ? 403 : 401);
      expect(
        (
          await client(caller)["custom-orders"].admin[":id"].submit.$post({
            param: { id: String(order.id) },
            json: { offset: scalarToHex(1n), variant: 0 },
          })
        ).status,
      ).toBe(caller ? 403 : 401);
    }
    expect(await tableState()).toBe(before);
  });

  it("the queue shows waiting orders with difficulty, age, status and A, never an offset", async () => {
    const q = (await (await client(admin)["custom-orders"].admin.queue.$get({ query: {} })).json()) as OrderQueue;
    expect(q.orders.map((o) => o.id)).toEqual([order.id]);
    expect(q.orders[0]).toMatchObject({ status: "open", difficultyBits: 4, expectedAttempts: "16", publicKey: order.publicKey, progress: null });
    expect(q.orders[0].ageSeconds).toBeGreaterThanOrEqual(0);
    expect((await client(admin)["custom-orders"].admin.queue.$get({ query: unchecked({ status: "bogus" }) })).status).toBe(400);
  });

  it("progress and submit need the order taken first; take works once", async () => {
    expect((await client(admin)["custom-orders"].admin[":id"].progress.$post({ param: { id: String(order.id) }, json: { attempts: 5, rate: 5 } })).status).toBe(
      409,
    );
    const taken = await client(admin)["custom-orders"].admin[":id"].take.$post({ param: { id: String(order.id) }, json: {} });
    expect(taken.status).toBe(200);
    expect(((await taken.json()) as QueuedOrder).status).toBe("grinding");
    expect((await client(admin)["custom-orders"].admin[":id"].take.$post({ param: { id: String(order.id) }, json: {} })).status).toBe(409);
    expect((await client(admin)["custom-orders"].admin[":id"].take.$post({ param: { id: "999999" }, json: {} })).status).toBe(404);
  });

  it("records progress; hostile progress bodies are 400 and change nothing", async () => {
    const ok = await client(admin)["custom-orders"].admin[":id"].progress.$post({
      param: { id: String(order.id) },
      json: { attempts: 1234, rate: 2_500_000.5 },
    });
    expect(ok.status).toBe(200);
    const before = await tableState();
    for (const body of [
      {},
      { attempts: -1, rate: 1 },
      { attempts: 1.5, rate: 1 },
      { attempts: "5", rate: 1 },
      { attempts: 1, rate: -1 },
      { attempts: 1, rate: 1e300 },
      { attempts: 2 ** 60, rate: 1 },
      "[]",
    ]) {
      // "[]" is sent as it is: JSON text that is not an object.
      const res =
        typeof body === "string"
          ? await call("POST", client()["custom-orders"].admin[":id"].progress.$path({ param: { id: String(order.id) } }), admin, body)
          : await client(admin)["custom-orders"].admin[":id"].progress.$post({ param: { id: String(order.id) }, json: unchecked(body) });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await tableState()).toBe(before);
    const q = (await (await client(admin)["custom-orders"].admin.queue.$get({ query: {} })).json()) as OrderQueue;
    expect(q.orders[0].progress).toMatchObject({ attempts: 1234, rate: 2_500_000.5 });
  });

  it("refuses a k whose address does not match, a right k with the wrong variant, and malformed results", async () => {
    const before = await tableState();
    let wrong = randomSecret();
    while (addressMatchesOrder(pattern, orderAddress(order.publicKey, wrong, 0))) wrong++;
    const res = await client(admin)["custom-orders"].admin[":id"].submit.$post({
      param: { id: String(order.id) },
      json: { offset: scalarToHex(wrong), variant: 0 },
    });
    expect(res.status).toBe(400);
    expect((await refusal(res)).message).toMatch(/^offset: this offset gives 0x[0-9a-fA-F]{40}, which does not match 0xc…/);
    const k = findOffset(order.publicKey, pattern, 0);
    let variant = 1;
    while (addressMatchesOrder(pattern, orderAddress(order.publicKey, k, variant))) variant++;
    expect(
      (await client(admin)["custom-orders"].admin[":id"].submit.$post({ param: { id: String(order.id) }, json: { offset: scalarToHex(k), variant } })).status,
    ).toBe(400);
    for (const body of [
      { offset: scalarToHex(k), variant: 6 },
      { offset: scalarToHex(k), variant: -1 },
      { offset: scalarToHex(k), variant: 0.5 },
      { offset: scalarToHex(k) },
      { offset: "0x" + "0".repeat(64), variant: 0 },
      { offset: scalarToHex(CURVE_ORDER), variant: 0 },
      { offset: k.toString(), variant: 0 },
      { offset: scalarToHex(k).slice(0, 40), variant: 0 },
    ]) {
      const r = await client(admin)["custom-orders"].admin[":id"].submit.$post({ param: { id: String(order.id) }, json: unchecked(body) });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect(await tableState()).toBe(before);
  });

  it("accepts a matching k: the address is public, the offset stays hidden from the buyer and the queue", async () => {
    const k = findOffset(order.publicKey, pattern, 3);
    const res = await client(admin)["custom-orders"].admin[":id"].submit.$post({
      param: { id: String(order.id) },
      json: { offset: scalarToHex(k), variant: 3 },
    });
    expect(res.status).toBe(200);
    const expected = orderAddress(publicKeyOf(secret), k, 3);
    const view = (await (await client(user)["custom-orders"][":id"].$get({ param: { id: String(order.id) } })).json()) as CustomOrderView;
    expect(view).toMatchObject({ status: "found", address: expected, offset: null, variant: null });
    expect(Date.parse(view.paymentDeadline!) - Date.parse(view.foundAt!)).toBe(72 * 3600_000);
    const hex = scalarToHex(k).slice(2);
    for (const [path, res] of [
      ["/api/custom-orders/:id", () => client(user)["custom-orders"][":id"].$get({ param: { id: String(order.id) } })],
      ["/api/custom-orders/mine", () => client(user)["custom-orders"].mine.$get()],
      ["/api/custom-orders/admin/queue?status=all", () => client(admin)["custom-orders"].admin.queue.$get({ query: { status: "all" } })],
    ] as const) {
      const text = await (await res()).text();
      expect(text, path).not.toContain(hex);
    }
    // a second submit finds the order no longer grinding
    expect(
      (
        await client(admin)["custom-orders"].admin[":id"].submit.$post({
          param: { id: String(order.id) },
          json: { offset: scalarToHex(k), variant: 3 },
        })
      ).status,
    ).toBe(409);
  });

  it("a delivered order shows its buyer the offset and variant", async () => {
    await env.DB.prepare("UPDATE custom_orders SET status = 'delivered' WHERE id = ?").bind(order.id).run();
    const view = (await (await client(user)["custom-orders"][":id"].$get({ param: { id: String(order.id) } })).json()) as CustomOrderView;
    expect(view.offset).toMatch(/^0x[0-9a-f]{64}$/);
    expect(view.variant).toBe(3);
    expect(orderAddress(publicKeyOf(secret), BigInt(view.offset!), 3)).toBe(view.address);
  });
});

describe("two grinders, stale grinders and a found address used twice", () => {
  it("only the taking grinder reports and submits; a quiet grinder's order can be taken over once its claim lapses", async () => {
    await clearOrders();
    await env.DB.prepare("UPDATE users SET is_admin = 1 WHERE id = ?").bind(other.userId).run();
    try {
      const { order } = await place(user, { prefix: "d" });
      expect((await client(admin)["custom-orders"].admin[":id"].take.$post({ param: { id: String(order!.id) }, json: {} })).status).toBe(200);
      expect(
        (await client(other)["custom-orders"].admin[":id"].progress.$post({ param: { id: String(order!.id) }, json: { attempts: 1, rate: 1 } })).status,
      ).toBe(409);
      const k = findOffset(order!.publicKey, { prefix: "d", suffix: "", caseSensitive: false });
      expect(
        (
          await client(other)["custom-orders"].admin[":id"].submit.$post({
            param: { id: String(order!.id) },
            json: { offset: scalarToHex(k), variant: 0 },
          })
        ).status,
      ).toBe(409);
      expect((await client(other)["custom-orders"].admin[":id"].take.$post({ param: { id: String(order!.id) }, json: {} })).status).toBe(409);
      // the claim's lease ran out (GRINDER_LEASE_MS after the last report)
      await env.DB.prepare("UPDATE custom_orders SET claim_expires_at = ? WHERE id = ?")
        .bind(Date.now() - 1, order!.id)
        .run();
      expect((await client(other)["custom-orders"].admin[":id"].take.$post({ param: { id: String(order!.id) }, json: {} })).status).toBe(200);
      expect(
        (await client(admin)["custom-orders"].admin[":id"].progress.$post({ param: { id: String(order!.id) }, json: { attempts: 1, rate: 1 } })).status,
      ).toBe(409);
      expect(
        (
          await client(other)["custom-orders"].admin[":id"].submit.$post({
            param: { id: String(order!.id) },
            json: { offset: scalarToHex(k), variant: 0 },
          })
        ).status,
      ).toBe(200);
    } finally {
      await env.DB.prepare("UPDATE users SET is_admin = 0 WHERE id = ?").bind(other.userId).run();
    }
  });

  it("an address already found for one order is refused for another", async () => {
    await clearOrders();
    const secret = randomSecret();
    const first = (await place(user, { prefix: "e" }, secret)).order!;
    const second = (await place(user, { prefix: "e" }, secret)).order!;
    const k = findOffset(first.publicKey, { prefix: "e", suffix: "", caseSensitive: false });
    for (const o of [first, second])
      expect((await client(admin)["custom-orders"].admin[":id"].take.$post({ param: { id: String(o.id) }, json: {} })).status).toBe(200);
    expect(
      (
        await client(admin)["custom-orders"].admin[":id"].submit.$post({
          param: { id: String(first.id) },
          json: { offset: scalarToHex(k), variant: 0 },
        })
      ).status,
    ).toBe(200);
    const res = await client(admin)["custom-orders"].admin[":id"].submit.$post({
      param: { id: String(second.id) },
      json: { offset: scalarToHex(k), variant: 0 },
    });
    expect(res.status).toBe(409);
    expect((await refusal(res)).message).toMatch(/already belongs to another order/);
  });
});

describe("cancel and expiry", () => {
  it("the buyer cancels an unpaid order; others get 404; a delivered order cannot be cancelled", async () => {
    await clearOrders();
    const { order } = await place(user, { prefix: "f" });
    expect((await client(other)["custom-orders"][":id"].cancel.$post({ param: { id: String(order!.id) } })).status).toBe(404);
    const res = await client(user)["custom-orders"][":id"].cancel.$post({ param: { id: String(order!.id) } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as CustomOrderView).status).toBe("cancelled");
    expect((await client(admin)["custom-orders"].admin[":id"].take.$post({ param: { id: String(order!.id) }, json: {} })).status).toBe(409);
    const delivered = (await place(user, { prefix: "f" })).order!;
    await env.DB.prepare("UPDATE custom_orders SET status = 'delivered' WHERE id = ?").bind(delivered.id).run();
    expect((await client(user)["custom-orders"][":id"].cancel.$post({ param: { id: String(delivered.id) } })).status).toBe(409);
  });

  it("the cron job expires found orders past their payment deadline, and only those; the offset is never revealed", async () => {
    await clearOrders();
    const a = (await place(user, { prefix: "1" })).order!;
    const b = (await place(user, { prefix: "2" })).order!;
    for (const o of [a, b]) {
      await client(admin)["custom-orders"].admin[":id"].take.$post({ param: { id: String(o.id) }, json: {} });
      const k = findOffset(o.publicKey, { prefix: o.prefix, suffix: "", caseSensitive: false });
      expect(
        (await client(admin)["custom-orders"].admin[":id"].submit.$post({ param: { id: String(o.id) }, json: { offset: scalarToHex(k), variant: 0 } })).status,
      ).toBe(200);
    }
    const now = Date.now();
    await env.DB.prepare("UPDATE custom_orders SET payment_deadline = ? WHERE id = ?")
      .bind(now - 1, a.id)
      .run();
    const report = await runScheduledJobs(env, now);
    expect(report.expiredCustomOrders).toBe(1);
    expect((await runScheduledJobs(env, now)).expiredCustomOrders).toBe(0);
    const viewA = (await (await client(user)["custom-orders"][":id"].$get({ param: { id: String(a.id) } })).json()) as CustomOrderView;
    const viewB = (await (await client(user)["custom-orders"][":id"].$get({ param: { id: String(b.id) } })).json()) as CustomOrderView;
    expect(viewA).toMatchObject({ status: "expired", offset: null });
    expect(viewB.status).toBe("found");
    // the expired order's address stays bound to it: no other order can take it
    const row = await env.DB.prepare("SELECT found_address FROM custom_orders WHERE id = ?").bind(a.id).first<{ found_address: string }>();
    expect(row!.found_address).toBe(viewA.address);
  });
});
