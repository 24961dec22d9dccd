// POST /api/addresses: who may create, what the server decides for itself, the spec's price rules, the
// ownership proof before anything is stored, duplicates, and one atomic batch for listing + key.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ListingView } from "../../schema/browse";
import { OWNERSHIP_MESSAGES, PRICE_MESSAGES } from "../../schema/listings";
import { NO_PATTERN_MESSAGE } from "../../schema/price-advice";
import { createApp } from "../app";
import { createDb } from "../db/database";
import { analyzeAddress } from "../domain/rarity";
import { storeListings } from "../listings/store";
import { draftFromPayload } from "../listings/create";
import { openKey, sealingKey } from "../vault";
import { type Caller, counts, ethKey, signInAll, solKey } from "./listing-fixtures";
import { call } from "./purchase-fixtures";
import { client, clientOf, refusal, unchecked } from "./client";

let admin: Caller;
let user: Caller;
beforeAll(async () => {
  ({ admin, user } = await signInAll());
});

type Created = { success: true; id: number; listing: ListingView };

/** `null` calls signed out. */
const create = (body: unknown, caller: Caller | null = admin, headers: Record<string, string> = {}) =>
  client(caller ?? undefined, headers).addresses.$post({ json: unchecked(body) });

function payload(key = ethKey(), extra: Record<string, unknown> = {}) {
  return {
    address: key.address,
    network: key.network,
    price: "0.5",
    currency: key.network === "ethereum" ? "ETH" : "SOL",
    privateKey: key.privateKey,
    // Fresh random keys show no notable pattern; these tests are about everything else, so they confirm it.
    confirmNoPattern: true,
    ...extra,
  };
}

async function storedKey(listingId: number) {
  const row = await env.DB.prepare(
    "SELECT a.address, k.encrypted_private_key AS encryptedPrivateKey, k.salt, k.iv, k.wrapped_key AS wrappedKey, k.mac, k.key_version AS keyVersion FROM encrypted_keys k JOIN addresses a ON a.id = k.address_id WHERE k.address_id = ?",
  )
    .bind(listingId)
    .first<{ address: string; encryptedPrivateKey: string; salt: string; iv: string; wrappedKey: string; mac: string; keyVersion: number }>();
  if (!row) return null;
  const { address, ...record } = row;
  return openKey({ secret: sealingKey(env).secret, listingId, address, record });
}

describe("who may create", () => {
  it("signed out: 401; a non-admin wallet: 403; nothing stored", async () => {
    const before = await counts();
    expect((await create(payload(), null)).status).toBe(401);
    const res = await create(payload(), user);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Forbidden", message: "Admin access required" });
    expect(await counts()).toBe(before);
  });

  it("without KEY_ENCRYPTION_SECRET: 503 naming it, nothing stored", async () => {
    const before = await counts();
    const res = await clientOf((input, init) => createApp().request(input, init, { ...env, KEY_ENCRYPTION_SECRET: "" }), {
      headers: { cookie: admin.cookie },
    }).addresses.$post({ json: unchecked(payload()) });
    expect(res.status).toBe(503);
    expect((await refusal(res)).message).toMatch(/KEY_ENCRYPTION_SECRET/);
    expect(await counts()).toBe(before);
  });

  it("an x-wallet-address header naming another wallet than the session's: 403", async () => {
    const before = await counts();
    const res = await create(payload(), admin, { "x-wallet-address": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" });
    expect(res.status).toBe(403);
    expect(await counts()).toBe(before);
  });
});

describe("creating", () => {
  it("stores the listing with server-side rarity and seller, the sealed key, and a 'listed' price row", async () => {
    const key = ethKey();
    const res = await create(
      payload(key, {
        address: key.address.toLowerCase(),
        privateKey: key.privateKey.slice(2).toUpperCase(),
        price: "0.50000",
        sellerId: 999,
        rarityScore: 9.9,
        category: "palindrome",
        pattern: "fake",
      }),
      admin,
      { "x-wallet-address": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" },
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as Created;
    const analysis = analyzeAddress(key.address, "ethereum");
    expect(body.success).toBe(true);
    expect(body.listing).toMatchObject({
      id: body.id,
      address: key.address, // the checksummed form, whatever the case sent
      network: "ethereum",
      price: "0.5",
      currency: "ETH",
      rarityScore: analysis.rarityScore.toFixed(1),
      category: analysis.category,
      pattern: analysis.pattern,
      status: "active",
      isListed: true,
      promotionType: "standard",
      isFeatured: false,
      isOwner: true,
    });
    expect(JSON.stringify(body)).not.toContain(key.privateKey.slice(2, 20));
    const row = await env.DB.prepare("SELECT seller_id, price_units, difficulty_log2 FROM addresses WHERE id = ?")
      .bind(body.id)
      .first<Record<string, number>>();
    expect(row).toEqual({ seller_id: admin.userId, price_units: 50_000_000, difficulty_log2: analysis.difficulty.log2 });
    // The key opens to the canonical form (0x + lower-case hex), bound to this listing id and address.
    expect(await storedKey(body.id)).toBe(key.privateKey);
    const history = await env.DB.prepare("SELECT price, currency, change_type FROM price_history WHERE address_id = ?").bind(body.id).all();
    expect(history.results).toEqual([{ price: "0.5", currency: "ETH", change_type: "listed" }]);
    // And the public read agrees.
    expect(await (await client().addresses[":id"].$get({ param: { id: String(body.id) } })).json()).toMatchObject({
      id: body.id,
      price: "0.5",
      isOwner: false,
    });
  });

  it("a Solana listing from a JSON byte-array key stores the base58 64-byte secret key", async () => {
    const key = solKey();
    const res = await create(payload(key, { privateKey: JSON.stringify(Array.from(key.seed)), price: 12 }));
    expect(res.status).toBe(201);
    const body = (await res.json()) as Created;
    expect(body.listing).toMatchObject({ network: "solana", currency: "SOL", price: "12" });
    expect(await storedKey(body.id)).toBe(key.privateKey);
  });

  it("featured and promoted listings get their flags and a listing_promotions row", async () => {
    const until = Date.now() + 7 * 24 * 3600 * 1000;
    const featured = (await (
      await create(payload(ethKey(), { promotionType: "featured", isFeatured: true, featuredUntil: new Date(until).toISOString() }))
    ).json()) as Created;
    expect(featured.listing).toMatchObject({ promotionType: "featured", isFeatured: true });
    const promoted = (await (await create(payload(ethKey(), { promotionType: "promoted" }))).json()) as Created;
    expect(promoted.listing).toMatchObject({ promotionType: "promoted", isFeatured: true });
    const rows = await env.DB.prepare(
      "SELECT address_id, promotion_type, is_active, end_time, purchased_by FROM listing_promotions WHERE address_id IN (?, ?) ORDER BY address_id",
    )
      .bind(featured.id, promoted.id)
      .all();
    expect(rows.results).toEqual([
      { address_id: featured.id, promotion_type: "featured", is_active: 1, end_time: until, purchased_by: admin.userId },
      { address_id: promoted.id, promotion_type: "promoted", is_active: 1, end_time: null, purchased_by: admin.userId },
    ]);
    const flags = await env.DB.prepare("SELECT is_promoted, promotion_weight, featured_until FROM addresses WHERE id = ?").bind(promoted.id).first();
    expect(flags).toEqual({ is_promoted: 1, promotion_weight: 2, featured_until: null });
  });

  it("an inactive, unlisted listing when asked", async () => {
    const body = (await (await create(payload(ethKey(), { status: "inactive", isListed: false }))).json()) as Created;
    expect(body.listing).toMatchObject({ status: "inactive", isListed: false });
  });

  it("a duplicate address: 409, nothing added (also when sent in another case)", async () => {
    const key = ethKey();
    expect((await create(payload(key))).status).toBe(201);
    const before = await counts();
    for (const address of [key.address, key.address.toLowerCase()]) {
      const res = await create(payload(key, { address }));
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ error: "Conflict", message: `${key.address} is already listed` });
    }
    expect(await counts()).toBe(before);
  });

  it("an address stored without normalizing (all lower case) still counts as listed", async () => {
    const key = ethKey();
    await env.DB.prepare("INSERT INTO addresses (address, network, price, price_units, currency) VALUES (?, 'ethereum', '1', 100000000, 'ETH')")
      .bind(key.address.toLowerCase())
      .run();
    expect((await create(payload(key))).status).toBe(409);
  });
});

describe("an address with no notable pattern", () => {
  it("is refused without confirmNoPattern, saying why, and listed with it", async () => {
    let key = ethKey();
    while (analyzeAddress(key.address, "ethereum").rarityScore > 0) key = ethKey();
    const before = await counts();
    const res = await create(payload(key, { confirmNoPattern: undefined }));
    expect(res.status).toBe(400);
    expect(await refusal(res)).toMatchObject({ message: NO_PATTERN_MESSAGE, reason: "no-pattern" });
    expect(await counts()).toBe(before);
    const notTrue = await create(payload(key, { confirmNoPattern: "yes" }));
    expect(notTrue.status).toBe(400);
    expect((await refusal(notTrue)).message).toMatch(/confirmNoPattern must be true or false/);
    expect((await create(payload(key, { confirmNoPattern: true }))).status).toBe(201);
  });
});

describe("refusals store nothing", () => {
  const key = ethKey();
  const other = ethKey();
  const cases: [string, Record<string, unknown>, string | RegExp][] = [
    ["price missing", { price: undefined }, PRICE_MESSAGES.required],
    ["price empty", { price: "" }, PRICE_MESSAGES.required],
    ["price null", { price: null }, PRICE_MESSAGES.required],
    ["price zero", { price: "0" }, PRICE_MESSAGES.positive],
    ["price 0 as number", { price: 0 }, PRICE_MESSAGES.positive],
    ["price negative", { price: "-1" }, PRICE_MESSAGES.negative],
    ["price negative number", { price: -0.5 }, PRICE_MESSAGES.negative],
    ["price text", { price: "abc" }, PRICE_MESSAGES.positive],
    ["price boolean", { price: true }, PRICE_MESSAGES.positive],
    ["price 9 decimals", { price: "0.000000001" }, PRICE_MESSAGES.decimals],
    ["price too large", { price: "100000000" }, PRICE_MESSAGES.tooLarge],
    ["price huge string", { price: "9".repeat(10_000) }, PRICE_MESSAGES.positive],
    ["key missing", { privateKey: undefined }, OWNERSHIP_MESSAGES.keyRequired],
    ["key blank", { privateKey: "  " }, OWNERSHIP_MESSAGES.keyRequired],
    ["key number", { privateKey: 42 }, "privateKey must be a string"],
    ["key huge", { privateKey: "a".repeat(5000) }, "privateKey must be at most 1024 characters"],
    ["key of another address", { privateKey: other.privateKey }, OWNERSHIP_MESSAGES.mismatch],
    ["key unreadable", { privateKey: "not a key" }, /^Unrecognised private key format for ethereum/],
    ["address missing", { address: undefined }, "address: address is required"],
    ["address blank", { address: "   " }, "address: address is required"],
    ["address invalid", { address: "0x1234" }, /40 hexadecimal characters/],
    [
      "address with a bad checksum",
      { address: key.address.slice(0, 2) + [...key.address.slice(2)].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join("") },
      /checksum|40 hexadecimal/,
    ],
    ["address huge", { address: "0x" + "a".repeat(1000) }, /at most 256/],
    ["address with control characters", { address: `${key.address}\u0007` }, /control characters/],
    ["address of another network", { network: "solana", currency: "SOL" }, /base58/],
    ["network missing", { network: undefined }, "network: network is required"],
    ["network unknown", { network: "bitcoin" }, /network must be ethereum or solana/],
    ["currency of the other network", { currency: "SOL" }, "Currency must be ETH for ethereum listings"],
    ["currency unknown", { currency: "BTC" }, /currency must be ETH or SOL/],
    ["promotionType unknown", { promotionType: "gold" }, /promotionType must be standard, featured or promoted/],
    ["standard but isFeatured", { promotionType: "standard", isFeatured: true }, "isFeatured can only be true for a featured or promoted listing"],
    ["featured but not isFeatured", { promotionType: "featured", isFeatured: false }, "A featured listing has isFeatured true"],
    ["isFeatured not a boolean", { isFeatured: "yes" }, /isFeatured must be true or false/],
    ["featuredUntil in the past", { promotionType: "featured", featuredUntil: "2001-01-01T00:00:00Z" }, "featuredUntil must be in the future"],
    ["featuredUntil not a date", { promotionType: "featured", featuredUntil: "soon" }, /featuredUntil must be a date/],
    ["featuredUntil on a standard listing", { featuredUntil: Date.now() + 24 * 3600 * 1000 }, "featuredUntil needs a featured or promoted listing"],
    ["status sold", { status: "sold" }, /status must be active or inactive/],
  ];
  it.each(cases)("%s: 400 with a clear message", async (_name, extra, message) => {
    const before = await counts();
    const res = await create(payload(key, extra));
    expect(res.status).toBe(400);
    const body = await refusal(res);
    expect(body.error).toBe("Validation Error");
    if (typeof message === "string") expect(body.message).toBe(message);
    else expect(body.message).toMatch(message);
    expect(JSON.stringify(body)).not.toContain(key.privateKey.slice(4, 24));
    expect(await counts()).toBe(before);
  });

  it.each([
    ["not JSON", "address=x", "application/json", 400],
    ["declared as text", JSON.stringify({}), "text/plain", 415],
    ["a JSON array", "[]", "application/json", 400],
    ["a JSON string", '"x"', "application/json", 400],
  ])("a body that is %s: %i", async (_name, body, type, status) => {
    const before = await counts();
    const res = await call("POST", "/api/addresses", admin, body, { "content-type": type });
    expect(res.status).toBe(status);
    expect(await counts()).toBe(before);
  });
});

describe("the batch", () => {
  const draft = (key = ethKey()) => {
    const body = {
      address: key.address,
      network: "ethereum" as const,
      price: "1",
      privateKey: key.privateKey,
      promotionType: "standard" as const,
      isListed: true,
      status: "active" as const,
      confirmNoPattern: true,
    };
    return draftFromPayload(body, admin.userId, Date.now());
  };

  it("is atomic: when the key insert fails, the listing is not stored either", async () => {
    const before = await counts();
    await env.DB.prepare("CREATE TRIGGER fail_keys BEFORE INSERT ON encrypted_keys BEGIN SELECT RAISE(ABORT, 'simulated failure'); END").run();
    try {
      await expect(storeListings(createDb(env.DB), env, [draft()])).rejects.toThrow(/simulated failure/);
    } finally {
      await env.DB.prepare("DROP TRIGGER fail_keys").run();
    }
    expect(await counts()).toBe(before);
  });

  it("two writers choosing ids at once both succeed, each key bound to its own listing", async () => {
    const keys = [ethKey(), ethKey(), ethKey(), ethKey()];
    const db = createDb(env.DB);
    const results = await Promise.all([storeListings(db, env, [draft(keys[0]), draft(keys[1])]), storeListings(db, env, [draft(keys[2]), draft(keys[3])])]);
    const ids = results.flat();
    expect(new Set(ids).size).toBe(4);
    for (let i = 0; i < 4; i++) expect(await storedKey(ids[i])).toBe(keys[i].privateKey);
  });
});
