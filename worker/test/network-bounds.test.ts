// Bounds per client network, not per wallet (docs/public-surface.md#client-networks): a wallet costs
// nothing, so one client network signing in wallet after wallet must not multiply what it may hold, and no
// number of client networks may fill a table every visitor needs. Each attack runs against the real routes in
// workerd with real D1; a simulated client is a cf-connecting-ip header value, every request goes to loopback.
import { env } from "cloudflare:test";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_OPEN_RESERVATIONS, MAX_OPEN_RESERVATIONS_PER_NETWORK } from "../../schema/purchases";
import type { AuthSession } from "../auth/middleware";
import { NONCE_RATE_LIMIT } from "../auth/nonce";
import { createDb } from "../db/database";
import { planReservation, writeReservation } from "../purchases/reserve";
import { sessionCookie } from "./auth-helpers";
import { inFreshRateWindow } from "./helpers";
import { actors, initiate, listWithKey, walletOf, type Wallet } from "./purchase-fixtures";
import { client } from "./client";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

/** Signs a fresh Ethereum wallet in from `ip`: the nonce, the signature, the session, all from that client. */
async function signInFrom(ip: string): Promise<Wallet> {
  const account = privateKeyToAccount(generatePrivateKey());
  const asked = await client(undefined, { "cf-connecting-ip": ip }).auth.nonce.$post({ json: { network: "ethereum", address: account.address } });
  if (asked.status !== 200) throw new Error(`nonce from ${ip}: ${asked.status} ${await asked.text()}`);
  const { message } = await asked.json();
  const signature: Hex = await account.signMessage({ message: message! });
  const res = await client(undefined, { "cf-connecting-ip": ip }).auth.verify.$post({ json: { network: "ethereum", message: message!, signature } });
  if (res.status !== 200) throw new Error(`verify from ${ip}: ${res.status} ${await res.text()}`);
  return walletOf(account.address, sessionCookie(res), await res.json(), ip);
}

const sessionOf = (w: Wallet): AuthSession => ({
  userId: w.userId,
  network: "ethereum",
  walletAddress: w.address.toLowerCase(),
  isAdmin: false,
  expiresAt: Date.now() + 60_000,
});
const listings = (n: number) => Promise.all(Array.from({ length: n }, () => listWithKey(seller.userId)));
const openCount = async (ids: string[]) =>
  ids.length === 0
    ? 0
    : (await env.DB.prepare(
        `SELECT count(*) AS n FROM transactions WHERE status IN ('initiated','pending','verified') AND id IN (${ids.map(() => "?").join(",")})`,
      )
        .bind(...ids)
        .first<number>("n"))!;

/** Row counts of every table but the per-minute rate counters: what a request stores for longer than a minute. */
async function storedRows(): Promise<Record<string, number>> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' AND name NOT LIKE '%fts%' AND name <> 'rate_limits'",
  ).all<{ name: string }>();
  const counts = await env.DB.batch(results.map((r) => env.DB.prepare(`SELECT count(*) AS n FROM "${r.name}"`)));
  return Object.fromEntries(results.map((r, i) => [r.name, (counts[i].results[0] as { n: number }).n]));
}

describe("open reservations are bounded per client network, whatever the number of wallets", () => {
  it(`an IPv6 /48: six wallets from six /64s, asking for three listings each at once, hold ${MAX_OPEN_RESERVATIONS_PER_NETWORK} in all`, async () => {
    const wallets: Wallet[] = [];
    // Each wallet from another /64 of one /48, as one holder of a /48 can.
    for (let i = 0; i < 6; i++) wallets.push(await signInFrom(`2001:db8:bad:${(i + 1).toString(16)}::${i + 1}`));
    const wanted = await listings(wallets.length * MAX_OPEN_RESERVATIONS);
    const attempts = wallets.flatMap((w, i) => wanted.slice(i * MAX_OPEN_RESERVATIONS, (i + 1) * MAX_OPEN_RESERVATIONS).map((l) => ({ w, l })));
    const answers = await Promise.all(
      attempts.map(async ({ w, l }) =>
        initiate(w, l.id).then(async (r) => ({ status: r.status as number, body: (await r.json()) as { message?: string; transactionId?: string } })),
      ),
    );
    const won = answers.filter((a) => a.status === 201);
    expect(won).toHaveLength(MAX_OPEN_RESERVATIONS_PER_NETWORK);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.length).toBe(attempts.length - MAX_OPEN_RESERVATIONS_PER_NETWORK);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.message).toMatch(new RegExp(`your network already holds ${MAX_OPEN_RESERVATIONS_PER_NETWORK} open reservations`, "i"));
    }
    expect(await openCount(won.map((a) => a.body.transactionId!))).toBe(MAX_OPEN_RESERVATIONS_PER_NETWORK);
    // A wallet of that /48 that holds nothing yet is refused too; one from another /48 is not.
    const late = await signInFrom("2001:db8:bad:ffff::9");
    const free = wanted.find((_, i) => answers[i].status !== 201)!;
    expect((await initiate(late, free.id)).status).toBe(409);
    const neighbour = await signInFrom("2001:db8:bae::1");
    expect((await initiate(neighbour, free.id)).status).toBe(201);
  });

  it("an IPv4 address: its wallets share one bound; one reservation ended frees one place", async () => {
    const ip = "203.0.113.150";
    const wallets = await Promise.all(Array.from({ length: Math.ceil(MAX_OPEN_RESERVATIONS_PER_NETWORK / MAX_OPEN_RESERVATIONS) + 1 }, () => signInFrom(ip)));
    const wanted = await listings(wallets.length * MAX_OPEN_RESERVATIONS);
    const held: string[] = [];
    let refused = 0;
    for (const [i, w] of wallets.entries()) {
      for (const l of wanted.slice(i * MAX_OPEN_RESERVATIONS, (i + 1) * MAX_OPEN_RESERVATIONS)) {
        const res = await initiate(w, l.id);
        if (res.status === 201) held.push((await res.json()).transactionId);
        else {
          expect(res.status).toBe(409);
          refused++;
        }
      }
    }
    expect(held).toHaveLength(MAX_OPEN_RESERVATIONS_PER_NETWORK);
    expect(refused).toBe(wanted.length - MAX_OPEN_RESERVATIONS_PER_NETWORK);
    // The holder cancels one: the network may reserve one more, and no more than that.
    const [first] = held;
    const holder = wallets[0];
    expect((await client(holder).transactions[":id{[0-9a-f-]{36}}"].cancel.$post({ param: { id: first } })).status).toBe(200);
    const last = wallets.at(-1)!;
    const lastListings = wanted.slice(-MAX_OPEN_RESERVATIONS);
    expect((await initiate(last, lastListings[0].id)).status).toBe(201);
    expect((await initiate(last, lastListings[1].id)).status).toBe(409);
  });

  it("every plan read before any write: the INSERT itself stops the network at the bound", async () => {
    // The race a burst of requests makes: all of them have read the listing and the fees (planReservation)
    // before the first writes. Only the INSERT's own condition can count what the others wrote.
    const ip = "203.0.113.151";
    const wallets = await Promise.all(Array.from({ length: Math.ceil(MAX_OPEN_RESERVATIONS_PER_NETWORK / MAX_OPEN_RESERVATIONS) + 1 }, () => signInFrom(ip)));
    const wanted = await listings(wallets.length * MAX_OPEN_RESERVATIONS);
    const db = createDb(env.DB);
    const plans = await Promise.all(
      wanted.map((l, i) => planReservation(db, env, sessionOf(wallets[Math.floor(i / MAX_OPEN_RESERVATIONS)]), { addressId: l.id })),
    );
    const results = await Promise.allSettled(plans.map((plan) => writeReservation(db, plan, { ip, userAgent: null })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_OPEN_RESERVATIONS_PER_NETWORK);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ status: 409 });
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM transactions WHERE client_network = ? AND status = 'initiated'").bind(ip).first<number>("n");
    expect(stored).toBe(MAX_OPEN_RESERVATIONS_PER_NETWORK);
  });
});

describe("sign-in cannot be exhausted for everyone", () => {
  it("nonces asked for by 150 client networks store nothing but per-minute counters; a fresh network then signs in", async () => {
    const before = await storedRows();
    const statuses = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        client(undefined, { "cf-connecting-ip": i % 2 ? `2001:db8:${(0x4000 + i).toString(16)}::1` : `198.19.${i >> 8}.${i & 255}` })
          .auth.nonce.$post({ json: { network: "solana" } })
          .then((r) => r.status),
      ),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(await storedRows()).toEqual(before);
    const wallet = await signInFrom("192.0.2.201");
    expect(wallet.userId).toBeGreaterThan(0);
  });

  it(`IPv6 counts per /48: ${NONCE_RATE_LIMIT.limit} nonces a minute from all its /64s together`, async () => {
    await inFreshRateWindow();
    const statuses: number[] = [];
    for (let i = 0; i <= NONCE_RATE_LIMIT.limit; i++)
      statuses.push(
        (await client(undefined, { "cf-connecting-ip": `2001:db8:cafe:${(i + 1).toString(16)}::1` }).auth.nonce.$post({ json: { network: "solana" } })).status,
      );
    expect(statuses.slice(0, NONCE_RATE_LIMIT.limit).every((s) => s === 200)).toBe(true);
    expect(statuses[NONCE_RATE_LIMIT.limit]).toBe(429);
    expect((await client(undefined, { "cf-connecting-ip": "2001:db8:caff::1" }).auth.nonce.$post({ json: { network: "solana" } })).status).toBe(200);
  });
});

describe("a legitimate buyer from a fresh network signs in and reserves while an attacker runs at full speed", () => {
  it("the attacker hoards from one /48 and floods nonce requests from new networks; the buyer is served", async () => {
    const stock = await listings(MAX_OPEN_RESERVATIONS_PER_NETWORK + 1);
    const statuses: number[] = [];
    const record = (status: number) => {
      statuses.push(status);
      if (buyerStarted && !buyerDone) duringBuyer++;
    };
    const held = new Set<number>();
    let saturated!: () => void;
    const attackerSaturated = new Promise<void>((resolve) => (saturated = resolve));
    let buyerStarted = false;
    let buyerDone = false;
    let duringBuyer = 0;

    // Lane 1: wallet after wallet from new /64s of one /48, each reserving every listing the attacker does not
    // hold yet, as fast as the answers come, until the buyer is done (at most 12 wallets). A round that wins
    // nothing means the attacker holds all it can: the buyer starts then, and the attack goes on.
    const hoard = async () => {
      for (let round = 0; round < 12 && !buyerDone; round++) {
        let wallet: Wallet;
        try {
          wallet = await signInFrom(`2001:db8:a77a:${(round + 1).toString(16)}::1`);
        } catch {
          record(429);
          continue;
        }
        let won = 0;
        for (const l of stock) {
          if (held.has(l.id)) continue;
          const res = await initiate(wallet, l.id);
          record(res.status);
          if (res.status === 201) {
            held.add(l.id);
            won++;
          }
        }
        if (won === 0) saturated();
      }
      saturated();
    };
    // Lane 2: nonce requests from ever new client networks, as fast as they are answered, until the buyer is
    // done (at most 100).
    const flood = async () => {
      for (let i = 0; i < 100 && !buyerDone; i++) {
        const ip = i % 2 ? `2001:db8:${(0x5000 + i).toString(16)}::1` : `198.19.${200 + (i >> 8)}.${i & 255}`;
        record((await client(undefined, { "cf-connecting-ip": ip }).auth.nonce.$post({ json: { network: "solana" } })).status);
      }
    };
    // The buyer: signs in from a network of their own, and buys a listing the site shows as not reserved (the
    // listing's own answer, as its page reads it).
    const buyer = async () => {
      await attackerSaturated;
      buyerStarted = true;
      const wallet = await signInFrom("192.0.2.77");
      for (const l of stock) {
        const view = await (await client(wallet).addresses[":id{[0-9]+}"].$get({ param: { id: String(l.id) } })).json();
        if (view.reservation) continue;
        const res = await initiate(wallet, l.id);
        buyerDone = true;
        expect(res.status).toBe(201);
        return l.id;
      }
      buyerDone = true;
      return null;
    };

    const [, , bought] = await Promise.all([hoard(), flood(), buyer()]);
    expect(bought).not.toBeNull();
    expect(held.has(bought!)).toBe(false);
    expect(held.size).toBeLessThanOrEqual(MAX_OPEN_RESERVATIONS_PER_NETWORK);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // The attack was answered all along the buyer's way, not only before it.
    expect(duringBuyer).toBeGreaterThan(0);
    // A hang guard, not a speed check: on a loaded machine the lanes and the buyer take a minute or more.
  }, 180_000);
});
