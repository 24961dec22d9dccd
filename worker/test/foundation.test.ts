import { env } from "cloudflare:test";
import { Hono } from "hono";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES, createApp } from "../app";
import { handleError } from "../http/errors";
import { validate } from "../http/validate";
import { LATEST_MIGRATION } from "../routes/health";
import worker from "../index";
import { api, postJson } from "./helpers";
import { type Answer, client, clientOf, refusal, unchecked } from "./client";

describe("migrations", () => {
  it("apply to an empty D1 and create every table of the schema", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>();
    const names = results.map((r) => r.name);
    for (const table of [
      "users",
      "addresses",
      "transactions",
      "watchlist",
      "encrypted_keys",
      "fee_config",
      "transaction_audit",
      "membership_tiers",
      "price_history",
      "market_trends",
      "listing_promotions",
      "fee_structure",
      "blockchain_transaction_audit",
      "gas_estimation_audit",
      "algorithm_adjustments",
      "sales_analytics",
      "escrow_transactions",
      "used_sign_in_nonces",
      "sessions",
    ]) {
      expect(names, table).toContain(table);
    }
  });

  it("insert the reference rows: basic tier and 0% fee config for both networks", async () => {
    const tier = await env.DB.prepare("SELECT name FROM membership_tiers").all<{ name: string }>();
    expect(tier.results.map((r) => r.name)).toEqual(["basic"]);
    const fees = await env.DB.prepare(
      "SELECT network, exchange_fee_percentage e, commission_fee_percentage c, gas_fee_multiplier g FROM fee_config WHERE is_active = 1 ORDER BY network",
    ).all();
    expect(fees.results).toEqual([
      { network: "ethereum", e: "0", c: "0", g: "1.20" },
      { network: "solana", e: "0", c: "0", g: "1.20" },
    ]);
  });

  it("allow only one open transaction per listing", async () => {
    await env.DB.prepare(
      "INSERT INTO addresses (id, address, network, price, price_units, currency) VALUES (900, '0xabc', 'ethereum', '1', 100000000, 'ETH')",
    ).run();
    const insert = (id: string, status: string) =>
      env.DB.prepare(
        "INSERT INTO transactions (id, address_id, network, price, price_units, currency, total_amount, total_units, status) VALUES (?, 900, 'ethereum', '1', 100000000, 'ETH', '1', 100000000, ?)",
      )
        .bind(id, status)
        .run();
    await insert("t1", "initiated");
    await expect(insert("t2", "pending")).rejects.toThrow(/UNIQUE/);
    await insert("t3", "failed");
    await insert("t4", "cancelled");
  });

  it("refuse a payment hash that already settled another purchase on the same network", async () => {
    await env.DB.prepare(
      "INSERT INTO addresses (id, address, network, price, price_units, currency) VALUES (901, '0xdef', 'ethereum', '1', 1, 'ETH'), (902, '0xfed', 'ethereum', '1', 1, 'ETH')",
    ).run();
    const insert = (id: string, addressId: number) =>
      env.DB.prepare(
        "INSERT INTO transactions (id, address_id, network, price, price_units, currency, total_amount, total_units, status, tx_hash) VALUES (?, ?, 'ethereum', '1', 1, 'ETH', '1', 1, 'completed', '0xhash')",
      )
        .bind(id, addressId)
        .run();
    await insert("h1", 901);
    await expect(insert("h2", 902)).rejects.toThrow(/UNIQUE/);
  });
});

describe("health", () => {
  it("reports the database reachable and the latest migration applied", async () => {
    const res = await client().health.$get();
    expect(res.status).toBe(200);
    const body = (await res.json()) as { migration: { applied: string } };
    expect(body).toMatchObject({ status: "ok", database: "reachable", migration: { expected: LATEST_MIGRATION } });
    expect(body.migration.applied >= LATEST_MIGRATION).toBe(true);
  });

  it("answers 503 when the latest migration is missing", async () => {
    await env.DB.prepare("DELETE FROM d1_migrations WHERE name >= ?").bind(LATEST_MIGRATION).run();
    const res = await client().health.$get();
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: "unavailable" });
  });
});

describe("error shape", () => {
  // A route with a body schema, mounted on the same factory the Worker uses.
  const probe = () => {
    const app = new Hono().onError(handleError);
    app.post("/echo", validate("json", v.object({ name: v.pipe(v.string(), v.minLength(1)) })), (c) => c.json(c.req.valid("json")));
    app.get("/boom", () => {
      throw new Error("secret internal detail at /srv/db.ts:42");
    });
    return app;
  };

  it("unknown /api route: 404 JSON", async () => {
    // Raw: no typed route has this path.
    const res = await api("/api/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ error: "Not Found", message: "No API route for GET /api/no-such-thing" });
  });

  it("malformed JSON: 400 Validation Error", async () => {
    const res = await probe().request("/echo", { method: "POST", headers: { "content-type": "application/json" }, body: '{"name": ' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Validation Error", message: "Malformed JSON in request body" });
  });

  it("wrong content type: 415 with the same shape", async () => {
    const res = await probe().request("/echo", { method: "POST", headers: { "content-type": "text/plain" }, body: '{"name":"a"}' });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: "Unsupported Media Type" });
  });

  it("schema failure names the field", async () => {
    const res = await probe().request("/echo", { method: "POST", headers: { "content-type": "application/json" }, body: '{"name": 7}' });
    expect(res.status).toBe(400);
    const body = await refusal(res);
    expect(body.error).toBe("Validation Error");
    expect(body.message).toMatch(/^name: /);
  });

  it("valid body passes through", async () => {
    const res = await probe().request("/echo", { method: "POST", headers: { "content-type": "application/json" }, body: '{"name":"ok"}' });
    expect(await res.json()).toEqual({ name: "ok" });
  });

  it("unexpected error: 500 without stack or internals", async () => {
    const res = await probe().request("/boom");
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: "Internal Server Error", message: "An unexpected error occurred" });
    expect(text).not.toMatch(/secret|srv|\.ts|at /);
  });

  it("oversize body: 413 before the route reads it", async () => {
    const res = await postJson("/api/health", "x".repeat(BODY_LIMIT_BYTES + 1));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "Payload Too Large" });
  });
});

describe("security headers", () => {
  it("are on every API response, errors included", async () => {
    // "/api/nope" is raw: an unknown route on purpose.
    for (const path of [client().health.$path(), "/api/nope"]) {
      const res = await api(path);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
  });
});

describe("secrets", () => {
  // The guards are middleware on the routes that need them (no path list): each route below is refused up front
  // without its secret, before validation or sign-in is looked at, and the public reads beside them stay up.
  const without = (bindings: Record<string, undefined>) => clientOf((input, init) => createApp().request(input, init, { ...env, ...bindings }));
  // The bodies are refused by the schemas on purpose: the guard must answer before validation looks at them.
  const keyRoutes = (api: ReturnType<typeof without>): [string, () => Promise<Answer>][] => [
    ["verify-ownership", () => api.addresses["verify-ownership"].$post({ json: unchecked({}) })],
    ["create listing", () => api.addresses.$post({ json: unchecked({}) })],
    ["bulk import", () => api.admin.addresses.bulk.$post({ json: unchecked({ rows: [] }) })],
    ["user transactions", () => api.transactions.user.$get({ query: {} })],
  ];

  it("key and payment routes refuse to run without KEY_ENCRYPTION_SECRET", async () => {
    for (const [name, call] of keyRoutes(without({ KEY_ENCRYPTION_SECRET: undefined }))) {
      const res = await call();
      expect(res.status, name).toBe(503);
      expect((await refusal(res)).message, name).toMatch(/KEY_ENCRYPTION_SECRET/);
    }
  });

  it("sign-in routes refuse to run without SESSION_SECRET", async () => {
    const api = without({ SESSION_SECRET: undefined });
    const calls: [string, () => Promise<Answer>][] = [
      ["nonce", () => api.auth.nonce.$post({ json: { network: "solana" } })],
      ["verify", () => api.auth.verify.$post({ json: unchecked({ network: "solana" }) })],
      ["logout", () => api.auth.logout.$post()],
    ];
    for (const [name, call] of calls) {
      const res = await call();
      expect(res.status, name).toBe(503);
      expect((await refusal(res)).message, name).toMatch(/SESSION_SECRET/);
    }
  });

  it("public reads beside them stay up without the secrets", async () => {
    const api = without({ KEY_ENCRYPTION_SECRET: undefined, SESSION_SECRET: undefined });
    expect((await api.transactions.recent.$get({ query: {} })).status).toBe(200);
    expect((await api.addresses.validate.$get({ query: { address: "0x0000f83d8427610068974F4284A0DC825A8218e6" } })).status).toBe(200);
    expect((await api.addresses.search.$get({ query: {} })).status).toBe(200);
    expect((await api.transactions["calculate-fees"].$post({ json: unchecked({ price: "1", network: "ethereum" }) })).status).not.toBe(503);
  });

  it("with the secrets configured a request reaches routing", async () => {
    // Raw: "abc" is no transaction id, so GET /:id's id check refuses it (the typed client would not send it).
    const res = await api("/api/transactions/abc");
    expect({ status: res.status, message: (await refusal(res)).message }).toEqual({ status: 400, message: "id: must be a transaction id" });
    expect((await api("/api/transactions/abc/unknown")).status).toBe(404);
  });
});

describe("scheduled", () => {
  it("removes expired used nonces and sessions and keeps live ones", async () => {
    const now = Date.now();
    await env.DB.prepare("INSERT INTO used_sign_in_nonces (nonce, expires_at) VALUES (?, ?), (?, ?)")
      .bind("0".repeat(32), now - 1, "1".repeat(32), now + 60_000)
      .run();
    const { createExecutionContext, createScheduledController, waitOnExecutionContext } = await import("cloudflare:test");
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(now), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const { results } = await env.DB.prepare("SELECT nonce FROM used_sign_in_nonces").all<{ nonce: string }>();
    expect(results.map((r) => r.nonce)).toEqual(["1".repeat(32)]);
  });
});

describe("read replication", () => {
  it("only public browse reads may use a replica; writes, keys, sign-in and owner reads start on the primary", async () => {
    const { sessionConstraint } = await import("../app");
    for (const path of [
      "/api/addresses/search",
      "/api/addresses/featured",
      "/api/addresses/42",
      "/api/addresses/42/context",
      "/api/market-stats",
      "/api/transactions/recent",
      "/api/prices/live",
      "/api/transactions/sales",
      "/api/transactions/sales/0b6f1c2e-6a3c-4c84-9d8e-2f1f0f5a9e11",
    ]) {
      expect(sessionConstraint("GET", path), path).toBe("first-unconstrained");
    }
    for (const [method, path] of [
      ["POST", "/api/addresses"],
      ["PATCH", "/api/addresses/42"],
      ["POST", "/api/addresses/42/context"],
      ["GET", "/api/addresses/user/context"],
      ["GET", "/api/addresses/user"],
      ["GET", "/api/admin/addresses"],
      ["GET", "/api/auth/session"],
      ["GET", "/api/transactions/abc"],
      ["GET", "/api/transactions/user"],
      ["GET", "/api/transactions/open"],
      ["POST", "/api/transactions/sales"],
      ["GET", "/api/health"],
    ]) {
      expect(sessionConstraint(method, path), `${method} ${path}`).toBe("first-primary");
    }
  });
});
