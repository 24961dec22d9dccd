// POST /api/admin/addresses/bulk and the import behind it (also the seed's path): one result per row, bad
// rows never stop good ones, the spec's tables, no duplicates on re-upload, hostile cells refused; and sealed
// intake (POST /api/admin/addresses/sealed): HPKE-sealed rows through the same import, each refusal with its reason.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { formatBulkCsv, parseBulkCsv } from "../../schema/bulk-csv";
import type { ListingContext } from "../../schema/listing-context";
import { BULK_MAX_ROWS, BULK_MESSAGES, type BulkAppraisalResponse, type BulkRow, type BulkUploadResponse } from "../../schema/listings";
import { NO_PATTERN_MESSAGE } from "../../schema/price-advice";
import { createDb } from "../db/database";
import { claimedSplit, withClaimedPattern } from "../listings/claimed-pattern";
import { importListings } from "../listings/import";
import { analyzeAddress, estimateValue } from "../domain/rarity";
import { openKey, sealingKey } from "../vault";
import { currentIntakeKey } from "../vault/intake";
import { importSealedRows } from "../listings/sealed-import";
import {
  fromBase64Url,
  INTAKE_SUITE,
  type IntakeKeyResponse,
  intakeKeyId,
  SEALED_MAX_CIPHERTEXT,
  SEALED_MAX_ROWS,
  type SealedRow,
  sealIntakeRow,
  toBase64Url,
} from "../../schema/sealed-intake";
import { bulkRow, type Caller, counts, ethKey, signInAll, solKey } from "./listing-fixtures";
import { client, refusal, unchecked } from "./client";

let admin: Caller;
let user: Caller;
beforeAll(async () => {
  ({ admin, user } = await signInAll());
});

const upload = (rows: unknown, caller?: Caller) => client(caller).admin.addresses.bulk.$post({ json: unchecked({ rows }) });

async function uploaded(rows: unknown[]): Promise<BulkUploadResponse> {
  const res = await upload(rows, admin);
  expect(res.status).toBe(200);
  return res.json();
}

async function openStored(id: number) {
  const row = await env.DB.prepare(
    "SELECT a.address, k.encrypted_private_key AS encryptedPrivateKey, k.salt, k.iv, k.wrapped_key AS wrappedKey, k.mac, k.key_version AS keyVersion FROM encrypted_keys k JOIN addresses a ON a.id = k.address_id WHERE a.id = ?",
  )
    .bind(id)
    .first<Record<string, string | number>>();
  const { address, ...record } = row!;
  return openKey({ secret: sealingKey(env).secret, listingId: id, address: String(address), record: record as never });
}

describe("who may upload", () => {
  it("signed out 401, non-admin 403, nothing stored", async () => {
    const before = await counts();
    expect((await upload([bulkRow(ethKey())])).status).toBe(401);
    expect((await upload([bulkRow(ethKey())], user)).status).toBe(403);
    expect(await counts()).toBe(before);
  });
});

describe("mixed rows", () => {
  const good = [ethKey(), ethKey(), solKey(), ethKey()];
  const stranger = ethKey();
  let rows: unknown[];
  let first: BulkUploadResponse;

  beforeAll(async () => {
    rows = [
      bulkRow(good[0], 4), // 0 ok: <=4 -> 0.00001
      bulkRow(good[1], 7), // 1 ok: 7 -> 0.002
      bulkRow(good[2], 6), // 2 ok: solana, 6 -> 0.0002 SOL
      bulkRow(ethKey(), 8), // 3 skipped: 8+
      { ...bulkRow(stranger), private_key: ethKey().privateKey }, // 4 key mismatch
      { ...bulkRow(ethKey()), address: "0x1234" }, // 5 invalid address
      { ...bulkRow(ethKey()), private_key: "" }, // 6 missing field
      { address: ethKey().address }, // 7 missing fields
      bulkRow(good[0], 4), // 8 duplicate of row 0 in this upload
      { ...bulkRow(ethKey()), pattern_type: "=cmd|' /C calc'!A0" }, // 9 formula in pattern_type
      { ...bulkRow(ethKey()), pattern_matched: "=cmd|' /C calc'!A0" }, // 10 formula in pattern_matched
      { ...bulkRow(ethKey()), platform: "bitcoin" }, // 11 unknown platform
      "not a row", // 12
      { ...bulkRow(ethKey()), address: 42 }, // 13 wrong type
      { ...bulkRow(ethKey()), private_key: "x".repeat(5000) }, // 14 oversized cell
      bulkRow(good[3], 5), // 15 ok: 5 -> 0.00002
      { ...bulkRow(ethKey()), private_key: "not a key" }, // 16 unreadable key
      { ...bulkRow(ethKey()), pattern_matched: "abc\u0000" }, // 17 control character
    ];
    first = await uploaded(rows);
  });

  it("one result per row, in order", () => {
    expect(first.results.map((r) => r.index)).toEqual(rows.map((_, i) => i));
    expect(first.summary).toEqual({ total: rows.length, succeeded: 4, failed: rows.length - 4 });
  });

  it("good rows are stored with the spec's price and rarity tables, SOL for solana", () => {
    const ok = first.results.filter((r) => r.status === "success");
    expect(ok.map((r) => [r.index, r.price, r.currency, r.rarityScore])).toEqual([
      [0, "0.00001", "ETH", "1.0"],
      [1, "0.002", "ETH", "2.5"],
      [2, "0.0002", "SOL", "2.0"],
      [15, "0.00002", "ETH", "1.5"],
    ]);
  });

  it("each bad row says why", () => {
    const reasons = Object.fromEntries(
      first.results.filter((r) => r.status === "error").map((r) => [r.index, r.status === "error" ? [r.reason, r.message] : null]),
    );
    expect(reasons[3]).toEqual(["skipped", BULK_MESSAGES.skipped8]);
    expect(reasons[4]).toEqual(["key-mismatch", "Private key does not match the address"]);
    expect(reasons[5]?.[0]).toBe("invalid-address");
    expect(reasons[6]).toEqual(["missing-fields", BULK_MESSAGES.missingFields]);
    expect(reasons[7]).toEqual(["missing-fields", BULK_MESSAGES.missingFields]);
    expect(reasons[8]).toEqual(["duplicate", "Duplicate of row 1 in this upload"]);
    expect(reasons[9]?.[0]).toBe("invalid-pattern");
    expect(reasons[10]?.[0]).toBe("invalid-pattern");
    expect(reasons[11]).toEqual(["invalid-platform", "platform must be ethereum or solana"]);
    expect(reasons[12]).toEqual(["missing-fields", BULK_MESSAGES.missingFields]);
    expect(reasons[13]).toEqual(["invalid-field", "address must be text"]);
    expect(reasons[14]?.[0]).toBe("invalid-field");
    expect(reasons[16]?.[0]).toBe("invalid-key");
    expect(reasons[17]).toEqual(["invalid-field", "pattern_matched must not contain control characters"]);
  });

  it("nothing of a refused row is stored; formula cells never reach the database", async () => {
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM addresses WHERE pattern LIKE '%cmd%' OR category LIKE '%cmd%' OR address = ?")
      .bind(stranger.address)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });

  it("stored keys open to the canonical key, bound to their listing", async () => {
    for (const [i, key] of [
      [0, good[0]],
      [2, good[2]],
    ] as const) {
      const r = first.results[i];
      if (r.status !== "success") throw new Error("expected success");
      expect(await openStored(r.id)).toBe(key.privateKey);
    }
  });

  it("the engine still fills category and pattern fields; the seller is the admin", async () => {
    const r = first.results[1];
    if (r.status !== "success") throw new Error("expected success");
    const row = await env.DB.prepare("SELECT seller_id, category, pattern_length, rarity_score, status, is_listed FROM addresses WHERE id = ?")
      .bind(r.id)
      .first();
    expect(row).toMatchObject({ seller_id: admin.userId, rarity_score: 2.5, status: "active", is_listed: 1 });
    const history = await env.DB.prepare("SELECT change_type, price FROM price_history WHERE address_id = ?").bind(r.id).all();
    expect(history.results).toEqual([{ change_type: "listed", price: "0.002" }]);
  });

  it("the stored pattern, its length and position come from the row's checked claim when the engine sees less", async () => {
    const stored = async (i: number) => {
      const r = first.results[i];
      if (r.status !== "success") throw new Error("expected success");
      return env.DB.prepare("SELECT address, category, pattern, pattern_length FROM addresses WHERE id = ?")
        .bind(r.id)
        .first<{ address: string; category: string; pattern: string; pattern_length: number }>();
    };
    // Row 1: a random Ethereum address sold for its first 7 characters; row 2: a Solana one for 6.
    const eth = (await stored(1))!;
    expect(eth).toMatchObject({ pattern: eth.address.slice(2, 9), pattern_length: 7 });
    expect(eth.category).not.toBe("");
    const sol = (await stored(2))!;
    expect(sol).toMatchObject({ pattern: sol.address.slice(0, 6), pattern_length: 6 });
  });

  it("suffix and prefix+suffix claims are stored as such; a notable pattern the engine finds longer is kept", async () => {
    const suffixKey = ethKey();
    // A claim of 3 + 2 characters reads as 4 + 1 when the address's 4th character is also its second-last
    // (1 key in 58): the split is then ambiguous, and the rule for it is tested on its own below.
    let bothKey = solKey();
    while (claimedSplit(bothKey.address, "solana", bothKey.address.slice(0, 3) + bothKey.address.slice(-2)) !== 3) bothKey = solKey();
    const body = suffixKey.address.slice(2);
    const res = await uploaded([
      { ...bulkRow(suffixKey), pattern_type: "suffix", pattern_matched: body.slice(-5) },
      { ...bulkRow(bothKey), pattern_type: "prefix+suffix", pattern_matched: bothKey.address.slice(0, 3) + bothKey.address.slice(-2) },
    ]);
    const rows = [];
    for (const r of res.results) {
      if (r.status !== "success") throw new Error(`expected success: ${JSON.stringify(r)}`);
      rows.push(
        await env.DB.prepare("SELECT address, pattern, pattern_length FROM addresses WHERE id = ?")
          .bind(r.id)
          .first<{ address: string; pattern: string; pattern_length: number }>(),
      );
    }
    expect(rows[0]).toMatchObject({ pattern: suffixKey.address.slice(-5), pattern_length: 5 });
    expect(rows[1]).toMatchObject({ pattern: `${bothKey.address.slice(0, 3)}...${bothKey.address.slice(-2)}`, pattern_length: 5 });

    // Ten leading zeros claimed as a 4-character prefix: the engine's longer, categorised pattern stands.
    const zeros = "0x0000000000" + "7a3f9b1c2d".repeat(3);
    const engine = analyzeAddress(zeros, "ethereum");
    expect(engine).toMatchObject({ category: "leading-zeros", patternLength: 10 });
    expect(withClaimedPattern(engine, zeros, "ethereum", 4, 4)).toBe(engine);
  });

  it("an ambiguous prefix+suffix claim reads with the longest prefix; a suffix claim with the longest suffix", () => {
    // "5QGTz" fits this address as 4 + 1 ("5QGT" … "z") and as 3 + 2 ("5QG" … "Tz"): the longest prefix that fits wins.
    const address = "5QGTk8wXy9ZnPqRsT1uVwXyZaBcDeFgHiJkLmNoTz";
    expect(claimedSplit(address, "solana", "5QGTz")).toBe(4);
    expect(claimedSplit(address, "solana", "5QGTz", true)).toBe(3);
    expect(claimedSplit(address, "solana", "oTz", true)).toBe(0);
    expect(claimedSplit(address, "solana", "5QGX")).toBeNull();
    expect(withClaimedPattern(analyzeAddress(address, "solana"), address, "solana", 5, 4)).toMatchObject({
      pattern: "5QGT...z",
      patternPosition: "prefix+suffix",
      patternLength: 5,
    });
  });

  it("uploading the same rows again creates nothing: the stored ones report duplicate", async () => {
    const before = await counts();
    const again = await uploaded(rows);
    expect(again.summary.succeeded).toBe(0);
    for (const i of [0, 1, 2, 15])
      expect(again.results[i]).toMatchObject({ status: "error", reason: "duplicate", message: expect.stringMatching(/^Already listed \(listing #\d+\)$/) });
    expect(await counts()).toBe(before);
  });
});

describe("prices an operator can trust", () => {
  const appraise = async (rows: unknown[]): Promise<BulkAppraisalResponse> => {
    const res = await client(admin).admin.addresses.bulk.appraise.$post({ json: unchecked({ rows }) });
    expect(res.status).toBe(200);
    return res.json();
  };
  /** A fresh key whose address the engine sees nothing in harder than 2^bits, so only the claim counts. */
  const plainKey = (bits: number) => {
    let key = ethKey();
    while (analyzeAddress(key.address, "ethereum").difficulty.log2 >= bits) key = ethKey();
    return key;
  };
  const contextOf = async (id: number) => (await (await client().addresses[":id"].context.$get({ param: { id: String(id) } })).json()) as ListingContext;

  it("the preview appraises rows without their keys: each pricing's price, the estimate the page will show, the pattern verdict", async () => {
    const three = plainKey(12);
    const two = plainKey(8);
    const { results } = await appraise([
      { ...bulkRow(three, 3), private_key: undefined },
      { ...bulkRow(two, 2), private_key: undefined },
      { ...bulkRow(ethKey(), 3), address: "0x1234", private_key: undefined },
    ]);
    // Three ground hex characters ("abc" from /grind) are 2^12 keys: a pattern, though no word or shape.
    expect(results[0]).toMatchObject({
      status: "ok",
      currency: "ETH",
      tablePrice: "0.00001",
      notable: true,
      pattern: three.address.slice(2, 5),
      estimatedValue: estimateValue(12, "ethereum"),
    });
    // Two are 1 in 256 addresses (2^8): no notable pattern; the estimate still counts them.
    expect(results[1]).toMatchObject({ status: "ok", notable: false, estimatedValue: estimateValue(8, "ethereum") });
    expect(results[2]).toMatchObject({ status: "error", reason: "invalid-address" });
    // The table's price gives most of the estimate away, which is what the preview warns about.
    expect(Number(estimateValue(12, "ethereum"))).toBeGreaterThan(5 * 0.00001);
  });

  it("pricing 'estimate' lists at the estimated value the listing's page shows; 'table' at the spec's price", async () => {
    const [atEstimate, atTable] = [ethKey(), solKey()];
    const estimated = await client(admin).admin.addresses.bulk.$post({ json: unchecked({ rows: [bulkRow(atEstimate, 5)], pricing: "estimate" }) });
    const tabled = await uploaded([bulkRow(atTable, 4)]);
    const [e] = ((await estimated.json()) as BulkUploadResponse).results;
    const [t] = tabled.results;
    if (e.status !== "success" || t.status !== "success") throw new Error(`expected success: ${JSON.stringify([e, t])}`);
    const page = await contextOf(e.id);
    expect(e.price).toBe(page.estimatedValue.amount);
    expect(e.price).toBe(estimateValue(20, "ethereum"));
    expect(t).toMatchObject({ price: "0.00001", currency: "SOL" });
    // The table listing's page counts the claimed work too: 4 base58 characters at the start of a Solana address.
    expect(Number((await contextOf(t.id)).estimatedValue.amount)).toBeGreaterThan(Number(estimateValue(0, "solana")));
  });

  it("a row with no notable pattern is refused without confirmNoPattern, listed with it", async () => {
    const plain = plainKey(8);
    const before = await counts();
    const refused = await uploaded([bulkRow(plain, 2)]);
    expect(refused.results[0]).toMatchObject({ status: "error", reason: "no-pattern", message: NO_PATTERN_MESSAGE });
    expect(await counts()).toBe(before);
    const confirmed = await client(admin).admin.addresses.bulk.$post({ json: unchecked({ rows: [bulkRow(plain, 2)], confirmNoPattern: true }) });
    expect(((await confirmed.json()) as BulkUploadResponse).results[0]).toMatchObject({ status: "success" });
  });

  it("a pricing other than table or estimate: 400, nothing stored", async () => {
    const before = await counts();
    const res = await client(admin).admin.addresses.bulk.$post({ json: unchecked({ rows: [bulkRow(ethKey())], pricing: "free" }) });
    expect(res.status).toBe(400);
    expect((await refusal(res)).message).toMatch(/pricing must be table or estimate/);
    expect(await counts()).toBe(before);
  });
});

describe("request shape", () => {
  it.each([
    ["no rows", { rows: [] }, /at least one row/],
    ["too many rows", { rows: Array.from({ length: BULK_MAX_ROWS + 1 }, () => ({})) }, /at most 500 rows/],
    ["rows not an array", { rows: "address,private_key" }, /rows must be an array/],
    ["no rows field", {}, /rows/],
  ])("%s: 400, nothing stored", async (_name, body, message) => {
    const before = await counts();
    const res = await client(admin).admin.addresses.bulk.$post({ json: unchecked(body) });
    expect(res.status).toBe(400);
    expect((await refusal(res)).message).toMatch(message);
    expect(await counts()).toBe(before);
  });

  it("a body over 4 MB: 413", async () => {
    const res = await client(admin).admin.addresses.bulk.$post({ json: { rows: [{ address: "x".repeat(5 * 1024 * 1024) }] } });
    expect(res.status).toBe(413);
  });
});

describe("CSV files through the import (the seed's path)", () => {
  it("a fixture CSV of real keys imports once; a second run only reports duplicates", async () => {
    const keys = [ethKey(), solKey(), ethKey()];
    const csv = formatBulkCsv(keys.map((k, i) => bulkRow(k, 4 + i)));
    const parsed = parseBulkCsv(`\uFEFF${csv.replace(/\n/g, "\r\n")}`);
    if (!parsed.ok) throw new Error(parsed.message);
    const db = createDb(env.DB);
    const createdAt = Date.now() - 10 * 24 * 3600 * 1000;
    const decorate = ({ index }: { index: number }) => (index === 1 ? { price: "2.5", promotionType: "featured" as const, createdAt } : { createdAt });
    const results = await importListings(db, env, admin.userId, parsed.rows, { rarity: "engine", decorate });
    expect(results.map((r) => r.status)).toEqual(["success", "success", "success"]);
    const sol = results[1];
    if (sol.status !== "success") throw new Error("expected success");
    const row = await env.DB.prepare("SELECT price, currency, promotion_type, is_featured, created_at FROM addresses WHERE id = ?").bind(sol.id).first();
    expect(row).toEqual({ price: "2.5", currency: "SOL", promotion_type: "featured", is_featured: 1, created_at: createdAt });
    const again = await importListings(db, env, admin.userId, parsed.rows, { rarity: "engine", decorate });
    expect(again.map((r) => (r.status === "error" ? r.reason : r.status))).toEqual(["duplicate", "duplicate", "duplicate"]);
  });

  it("quoted cells, quoted newlines and a wrong delimiter", () => {
    const k = ethKey();
    const quoted = parseBulkCsv(`address,private_key,platform,pattern_type,pattern_matched\n"${k.address}","${k.privateKey}",ethereum,"pre\nfix",abcd\n`);
    expect(quoted).toMatchObject({ ok: true, rows: [{ address: k.address, pattern_type: "pre\nfix" }] });
    expect(parseBulkCsv("address;private_key;platform;pattern_type;pattern_matched\n1;2;3;4;5")).toEqual({
      ok: false,
      message: "Missing required headers: address, private_key, platform, pattern_type, pattern_matched",
    });
    expect(parseBulkCsv("address,platform\n1,2")).toEqual({ ok: false, message: "Missing required headers: private_key, pattern_type, pattern_matched" });
  });

  it("a quoted newline inside a cell is refused by the server, not stored", async () => {
    const k = ethKey();
    const rows: BulkRow[] = [{ ...bulkRow(k), pattern_type: "pre\nfix" }];
    const { results } = await uploaded(rows);
    expect(results[0]).toMatchObject({ status: "error", reason: "invalid-field" });
  });
});

describe("long patterns", () => {
  it("are skipped by default and kept only when the caller prices them itself (the seed's mirrored demo rows)", async () => {
    const db = createDb(env.DB);
    const seller = await env.DB.prepare(
      "INSERT INTO users (username, wallet_address, network) VALUES ('long_seller', '0xlongseller', 'ethereum') RETURNING id",
    ).first<{ id: number }>();
    const [skipped] = await importListings(db, env, seller!.id, [bulkRow(ethKey(), 8)]);
    expect(skipped).toMatchObject({ status: "error", reason: "skipped", message: BULK_MESSAGES.skipped8 });
    const [unpriced] = await importListings(db, env, seller!.id, [bulkRow(ethKey(), 8)], { longPatterns: "keep" });
    expect(unpriced).toMatchObject({ status: "error" });
    const [kept] = await importListings(db, env, seller!.id, [bulkRow(ethKey(), 8)], {
      longPatterns: "keep",
      rarity: "engine",
      decorate: () => ({ price: "0.05" }),
    });
    expect(kept).toMatchObject({ status: "success", price: "0.05" });
  });
});

describe("sealed intake (POST /api/admin/addresses/sealed)", () => {
  const intakeKey = async (): Promise<IntakeKeyResponse> => {
    const res = await client(admin).admin["intake-key"].$get();
    expect(res.status).toBe(200);
    return res.json();
  };
  const sendSealed = async (rows: SealedRow[]): Promise<BulkUploadResponse> => {
    const res = await client(admin).admin.addresses.sealed.$post({ json: { rows } });
    expect(res.status).toBe(200);
    return res.json();
  };
  /** counts() and the remembered sealed rows: what a refused row must leave as it was. */
  const stored = async () => `${await counts()}\n${JSON.stringify(await env.DB.prepare("SELECT count(*) AS n FROM sealed_intake").first())}`;
  /** Row counts of addresses, encrypted_keys, price_history, listing_promotions and sealed_intake, from stored(). */
  const tally = (state: string) => {
    const [tables, intake] = state.split("\n").map((part) => JSON.parse(part));
    return [...(tables[0] as { n: number }[]).map((t) => t.n), (intake as { n: number }).n];
  };
  /** Flips one bit of a base64url field's bytes. */
  const flipped = (field: string, at = 5) => {
    const bytes = fromBase64Url(field)!;
    bytes[at] ^= 1;
    return toBase64Url(bytes);
  };
  const OTHER_SECRET = "another-marketplace-secret-0123456789abcdef";

  it("publishes an X25519 key whose id is its own, derived from the vault secret", async () => {
    const key = await intakeKey();
    expect(key.suite).toBe(INTAKE_SUITE);
    expect(fromBase64Url(key.publicKey, 32)).not.toBeNull();
    expect(key.keyId).toBe(await intakeKeyId(fromBase64Url(key.publicKey, 32)!));
    expect(await currentIntakeKey(env)).toEqual(key);
    // another secret is another intake key: rotating KEY_ENCRYPTION_SECRET rotates it
    expect((await currentIntakeKey({ KEY_ENCRYPTION_SECRET: OTHER_SECRET })).keyId).not.toBe(key.keyId);
  });

  it("good rows of either network land as listings, their keys in the vault, each sealed row remembered", async () => {
    const key = await intakeKey();
    const eth = ethKey();
    const sol = solKey();
    const answer = await sendSealed([await sealIntakeRow(key, bulkRow(eth, 5)), await sealIntakeRow(key, bulkRow(sol, 4))]);
    expect(answer.summary).toEqual({ total: 2, succeeded: 2, failed: 0 });
    expect(answer.results[0]).toMatchObject({ index: 0, status: "success", address: eth.address, price: "0.00002", currency: "ETH" });
    expect(answer.results[1]).toMatchObject({ index: 1, status: "success", address: sol.address, currency: "SOL" });
    const ids = answer.results.map((r) => (r.status === "success" ? r.id : 0));
    expect(await openStored(ids[0])).toBe(eth.privateKey);
    const remembered = await env.DB.prepare("SELECT key_id AS keyId, address_id AS addressId FROM sealed_intake WHERE address_id IN (?, ?) ORDER BY address_id")
      .bind(ids[0], ids[1])
      .all();
    expect(remembered.results).toEqual(ids.map((addressId) => ({ keyId: key.keyId, addressId })));
  });

  it("each bad row is refused with its reason and stores nothing, beside a good row that lands", async () => {
    const key = await intakeKey();
    const other = await currentIntakeKey({ KEY_ENCRYPTION_SECRET: OTHER_SECRET });
    const replayedRow = await sealIntakeRow(key, bulkRow(ethKey(), 4));
    expect((await sendSealed([replayedRow])).summary.succeeded).toBe(1);

    const good = ethKey();
    const stranger = ethKey();
    const tampered = await sealIntakeRow(key, bulkRow(ethKey(), 4));
    const wrongEnc = await sealIntakeRow(key, bulkRow(ethKey(), 4));
    const forOther = await sealIntakeRow(other, bulkRow(ethKey(), 4));
    const twice = await sealIntakeRow(key, bulkRow(ethKey(), 4));
    const rows: SealedRow[] = [
      forOther, // 0 sealed for another marketplace's intake key
      { ...(await sealIntakeRow(other, bulkRow(ethKey(), 4))), keyId: key.keyId }, // 1 sealed for the other key, claiming ours: does not open
      replayedRow, // 2 received before
      { ...tampered, ciphertext: flipped(tampered.ciphertext) }, // 3 altered ciphertext
      { ...wrongEnc, enc: flipped(wrongEnc.enc, 3) }, // 4 altered enc
      await sealIntakeRow(key, { ...bulkRow(stranger, 4), private_key: ethKey().privateKey }), // 5 the key does not derive the address
      await sealIntakeRow(key, bulkRow(good, 4)), // 6 good
      twice, // 7 first of a pair: lands
      twice, // 8 the same sealed row again in one upload
    ];
    const before = await stored();
    const answer = await sendSealed(rows);
    expect(answer.results.map((r) => (r.status === "error" ? r.reason : r.status))).toEqual([
      "wrong-intake-key",
      "unopenable",
      "replayed",
      "unopenable",
      "unopenable",
      "key-mismatch",
      "success",
      "success",
      "replayed",
    ]);
    expect(answer.results[0]).toMatchObject({ message: expect.stringContaining(other.keyId) });
    expect(answer.results[2]).toMatchObject({ message: expect.stringMatching(/received before/) });
    expect(answer.results[8]).toMatchObject({ message: "the same sealed row as row 8 of this upload" });
    // only the two good rows were stored: two listings, two keys, two history rows, two remembered sealed rows
    const listed = await env.DB.prepare("SELECT address FROM addresses WHERE address IN (?, ?)").bind(stranger.address, good.address).all();
    expect(listed.results).toEqual([{ address: good.address }]);
    expect(tally(await stored())).toEqual(tally(before).map((n, i) => n + (i === 3 ? 0 : 2)));
  });

  it("a refused upload leaves the database exactly as it was", async () => {
    const key = await intakeKey();
    const other = await currentIntakeKey({ KEY_ENCRYPTION_SECRET: OTHER_SECRET });
    const bad = await sealIntakeRow(key, bulkRow(ethKey(), 4));
    const before = await stored();
    const answer = await sendSealed([
      await sealIntakeRow(other, bulkRow(ethKey(), 4)),
      { ...bad, ciphertext: flipped(bad.ciphertext, 0) },
      await sealIntakeRow(key, { ...bulkRow(ethKey(), 4), private_key: ethKey().privateKey }),
    ]);
    expect(answer.summary.succeeded).toBe(0);
    expect(await stored()).toBe(before);
  });

  it("after a rotation, rows sealed to the previous secret's intake key still open; unknown secrets' do not", async () => {
    const rotated = { KEY_ENCRYPTION_SECRET: OTHER_SECRET, KEY_ENCRYPTION_SECRET_PREVIOUS: env.KEY_ENCRYPTION_SECRET, KEY_ENCRYPTION_VERSION: "2" };
    const old = await currentIntakeKey(env);
    const row = await sealIntakeRow(old, bulkRow(ethKey(), 4));
    const [result] = await importSealedRows(createDb(env.DB), rotated, admin.userId, [row]);
    expect(result).toMatchObject({ status: "success" });
    const [gone] = await importSealedRows(createDb(env.DB), { KEY_ENCRYPTION_SECRET: OTHER_SECRET }, admin.userId, [
      await sealIntakeRow(old, bulkRow(ethKey(), 4)),
    ]);
    expect(gone).toMatchObject({ status: "error", reason: "wrong-intake-key" });
  });

  it.each([
    ["no rows", { rows: [] }, /at least one row/],
    [
      "too many rows",
      { rows: Array.from({ length: SEALED_MAX_ROWS + 1 }, () => ({ keyId: "0".repeat(16), enc: "A".repeat(43), ciphertext: "AA" })) },
      /at most 100 sealed rows/,
    ],
    ["a plain bulk row", { rows: [{ address: "0x00", private_key: "0x00" }] }, /keyId/],
    ["an enc of another length", { rows: [{ keyId: "0".repeat(16), enc: "A".repeat(44), ciphertext: "AA" }] }, /enc must be 32 bytes/],
    ["an oversized ciphertext", { rows: [{ keyId: "0".repeat(16), enc: "A".repeat(43), ciphertext: "A".repeat(SEALED_MAX_CIPHERTEXT + 1) }] }, /at most 2048/],
  ])("%s: 400, nothing stored", async (_name, body, message) => {
    const before = await stored();
    const res = await client(admin).admin.addresses.sealed.$post({ json: unchecked(body) });
    expect(res.status).toBe(400);
    expect((await refusal(res)).message).toMatch(message);
    expect(await stored()).toBe(before);
  });
});
