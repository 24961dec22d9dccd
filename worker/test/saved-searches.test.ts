// Saved searches (docs/collectors.md#saved-searches): saving any marketplace search with a name, what a hostile
// client sends (over-long and empty names, unknown or malformed filters, a search nothing can match, someone
// else's id), one save per search and wallet, and the per-wallet and per-network bounds.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { SAVED_SEARCH_LIMITS, type SavedSearchesResponse, type SavedSearchView } from "../../schema/collectors";
import { keyOf, makeUsers, rowCount, saveFrom } from "./collectors-fixtures";
import { call, ethWallet, type Wallet } from "./purchase-fixtures";
import { type Answer, client, refusal, unchecked } from "./client";

const IP = "203.0.113.30";
let w: Wallet;
beforeAll(async () => {
  w = await ethWallet();
});

const list = async (wallet: Wallet) => ((await (await client(wallet)["saved-searches"].$get()).json()) as SavedSearchesResponse).searches;
const message = async (res: Answer) => (await refusal(res)).message;

describe("saving", () => {
  it("signed out: 401, nothing written", async () => {
    expect((await client()["saved-searches"].$post({ json: { name: "x", filters: {} } })).status).toBe(401);
    expect((await client()["saved-searches"].$get()).status).toBe(401);
    expect((await client()["saved-searches"][":id"].$delete({ param: { id: "1" } })).status).toBe(401);
    expect(await rowCount("saved_searches")).toBe(0);
  });

  it("keeps the filters as the URL holds them, without the defaults, and files the search under its keys", async () => {
    const res = await saveFrom(IP, w, "  Dead ends  ", {
      patternFilter: "suffix",
      patternValue: "dead",
      network: "ethereum",
      category: "all",
      excludeSold: "true",
      sortBy: "price",
      sortOrder: "asc",
      search: "",
    });
    expect(res.status).toBe(201);
    const saved = (await res.json()) as SavedSearchView;
    expect(saved).toMatchObject({
      name: "Dead ends",
      filters: { patternFilter: "suffix", patternValue: "dead", network: "ethereum", sortBy: "price", sortOrder: "asc" },
    });
    expect(Object.keys(saved.filters)).not.toContain("category");
    expect((await list(w)).map((s) => s.id)).toContain(saved.id);
    const keys = await env.DB.prepare("SELECT k.key, k.exact FROM saved_query_keys k JOIN saved_searches s ON s.query_id = k.query_id WHERE s.id = ?")
      .bind(saved.id)
      .all();
    expect(keys.results).toEqual([{ key: "p:ethereum:e:daed", exact: 1 }]);
  });

  it("the same search again is 409 naming the first save; different sorts are a different search", async () => {
    const wallet = await ethWallet();
    expect((await saveFrom(IP, wallet, "One", { patternValue: "beef" })).status).toBe(201);
    const again = await saveFrom(IP, wallet, "Two", { patternValue: " beef ", patternFilter: "either" });
    expect(again.status).toBe(409);
    expect(await message(again)).toBe("You saved this search already, as “One”");
    expect((await saveFrom(IP, wallet, "Three", { patternValue: "beef", sortBy: "price" })).status).toBe(201);
  });

  it("refuses what a hostile client sends, writing nothing", async () => {
    const before = await rowCount("saved_searches");
    const cases: [unknown, string][] = [
      [{ name: "x".repeat(61), filters: {} }, "name: name must be at most 60 characters"],
      [{ name: "   ", filters: {} }, "name: name must not be empty"],
      [{ name: "a\u0000b", filters: {} }, "name: name must not contain control characters"],
      [{ name: 7, filters: {} }, "name: name must be text"],
      [{ filters: {} }, "name"],
      [{ name: "x" }, "filters"],
      [{ name: "x", filters: "network=ethereum" }, "filters"],
      [{ name: "x", filters: [] }, "filters"],
      [{ name: "x", filters: { limit: "20" } }, "must hold only marketplace filters"],
      ['{"name": "x", "filters": {"__proto__": {"network": "solana"}}}', "must hold only marketplace filters"],
      [{ name: "x", filters: { network: "bitcoin" } }, "filters.network: must be one of: all, ethereum, solana"],
      [{ name: "x", filters: { minCharLength: "9", maxCharLength: "3" } }, "filters.minCharLength: must not be greater than maxCharLength"],
      [{ name: "x", filters: { minCharLength: "-1" } }, "filters.minCharLength"],
      [{ name: "x", filters: { search: "a".repeat(101) } }, "filters.search: must be at most 100 characters"],
      [{ name: "x", filters: { network: 1 } }, "must be text"],
      [{ name: "x", filters: { search: "%%" } }, "no address can match this search"],
      [{ name: "x", filters: { network: "solana", patternValue: "0000" } }, "no address can match this search"],
    ];
    for (const [body, expected] of cases) {
      // A string case is sent as it is: JSON text whose "__proto__" key an object literal could not carry.
      const res =
        typeof body === "string"
          ? await call("POST", "/api/saved-searches", w, body, { "cf-connecting-ip": IP })
          : await client(w, { "cf-connecting-ip": IP })["saved-searches"].$post({ json: unchecked(body) });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await message(res), JSON.stringify(body)).toContain(expected);
    }
    const notJson = await call("POST", "/api/saved-searches", w, "{not json", { "cf-connecting-ip": IP });
    expect(notJson.status).toBe(400);
    expect(await rowCount("saved_searches")).toBe(before);
  });
});

describe("deleting", () => {
  it("deletes one's own, and its query with the keys once no wallet keeps it; another wallet's id is 404 and stays", async () => {
    const owner = await ethWallet();
    const stranger = await ethWallet();
    const saved = (await (await saveFrom(IP, owner, "Mine", { patternValue: "c0de" })).json()) as SavedSearchView;
    // The same search saved by another wallet: one query, two subscribers with their own names.
    const same = (await (await saveFrom(IP, stranger, "Theirs", { patternValue: " c0de", network: "all" })).json()) as SavedSearchView;
    const queryOf = (id: number) => env.DB.prepare("SELECT query_id AS q FROM saved_searches WHERE id = ?").bind(id).first<{ q: number }>();
    const queryId = (await queryOf(saved.id))!.q;
    expect((await queryOf(same.id))!.q).toBe(queryId);
    expect(await rowCount("saved_queries", "query = ?", "patternValue=c0de")).toBe(1);
    const refused = await client(stranger, { "cf-connecting-ip": IP })["saved-searches"][":id"].$delete({ param: { id: String(saved.id) } });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ error: "Not Found", message: "Saved search not found" });
    expect((await list(owner)).map((s) => s.id)).toContain(saved.id);
    expect((await client(owner, { "cf-connecting-ip": IP })["saved-searches"][":id"].$delete({ param: { id: String(saved.id) } })).status).toBe(200);
    expect(await list(owner)).toEqual([]);
    // The other wallet still keeps it.
    expect(await rowCount("saved_query_keys", "query_id = ?", queryId)).toBeGreaterThan(0);
    expect((await client(stranger, { "cf-connecting-ip": IP })["saved-searches"][":id"].$delete({ param: { id: String(same.id) } })).status).toBe(200);
    expect(await rowCount("saved_query_keys", "query_id = ?", queryId)).toBe(0);
    expect(await rowCount("saved_queries", "id = ?", queryId)).toBe(0);
    expect((await client(owner, { "cf-connecting-ip": IP })["saved-searches"][":id"].$delete({ param: { id: String(saved.id) } })).status).toBe(404);
    for (const id of ["abc", "0"])
      expect((await client(owner, { "cf-connecting-ip": IP })["saved-searches"][":id"].$delete({ param: { id } })).status).toBe(400);
  });
});

describe("bounds: a wallet is free, so one client network cannot fill the table", () => {
  it(`a wallet keeps at most ${SAVED_SEARCH_LIMITS.perWallet}`, async () => {
    const wallet = await ethWallet();
    for (let i = 0; i < SAVED_SEARCH_LIMITS.perWallet; i++)
      expect((await saveFrom("198.51.100.30", wallet, `s${i}`, { minCharLength: String(i + 1) })).status).toBe(201);
    const refused = await saveFrom("198.51.100.30", wallet, "one more", { minCharLength: "99" });
    expect(refused.status).toBe(409);
    expect(await message(refused)).toContain(`You have ${SAVED_SEARCH_LIMITS.perWallet} saved searches`);
    expect(await rowCount("saved_searches", "user_id = ?", wallet.userId)).toBe(SAVED_SEARCH_LIMITS.perWallet);
  });

  it(`the wallets of one client network keep at most ${SAVED_SEARCH_LIMITS.perClient} together; another network is not held back`, async () => {
    const ip = "198.51.100.31";
    const key = await keyOf(ip);
    const owners = await makeUsers(SAVED_SEARCH_LIMITS.perClient / 10, "ssnet");
    await env.DB.batch([
      ...Array.from({ length: 10 }, (_, i) =>
        env.DB.prepare("INSERT INTO saved_queries (query, criteria) VALUES (?, '{}') ON CONFLICT DO NOTHING").bind(`minCharLength=${i + 1}`),
      ),
      ...owners.flatMap((u) =>
        Array.from({ length: 10 }, (_, i) =>
          env.DB.prepare(
            "INSERT INTO saved_searches (user_id, name, query, query_id, client_key) SELECT ?, 'x', query, id, ? FROM saved_queries WHERE query = ?",
          ).bind(u, key, `minCharLength=${i + 1}`),
        ),
      ),
    ]);
    const fresh = await ethWallet();
    const refused = await saveFrom(ip, fresh, "mine", { patternValue: "abc" });
    expect(refused.status).toBe(409);
    expect(await message(refused)).toContain("on your network");
    expect(await rowCount("saved_searches", "user_id = ?", fresh.userId)).toBe(0);
    // The query saved for it alone went again with the refusal.
    expect(await rowCount("saved_queries", "query = ?", "patternValue=abc")).toBe(0);
    expect((await saveFrom("198.51.100.32", fresh, "mine", { patternValue: "abc" })).status).toBe(201);
  });
});
