// Unbounded writes: the purchase calls a hostile client could repeat. A visitor (no session) writes
// nothing at all; a signed-in wallet, and all the wallets of one client network together, are held to a
// number of calls a minute, refused with 429 and Retry-After, and a refused call writes no audit row.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { CONFIRM_RATE_LIMIT, INITIATE_RATE_LIMIT, KEY_ACCESS_RATE_LIMIT, SOLANA_TRANSFER_RATE_LIMIT } from "../../schema/purchases";
import { ApiError } from "../http/errors";
import { clientNetwork, limitReservations, rateWindowMs } from "../http/rate-limit";
import { inFreshRateWindow, testRateWindowMs } from "./helpers";
import { actors, ethWallet, listWithKey, reserve, solWallet, type Wallet, call } from "./purchase-fixtures";
import { type Answer, client, unchecked, refusal } from "./client";
import { REVEAL_BODY } from "./sealed-reveal";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;
const from = (ip: string) => ({ "cf-connecting-ip": ip });

const count = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;
const auditRows = (id: string) => count("SELECT count(*) AS n FROM transaction_audit WHERE transaction_id = ?", id);
const chainAuditRows = (id: string) => count("SELECT count(*) AS n FROM blockchain_transaction_audit WHERE transaction_id = ?", id);
const allRows = async () => ({
  audit: await count("SELECT count(*) AS n FROM transaction_audit"),
  limits: await count("SELECT count(*) AS n FROM rate_limits"),
});

const randomHash = () => `0x${Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("")}`;

/** A completed purchase by a fresh buyer, as settle leaves it. */
async function completed() {
  const buyer = await ethWallet();
  const listing = await listWithKey(seller.userId);
  const id = await reserve(buyer, listing.id);
  await env.DB.prepare("UPDATE transactions SET status = 'completed', tx_hash = ?, completed_at = ? WHERE id = ?").bind(randomHash(), Date.now(), id).run();
  return { buyer, id };
}

async function expectTooMany(res: Answer, pattern: RegExp) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(testRateWindowMs() / 1000);
  const body = await refusal(res);
  expect(body).toEqual({ error: "Too Many Requests", message: expect.stringMatching(pattern) });
  expect(body.message).toContain(`Wait ${retryAfter} seconds`);
}

describe("reveal and destroy without a session", () => {
  it("are refused with 401 and write nothing: no audit row, no counter, however many calls", async () => {
    const { id } = await completed();
    const before = await allRows();
    const ownRows = await auditRows(id);
    for (let i = 0; i < 25; i++) {
      const target = i % 2 ? id : crypto.randomUUID();
      const reveal = await client(undefined, from(freshIp())).transactions[":id"]["reveal-private-key"].$post({
        param: { id: target },
        json: REVEAL_BODY,
      });
      expect(reveal.status).toBe(401);
      expect(reveal.headers.get("cache-control")).toBe("no-store");
      expect(await reveal.json()).toMatchObject({ success: false, error: "Unauthorized" });
      const destroy = await client(undefined, from(freshIp())).transactions[":id"]["private-key"].$delete({ param: { id: target } });
      expect(destroy.status).toBe(401);
    }
    expect(await allRows()).toEqual(before);
    expect(await auditRows(id)).toBe(ownRows);
  });

  it("a cookie that names no live session is a visitor too", async () => {
    const { id } = await completed();
    const before = await allRows();
    for (let i = 0; i < 5; i++) {
      const res = await client(undefined, {
        cookie: `session=${"A".repeat(43)}`,
        ...from(freshIp()),
      }).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY });
      expect(res.status).toBe(401);
    }
    expect(await allRows()).toEqual(before);
  });
});

describe(`reveal and destroy: ${KEY_ACCESS_RATE_LIMIT.perWallet} a minute per wallet`, () => {
  it("a stranger probing a sale: each refusal audited up to the limit, then 429 and no more rows", async () => {
    await inFreshRateWindow();
    const { id } = await completed();
    const stranger = await ethWallet();
    const ip = freshIp();
    const before = await auditRows(id);
    for (let i = 0; i < KEY_ACCESS_RATE_LIMIT.perWallet; i++) {
      const sale = client(stranger, from(ip)).transactions[":id"];
      const res = await (i % 2 ? sale["private-key"].$delete({ param: { id } }) : sale["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY }));
      expect(res.status).toBe(404);
    }
    expect(await auditRows(id)).toBe(before + KEY_ACCESS_RATE_LIMIT.perWallet);
    await expectTooMany(
      await client(stranger, from(ip)).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY }),
      /private key requests: at most 20 per day from one wallet/,
    );
    await expectTooMany(await client(stranger, from(freshIp())).transactions[":id"]["private-key"].$delete({ param: { id } }), /from one wallet/);
    expect(await auditRows(id)).toBe(before + KEY_ACCESS_RATE_LIMIT.perWallet);
  }, 60_000);

  it("the buyer is not held back by another wallet's limit, and still gets the key", async () => {
    await inFreshRateWindow();
    const { buyer, id } = await completed();
    const stranger = await ethWallet();
    const ip = freshIp();
    for (let i = 0; i <= KEY_ACCESS_RATE_LIMIT.perWallet; i++)
      await client(stranger, from(ip)).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY });
    expect((await client(stranger, from(ip)).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY })).status).toBe(429);
    const res = await client(buyer, from(freshIp())).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true });
  }, 60_000);

  it(`one client network, many wallets: ${KEY_ACCESS_RATE_LIMIT.perClient} a minute in all; IPv6 counts per /48`, async () => {
    await inFreshRateWindow(30_000);
    const { id } = await completed();
    const wallets = await Promise.all(Array.from({ length: KEY_ACCESS_RATE_LIMIT.perClient / KEY_ACCESS_RATE_LIMIT.perWallet + 1 }, () => ethWallet()));
    // Every call from another /64 of the same /48, as a client holding a /48 can.
    let host = 0;
    const sameSlash48 = () => from(`2001:db8:77:${(++host).toString(16)}::1`);
    const before = await auditRows(id);
    for (const wallet of wallets.slice(0, -1)) {
      for (let i = 0; i < KEY_ACCESS_RATE_LIMIT.perWallet; i++)
        expect((await client(wallet, sameSlash48()).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY })).status).toBe(404);
    }
    const fresh = wallets.at(-1)!;
    await expectTooMany(
      await client(fresh, sameSlash48()).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY }),
      /private key requests from your network: at most 60 per day/,
    );
    expect(await auditRows(id)).toBe(before + KEY_ACCESS_RATE_LIMIT.perClient);
    // The same wallet from another network is served.
    expect((await client(fresh, from("2001:db8:78::1")).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY })).status).toBe(
      404,
    );
  }, 60_000);
});

describe(`POST /api/transactions/:id/confirm: ${CONFIRM_RATE_LIMIT.perWallet} a minute per wallet`, () => {
  it("repeated reports of a made-up hash: each checked and audited up to the limit, then 429, nothing more written", async () => {
    await inFreshRateWindow();
    const buyer = await ethWallet();
    const id = await reserve(buyer, (await listWithKey(seller.userId)).id);
    const ip = freshIp();
    const report = (n: number) =>
      client(buyer, from(ip)).transactions[":id"].confirm.$post({
        param: { id },
        json: { txHash: `0x${n.toString(16).padStart(64, "0")}`, buyerWallet: buyer.address },
      });
    for (let i = 0; i < CONFIRM_RATE_LIMIT.perWallet; i++) expect((await report(i + 1)).status).toBe(200);
    const written = await chainAuditRows(id);
    expect(written).toBe(CONFIRM_RATE_LIMIT.perWallet);
    const updatedAt = (await env.DB.prepare("SELECT updated_at, tx_hash FROM transactions WHERE id = ?").bind(id).first())!;
    await expectTooMany(await report(999), /payment reports: at most 30 per day from one wallet/);
    await expectTooMany(await report(1000), /from one wallet/);
    expect(await chainAuditRows(id)).toBe(written);
    // The refused reports did not touch the purchase either.
    expect(await env.DB.prepare("SELECT updated_at, tx_hash FROM transactions WHERE id = ?").bind(id).first()).toEqual(updatedAt);
  }, 60_000);

  it("malformed reports are refused (400) before anything is counted or written", async () => {
    const buyer = await ethWallet();
    const id = await reserve(buyer, (await listWithKey(seller.userId)).id);
    const before = await allRows();
    for (const body of ["{", { txHash: 5, buyerWallet: buyer.address }, { buyerWallet: buyer.address }]) {
      // "{" is sent as it is: text that is not JSON.
      const res =
        typeof body === "string"
          ? await call("POST", client().transactions[":id"].confirm.$path({ param: { id } }), buyer, body, from(freshIp()))
          : await client(buyer, from(freshIp())).transactions[":id"].confirm.$post({ param: { id }, json: unchecked(body) });
      expect(res.status).toBe(400);
    }
    expect(await allRows()).toEqual(before);
    expect(await chainAuditRows(id)).toBe(0);
  });
});

describe(`POST /api/transactions/:id/solana-transaction: ${SOLANA_TRANSFER_RATE_LIMIT.perWallet} a minute per wallet`, () => {
  it("then 429 without asking the node again", async () => {
    await inFreshRateWindow();
    const buyer = await solWallet();
    const id = await reserve(buyer, (await listWithKey(seller.userId, { network: "solana" })).id);
    const ip = freshIp();
    const ask = () => client(buyer, from(ip)).transactions[":id"]["solana-transaction"].$post({ param: { id }, json: { account: buyer.address } });
    // No Solana node in this project: each counted request asks it and gets 503.
    for (let i = 0; i < SOLANA_TRANSFER_RATE_LIMIT.perWallet; i++) expect((await ask()).status).toBe(503);
    await expectTooMany(await ask(), /Solana transfer requests: at most 10 per day from one wallet/);
  }, 60_000);
});

describe("clientNetwork", () => {
  it("an IPv4 address is itself; an IPv6 address is its /48, however it is written", () => {
    expect(clientNetwork("203.0.113.9")).toBe("203.0.113.9");
    expect(clientNetwork("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(clientNetwork("2001:db8:77:1:abcd::1")).toBe("2001:db8:77::/48");
    expect(clientNetwork("2001:db8:77:ffff::1")).toBe("2001:db8:77::/48");
    expect(clientNetwork("2001:0DB8:0077:0001:ffff:ffff:ffff:ffff")).toBe("2001:db8:77::/48");
    expect(clientNetwork("2001:db8:78::1")).toBe("2001:db8:78::/48");
    expect(clientNetwork("2001:db8::1")).toBe("2001:db8:0::/48");
    expect(clientNetwork("::1")).toBe("0:0:0::/48");
    expect(clientNetwork("fe80::1%eth0")).toBe("fe80:0:0::/48");
    expect(clientNetwork("local")).toBe("local");
    // Not an address: counted as it is, never merged with another.
    expect(clientNetwork("2001:db8:::1")).toBe("2001:db8:::1");
  });
});

describe("RATE_LIMIT_WINDOW_MS: every limit's window, only ever lengthened", () => {
  it("a whole number of ms from a minute to a day is the window; anything else is the limit's own minute", () => {
    for (const [raw, ms] of [
      [undefined, 60_000],
      ["60000", 60_000],
      ["3600000", 3_600_000],
      ["86400000", 86_400_000],
    ] as const)
      expect(rateWindowMs({ RATE_LIMIT_WINDOW_MS: raw }, 60_000), String(raw)).toBe(ms);
    // Shorter than the limit's own window (which would let more through), longer than a day, or not a plain
    // whole number: the default, so a bad value can never weaken a limit.
    for (const bad of ["", "0", "1000", "59999", "86400001", "999999999", "-60000", "1e6", "3600000.5", " 3600000", "0x100000", "a day"])
      expect(rateWindowMs({ RATE_LIMIT_WINDOW_MS: bad }, 60_000), bad).toBe(60_000);
  });

  it("unset or bad, the limit counts per minute as in production: its wording, its Retry-After, a fresh minute serves again", async () => {
    const at = Date.UTC(2026, 0, 1, 12, 0, 10);
    const tryReserve = async (windowEnv: { RATE_LIMIT_WINDOW_MS?: string }, userId: number, now: number) => {
      try {
        await limitReservations({ ...env, RATE_LIMIT_WINDOW_MS: undefined, ...windowEnv }, userId, freshIpOf(userId), now);
        return null;
      } catch (err) {
        return err as ApiError;
      }
    };
    const freshIpOf = (userId: number) => `203.0.113.${userId % 250}`;
    for (const [n, windowEnv] of [
      [900_001, {}],
      [900_002, { RATE_LIMIT_WINDOW_MS: "1000" }],
      [900_003, { RATE_LIMIT_WINDOW_MS: "a day" }],
    ] as const) {
      for (let i = 0; i < INITIATE_RATE_LIMIT.perWallet; i++) expect(await tryReserve(windowEnv, n, at)).toBeNull();
      const refused = await tryReserve(windowEnv, n, at);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused!.status).toBe(429);
      expect(refused!.message).toBe("Too many purchase attempts: at most 10 per minute from one wallet. Wait 50 seconds and try again.");
      expect(refused!.headers).toEqual({ "Retry-After": "50" });
      // The next minute is a fresh window.
      expect(await tryReserve(windowEnv, n, at + 60_000)).toBeNull();
    }
  });

  it("set to a day, the count carries over the minute and the refusal says so", async () => {
    const at = Date.UTC(2026, 0, 2, 12, 0, 10);
    const day = { ...env, RATE_LIMIT_WINDOW_MS: "86400000" };
    for (let i = 0; i < INITIATE_RATE_LIMIT.perWallet; i++) await limitReservations(day, 900_010, "203.0.113.10", at + i * 60_000);
    const refused = await limitReservations(day, 900_010, "203.0.113.10", at + 3_600_000).catch((err: ApiError) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toMatch(/^Too many purchase attempts: at most 10 per day from one wallet\. Wait 39590 seconds/);
  });
});
