// Notifications (docs/collectors.md#notifications): what the cron job tells whom from the events the triggers
// record (price drops, reservations, frees and sales of watched listings, completed purchases, found custom orders,
// saved-search matches), how unread news about one thing stays one notification, the per-wallet cap, the 90 days,
// two runs at once, and the routes: each wallet's own, mark read, and 404 for anyone else's.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { NOTIFICATIONS_PER_WALLET, type NotificationsResponse, type NotificationView } from "../../schema/collectors";
import { SUBSCRIBERS_PER_CHUNK } from "../collectors/notification-job";
import { notificationStatements } from "../collectors/notify";
import { createDb, writeBatch } from "../db/database";
import { runScheduledJobs } from "../jobs/scheduled";
import { randomAddress, rowCount, saveFrom, starFrom, tick } from "./collectors-fixtures";
import { insertListing } from "./browse-fixtures";
import { ethWallet, type Wallet } from "./purchase-fixtures";
import { client } from "./client";

const IP = "203.0.113.20";
let watcher: Wallet;
let buyer: Wallet;
let seller: Wallet;
beforeAll(async () => {
  [watcher, buyer, seller] = [await ethWallet(), await ethWallet(), await ethWallet()];
});

async function inbox(wallet: Wallet, query: { limit?: string; before?: string } = {}): Promise<NotificationsResponse> {
  const res = await client(wallet).notifications.$get({ query });
  expect(res.status).toBe(200);
  return res.json();
}
const about = async (wallet: Wallet, listingId: number) =>
  (await inbox(wallet, { limit: "50" })).notifications.filter((n) => n.href === `/address/${listingId}`);
const unread = async (wallet: Wallet) => ((await (await client(wallet).notifications["unread-count"].$get()).json()) as { unread: number }).unread;

let txCounter = 0;
async function reserveRow(listingId: number, buyerId: number): Promise<string> {
  const id = `00000000-0000-4000-8000-${String(++txCounter).padStart(12, "0")}`;
  await env.DB.prepare(
    `INSERT INTO transactions (id, address_id, buyer_id, network, price, price_units, currency, total_amount, total_units, status, expires_at, created_at)
     VALUES (?, ?, ?, 'ethereum', '0.5', 50000000, 'ETH', '0.5', 50000000, 'initiated', ?, ?)`,
  )
    .bind(id, listingId, buyerId, Date.now() + 900_000, Date.now())
    .run();
  return id;
}
const setStatus = (id: string, status: string) => env.DB.prepare("UPDATE transactions SET status = ? WHERE id = ?").bind(status, id).run();
const setPrice = (listingId: number, price: string, units: number) =>
  env.DB.prepare("UPDATE addresses SET price = ?, price_units = ? WHERE id = ?").bind(price, units, listingId).run();

describe("a watched listing", () => {
  it("price drop: the watcher is told the new price, the old one and the change; the bell counts it", async () => {
    const id = await insertListing({ address: randomAddress(), price: "0.5", sellerId: seller.userId });
    await starFrom(IP, watcher, id);
    await tick();
    const before = await unread(watcher);
    await setPrice(id, "0.4", 40_000_000);
    await tick();
    const [n] = await about(watcher, id);
    expect(n).toMatchObject({ kind: "watch_price_drop", title: "Price drop on a watched address", read: false });
    expect(n.body).toContain("is now 0.4 ETH (was 0.5 ETH, -20%)");
    expect(await unread(watcher)).toBe(before + 1);
    // A price rise tells nobody; a second drop while the first is unread updates it, keeping where it dropped from.
    await setPrice(id, "0.45", 45_000_000);
    await setPrice(id, "0.3", 30_000_000);
    await tick();
    const now = await about(watcher, id);
    expect(now).toHaveLength(1);
    expect(now[0].body).toContain("is now 0.3 ETH (was 0.5 ETH, -40%)");
  });

  it("reserved, then freed: one notification that says where it stands; the buyer, watching too, is not told", async () => {
    const id = await insertListing({ address: randomAddress(), sellerId: seller.userId });
    await starFrom(IP, watcher, id);
    await starFrom(IP, buyer, id);
    await tick();
    const tx = await reserveRow(id, buyer.userId);
    await tick();
    expect((await about(watcher, id)).map((n) => n.kind)).toEqual(["watch_reserved"]);
    expect((await about(watcher, id))[0].body).toMatch(/is reserved by a buyer until \d\d:\d\d UTC/);
    expect(await about(buyer, id)).toEqual([]);
    await setStatus(tx, "expired");
    await tick();
    const after = await about(watcher, id);
    expect(after.map((n) => n.kind)).toEqual(["watch_freed"]);
    expect(after[0].title).toBe("A watched address is for sale again");
  });

  it("reserved and freed between two runs tells nothing (nothing changed for the watcher)", async () => {
    const id = await insertListing({ address: randomAddress(), sellerId: seller.userId });
    await starFrom(IP, watcher, id);
    await tick();
    const tx = await reserveRow(id, buyer.userId);
    await setStatus(tx, "cancelled");
    await tick();
    expect(await about(watcher, id)).toEqual([]);
  });

  it("sold: the watcher is told it sold; the buyer that their purchase completed (with the purchase page)", async () => {
    const id = await insertListing({ address: randomAddress(), price: "0.7", sellerId: seller.userId });
    await starFrom(IP, watcher, id);
    await tick();
    const tx = await reserveRow(id, buyer.userId);
    await setStatus(tx, "pending");
    await setStatus(tx, "completed");
    await tick();
    const [sold] = await about(watcher, id);
    expect(sold).toMatchObject({ kind: "watch_sold", title: "A watched address was sold" });
    const mine = (await inbox(buyer, { limit: "50" })).notifications.find((n) => n.kind === "purchase_completed" && n.href === `/secure-transaction/${tx}`);
    expect(mine?.title).toBe("Purchase completed");
  });
});

describe("the buyer of a custom order", () => {
  it("is told when it is found", async () => {
    const order = await env.DB.prepare(
      `INSERT INTO custom_orders (buyer_id, buyer_wallet, public_key, prefix, suffix, case_sensitive, difficulty_bits, price, price_units, status)
       VALUES (?, ?, '0x02', 'abc', '', 0, 12, '0.02', 2000000, 'grinding') RETURNING id`,
    )
      .bind(buyer.userId, buyer.address.toLowerCase())
      .first<{ id: number }>();
    await env.DB.prepare("UPDATE custom_orders SET status = 'found', found_address = '0xabc0000000000000000000000000000000000001' WHERE id = ?")
      .bind(order!.id)
      .run();
    await tick();
    const found = (await inbox(buyer, { limit: "50" })).notifications.find((n) => n.kind === "custom_order_found");
    expect(found).toMatchObject({ title: "Your custom order was found", href: `/custom-orders/${order!.id}` });
    expect(found!.body).toContain("Pay 0.02 ETH");
  });
});

describe("saved searches", () => {
  it("a new listing that matches tells the search's owner; one that does not, and one on the other network, do not", async () => {
    const w = await ethWallet();
    expect((await saveFrom(IP, w, "Dead beginnings", { patternFilter: "prefix", patternValue: "dead", network: "ethereum" })).status).toBe(201);
    await tick();
    const match = await insertListing({ address: `0xdead${"1".repeat(36)}`, sellerId: seller.userId });
    await insertListing({ address: `0xbeef${"2".repeat(36)}`, sellerId: seller.userId });
    await insertListing({ address: `0x1dead${"3".repeat(35)}`, sellerId: seller.userId });
    await tick();
    const notes = (await inbox(w)).notifications;
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: "saved_search_match", title: "New match for “Dead beginnings”", href: `/address/${match}` });
    expect(notes[0].body).toContain("newly listed");
  });

  it("more matches while unread add up in one notification that opens the search", async () => {
    const w = await ethWallet();
    await saveFrom(IP, w, "Cafe", { patternValue: "cafe" });
    await tick();
    await insertListing({ address: `0xcafe${"4".repeat(36)}`, sellerId: seller.userId });
    await tick();
    await insertListing({ address: `0x${"5".repeat(36)}cafe`, sellerId: seller.userId });
    await insertListing({ address: `0xcafe${"6".repeat(36)}`, sellerId: seller.userId });
    await tick();
    const notes = (await inbox(w)).notifications;
    expect(notes).toHaveLength(1);
    expect(notes[0].title).toBe("New matches for “Cafe”");
    expect(notes[0].body).toContain("3 listings");
    expect(notes[0].href).toBe("/marketplace?patternValue=cafe");
  });

  it("a listing that drops in price matches as cheaper; the seller is not told about their own listing", async () => {
    const w = await ethWallet();
    const id = await insertListing({ address: `0xf00d${"7".repeat(36)}`, price: "1", sellerId: w.userId });
    const other = await insertListing({ address: `0xf00d${"8".repeat(36)}`, price: "1", sellerId: seller.userId });
    await tick();
    await saveFrom(IP, w, "Food", { patternFilter: "prefix", patternValue: "f00d" });
    await setPrice(id, "0.9", 90_000_000);
    await setPrice(other, "0.9", 90_000_000);
    await tick();
    const notes = (await inbox(w)).notifications;
    expect(notes.map((n) => n.href)).toEqual([`/address/${other}`]);
    expect(notes[0].body).toContain("its price dropped");
  });

  it("one write tells several queries' subscribers: each its query's matches less its own listings, shown another seller's; a wallet matched only by its own listing is not told", async () => {
    const [owner, other] = [await ethWallet(), await ethWallet()];
    const savedId = async (wallet: Wallet, name: string, patternValue: string) => {
      const res = await saveFrom(IP, wallet, name, { patternFilter: "prefix", patternValue });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: number }).id;
    };
    const ownerBoats = await savedId(owner, "Boats", "b0a75");
    const otherBoats = await savedId(other, "Boats", "b0a75");
    const ownerBeds = await savedId(owner, "Beds", "bed5e");
    const otherBeds = await savedId(other, "Beds", "bed5e");
    await tick();
    const theirs = await insertListing({ address: `0xb0a75${randomAddress().slice(7)}`, sellerId: seller.userId });
    const ownBoat = await insertListing({ address: `0xb0a75${randomAddress().slice(7)}`, sellerId: owner.userId });
    const ownBed = await insertListing({ address: `0xbed5e${randomAddress().slice(7)}`, sellerId: owner.userId });
    await tick();
    const told = async (searchId: number) => {
      const row = await env.DB.prepare("SELECT data FROM notifications WHERE subject = ?").bind(`search:${searchId}`).first<{ data: string }>();
      return row === null ? null : (JSON.parse(row.data) as Record<string, unknown>);
    };
    const news = (searchId: number, count: number, listingId: number, address: string) => ({
      searchId,
      count,
      listingId,
      address,
      network: "ethereum",
      reason: "new",
    });
    const addressOf = async (id: number) => (await env.DB.prepare("SELECT address FROM addresses WHERE id = ?").bind(id).first<{ address: string }>())!.address;
    // The owner's own boat is the last match: they are told of the other seller's, one listing; the other wallet of both.
    expect(await told(ownerBoats)).toEqual(news(ownerBoats, 1, theirs, await addressOf(theirs)));
    expect(await told(otherBoats)).toEqual(news(otherBoats, 2, ownBoat, await addressOf(ownBoat)));
    expect(await told(otherBeds)).toEqual(news(otherBeds, 1, ownBed, await addressOf(ownBed)));
    expect(await told(ownerBeds)).toBeNull();
    const lastMatch = await env.DB.prepare("SELECT id, last_match_at IS NOT NULL AS matched FROM saved_searches WHERE id IN (?, ?, ?, ?) ORDER BY id")
      .bind(ownerBoats, otherBoats, ownerBeds, otherBeds)
      .all<{ id: number; matched: number }>();
    expect(lastMatch.results).toEqual([
      { id: ownerBoats, matched: 1 },
      { id: otherBoats, matched: 1 },
      { id: ownerBeds, matched: 0 },
      { id: otherBeds, matched: 1 },
    ]);
    expect(await env.DB.prepare("SELECT batch_to AS batchTo, match_query AS q FROM collector_cursor").first()).toEqual({ batchTo: null, q: null });
  });

  it("a listing that is not for sale (created inactive) tells nobody", async () => {
    const w = await ethWallet();
    await saveFrom(IP, w, "Aced", { patternValue: "aced" });
    await tick();
    await insertListing({ address: `0xaced${"9".repeat(36)}`, status: "inactive", sellerId: seller.userId });
    await tick();
    expect((await inbox(w)).notifications).toEqual([]);
  });
});

describe("the job", () => {
  it("runs in the cron job", async () => {
    const report = await runScheduledJobs(env);
    expect(report.collectors).not.toBeNull();
    expect(report.errors.filter((e) => e.startsWith("collectors"))).toEqual([]);
  });

  it("tells once: a second run, and two runs at once, add nothing", async () => {
    const id = await insertListing({ address: randomAddress(), price: "2", sellerId: seller.userId });
    await starFrom(IP, watcher, id);
    await tick();
    await setPrice(id, "1", 100_000_000);
    await Promise.all([tick(), tick(), tick()]);
    await tick();
    expect(await about(watcher, id)).toHaveLength(1);
    expect(await rowCount("notifications", "user_id = ? AND address_id = ?", watcher.userId, id)).toBe(1);
    expect(await rowCount("collector_events")).toBe(0);
  });

  it("tells a search saved by thousands of wallets a chunk at a time; stopped mid-batch, the next run goes on after the last finished chunk", async () => {
    const wallet = await ethWallet();
    const saved = await saveFrom("203.0.113.21", wallet, "Fables", { patternFilter: "prefix", patternValue: "fab1e" });
    expect(saved.status).toBe(201);
    const { id: first } = (await saved.json()) as { id: number };
    const queryId = (await env.DB.prepare("SELECT query_id AS q FROM saved_searches WHERE id = ?").bind(first).first<{ q: number }>())!.q;
    // The same search saved by 2.2 chunks' worth of wallets more (straight into D1: the bounds are not this test's).
    const more = Math.round(SUBSCRIBERS_PER_CHUNK * 2.2);
    await env.DB.prepare(
      `WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?1)
       INSERT INTO users (username, wallet_address, network) SELECT 'fable_' || n, '0xfable' || printf('%08d', n), 'ethereum' FROM k`,
    )
      .bind(more)
      .run();
    await env.DB.prepare(
      `INSERT INTO saved_searches (user_id, name, query, query_id, client_key)
       SELECT id, 'Fables', 'patternFilter=prefix&patternValue=fab1e', ?, 'bulk' FROM users WHERE username LIKE 'fable_%' ORDER BY id`,
    )
      .bind(queryId)
      .run();
    const subscribers = (
      await env.DB.prepare("SELECT id, user_id AS userId FROM saved_searches WHERE query_id = ? ORDER BY id")
        .bind(queryId)
        .all<{ id: number; userId: number }>()
    ).results;
    expect(subscribers).toHaveLength(more + 1);
    const told = () => rowCount("notifications", "subject IN (SELECT 'search:' || id FROM saved_searches WHERE query_id = ?)", queryId);
    try {
      await insertListing({ address: `0xfab1e${randomAddress().slice(7)}`, price: "1", sellerId: seller.userId });
      // The platform stops the run while it tells the second chunk: here, a write of it fails.
      const victim = subscribers[SUBSCRIBERS_PER_CHUNK + 10].userId;
      await env.DB.exec(
        `CREATE TRIGGER injected_match_fault BEFORE INSERT ON notifications WHEN NEW.user_id = ${victim} BEGIN SELECT RAISE(ABORT, 'injected fault'); END`,
      );
      try {
        await expect(tick()).rejects.toThrow(/injected fault/);
      } finally {
        await env.DB.exec("DROP TRIGGER injected_match_fault");
      }
      // The first chunk was told, and the cursor says so.
      expect(await told()).toBe(SUBSCRIBERS_PER_CHUNK);
      const cursor = await env.DB.prepare("SELECT batch_to AS batchTo, match_query AS q, match_search AS s FROM collector_cursor").first<
        Record<string, number | null>
      >();
      expect(cursor).toMatchObject({ batchTo: expect.any(Number), q: queryId, s: subscribers[SUBSCRIBERS_PER_CHUNK - 1].id });
      // The next run goes on from there: everyone told once, each of one listing.
      await tick();
      expect(await told()).toBe(more + 1);
      const counts = await env.DB.prepare(
        "SELECT json_extract(data, '$.count') AS c, count(*) AS n FROM notifications WHERE subject IN (SELECT 'search:' || id FROM saved_searches WHERE query_id = ?) GROUP BY c",
      )
        .bind(queryId)
        .all<{ c: number; n: number }>();
      expect(counts.results).toEqual([{ c: 1, n: more + 1 }]);
      expect(await env.DB.prepare("SELECT batch_to AS batchTo FROM collector_cursor").first()).toEqual({ batchTo: null });
      expect(await rowCount("collector_events")).toBe(0);
    } finally {
      // Thousands of subscribers would slow every later run of this file.
      await env.DB.batch([
        env.DB.prepare("DELETE FROM notifications WHERE user_id IN (SELECT user_id FROM saved_searches WHERE query_id = ?)").bind(queryId),
        env.DB.prepare("DELETE FROM saved_searches WHERE query_id = ? AND client_key = 'bulk'").bind(queryId),
      ]);
    }
  });

  it(`keeps the newest ${NOTIFICATIONS_PER_WALLET} per wallet`, async () => {
    const w = await ethWallet();
    const old = Date.now() - 3_600_000;
    const rows = Array.from({ length: NOTIFICATIONS_PER_WALLET }, (_, i) =>
      env.DB.prepare("INSERT INTO notifications (user_id, kind, grp, subject, data, created_at) VALUES (?, 'purchase_completed', 'purchase', ?, '{}', ?)").bind(
        w.userId,
        `purchase:x${i}`,
        old + i,
      ),
    );
    await env.DB.batch(rows);
    const id = await insertListing({ address: randomAddress(), sellerId: seller.userId });
    await starFrom(IP, w, id);
    await tick();
    await setPrice(id, "0.01", 1_000_000);
    await tick();
    expect(await rowCount("notifications", "user_id = ?", w.userId)).toBe(NOTIFICATIONS_PER_WALLET);
    expect(await rowCount("notifications", "user_id = ? AND subject = 'purchase:x0'", w.userId)).toBe(0);
    expect((await inbox(w)).notifications[0].kind).toBe("watch_price_drop");
  });

  it("holds at most one unread notification per wallet, group and subject, in the database itself", async () => {
    const w = await ethWallet();
    const insert = () =>
      env.DB.prepare("INSERT INTO notifications (user_id, kind, grp, subject, data, created_at) VALUES (?, 'watch_sold', 'watch-state', 'listing:1', '{}', ?)")
        .bind(w.userId, Date.now())
        .run();
    await insert();
    await expect(insert()).rejects.toThrow(/UNIQUE constraint failed/);
    await env.DB.prepare("UPDATE notifications SET read_at = 1 WHERE user_id = ?").bind(w.userId).run();
    await insert();
    expect(await rowCount("notifications", "user_id = ?", w.userId)).toBe(2);
  });

  it("writes a run's notifications even when their data is larger than one statement's parameter may be", async () => {
    const count = 1_500;
    const first = await env.DB.prepare(
      `WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?1)
       INSERT INTO users (username, wallet_address, network) SELECT 'bulk_' || n, '0xbulk' || n, 'ethereum' FROM k RETURNING id`,
    )
      .bind(count)
      .all<{ id: number }>();
    const rows = first.results.map((u, i) => ({
      userId: u.id,
      kind: "purchase_completed" as const,
      subject: `purchase:bulk${i}`,
      data: { transactionId: `bulk${i}`, address: "x".repeat(1500) },
    }));
    await writeBatch(createDb(env.DB), notificationStatements(rows, Date.now()));
    expect(await rowCount("notifications", "subject LIKE 'purchase:bulk%'")).toBe(count);
  });

  it("deletes notifications older than 90 days", async () => {
    const w = await ethWallet();
    const day = 86_400_000;
    await env.DB.batch(
      [91, 89].map((age) =>
        env.DB.prepare(
          "INSERT INTO notifications (user_id, kind, grp, subject, data, created_at) VALUES (?, 'purchase_completed', 'purchase', ?, '{}', ?)",
        ).bind(w.userId, `purchase:age${age}`, Date.now() - age * day),
      ),
    );
    await tick();
    expect(await rowCount("notifications", "user_id = ? AND subject = 'purchase:age91'", w.userId)).toBe(0);
    expect(await rowCount("notifications", "user_id = ? AND subject = 'purchase:age89'", w.userId)).toBe(1);
  });
});

describe("the routes: each wallet's own", () => {
  async function oneNotification(wallet: Wallet): Promise<NotificationView> {
    const id = await insertListing({ address: randomAddress(), price: "3", sellerId: seller.userId });
    await starFrom(IP, wallet, id);
    await tick();
    await setPrice(id, "2", 200_000_000);
    await tick();
    return (await about(wallet, id))[0];
  }

  it("signed out: 401", async () => {
    const anonymous = client().notifications;
    for (const [path, res] of [
      ["GET /api/notifications", () => anonymous.$get({ query: {} })],
      ["GET /api/notifications/unread-count", () => anonymous["unread-count"].$get()],
      ["POST /api/notifications/1/read", () => anonymous[":id"].read.$post({ param: { id: "1" } })],
      ["POST /api/notifications/read-all", () => anonymous["read-all"].$post()],
    ] as const) {
      expect((await res()).status, path).toBe(401);
    }
  });

  it("mark one read, then all", async () => {
    const w = await ethWallet();
    const a = await oneNotification(w);
    await oneNotification(w);
    expect(await unread(w)).toBe(2);
    const res = await client(w, { "cf-connecting-ip": IP }).notifications[":id"].read.$post({ param: { id: String(a.id) } });
    expect(await res.json()).toEqual({ success: true, unread: 1 });
    expect((await inbox(w)).notifications.find((n) => n.id === a.id)?.read).toBe(true);
    // Again is fine.
    expect((await client(w, { "cf-connecting-ip": IP }).notifications[":id"].read.$post({ param: { id: String(a.id) } })).status).toBe(200);
    expect(await (await client(w, { "cf-connecting-ip": IP }).notifications["read-all"].$post()).json()).toEqual({ success: true, unread: 0 });
    expect(await unread(w)).toBe(0);
  });

  it("another wallet's notification is 404, as an unknown one is, and stays unread", async () => {
    const owner = await ethWallet();
    const stranger = await ethWallet();
    const n = await oneNotification(owner);
    const res = await client(stranger, { "cf-connecting-ip": IP }).notifications[":id"].read.$post({ param: { id: String(n.id) } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Not Found", message: "Notification not found" });
    expect(await (await client(stranger, { "cf-connecting-ip": IP }).notifications[":id"].read.$post({ param: { id: "99999999" } })).json()).toEqual({
      error: "Not Found",
      message: "Notification not found",
    });
    await client(stranger, { "cf-connecting-ip": IP }).notifications["read-all"].$post();
    expect((await inbox(owner)).notifications.find((x) => x.id === n.id)?.read).toBe(false);
    expect((await inbox(stranger)).notifications.map((x) => x.id)).not.toContain(n.id);
  });

  it("malformed ids, limits and cursors are 400", async () => {
    const w = await ethWallet();
    for (const id of ["abc", "0"])
      expect((await client(w, { "cf-connecting-ip": IP }).notifications[":id"].read.$post({ param: { id } })).status, id).toBe(400);
    for (const query of [{ limit: "0" }, { limit: "51" }, { limit: "x" }, { before: "yesterday" }, { before: "1-2-3" }]) {
      const res = await client(w).notifications.$get({ query });
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
  });

  it("pages with the cursor, newest first", async () => {
    const w = await ethWallet();
    const now = Date.now();
    await env.DB.batch(
      Array.from({ length: 5 }, (_, i) =>
        env.DB.prepare(
          "INSERT INTO notifications (user_id, kind, grp, subject, data, created_at) VALUES (?, 'purchase_completed', 'purchase', ?, '{}', ?)",
        ).bind(w.userId, `purchase:p${i}`, now - i * 1000),
      ),
    );
    const first = await inbox(w, { limit: "3" });
    expect(first.notifications).toHaveLength(3);
    expect(first.nextCursor).not.toBeNull();
    const second = await inbox(w, { limit: "3", before: String(first.nextCursor) });
    expect(second.notifications).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    const all = [...first.notifications, ...second.notifications].map((n) => Date.parse(n.createdAt));
    expect(all).toEqual([...all].sort((a, b) => b - a));
  });
});
