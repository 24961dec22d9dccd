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
import { NONCE_RATE_LIMIT, RETURNING_SIGN_IN_LIMIT } from "../auth/nonce";
import { createDb } from "../db/database";
import { planReservation, writeReservation } from "../purchases/reserve";
import { sessionCookie } from "./auth-helpers";
import { inFreshRateWindow } from "./helpers";
import { actors, initiate, listWithKey, walletOf, type Wallet } from "./purchase-fixtures";
import { client } from "./client";
import { readDeployment } from "../deployment/deployment";

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

const DAY_MS = 24 * 60 * 60 * 1000;

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
    expect((await client(holder).transactions[":id"].cancel.$post({ param: { id: first } })).status).toBe(200);
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
      wanted.map((l, i) => planReservation(db, readDeployment(env), sessionOf(wallets[Math.floor(i / MAX_OPEN_RESERVATIONS)]), { addressId: l.id })),
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
        const view = await (await client(wallet).addresses[":id"].$get({ param: { id: String(l.id) } })).json();
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

describe("a returning buyer is bounded by its own allowance, a new wallet by its network's", () => {
  it("200 wallets of one network, 20 of them returning buyers: each returning buyer signs in, reserves and offers while the others are refused", async () => {
    const ip = "203.0.113.170";
    const from = { "cf-connecting-ip": ip };
    const accounts = Array.from({ length: 200 }, () => privateKeyToAccount(generatePrivateKey()));
    const returning = accounts.filter((_, i) => i % 10 === 3);
    const fresh = accounts.filter((_, i) => i % 10 !== 3);
    // Each returning buyer's earlier purchase, completed, as settling leaves it (one listing sold per purchase).
    const sold = await Promise.all(returning.map(() => listWithKey(seller.userId, { status: "sold" })));
    const earlier = await env.DB.batch(
      returning.map((a) =>
        env.DB.prepare("INSERT INTO users (username, wallet_address, network) VALUES (?, ?, 'ethereum') RETURNING id").bind(
          `rb_${a.address}`,
          a.address.toLowerCase(),
        ),
      ),
    );
    await env.DB.batch(
      earlier.map((r, i) =>
        env.DB.prepare(
          `INSERT INTO transactions (id, address_id, buyer_id, seller_id, network, price, price_units, currency, total_amount, total_units, status, created_at, completed_at)
           VALUES (?, ?, ?, ?, 'ethereum', '0.5', 50000000, 'ETH', '0.5', 50000000, 'completed', ?, ?)`,
        ).bind(crypto.randomUUID(), sold[i].id, (r.results[0] as { id: number }).id, seller.userId, Date.now() - DAY_MS, Date.now() - DAY_MS),
      ),
    );
    const stock = await listings(MAX_OPEN_RESERVATIONS_PER_NETWORK + 1 + returning.length);
    const nonceFor = (address: string) => client(undefined, from).auth.nonce.$post({ json: { network: "ethereum", address } });
    const verify = async (account: (typeof accounts)[number], message: string, signer = account) => {
      const signature: Hex = await signer.signMessage({ message });
      return client(undefined, from).auth.verify.$post({ json: { network: "ethereum", message, signature } });
    };
    // Past the network's limits now, whatever the minute: a nonce asked for by a new wallet, and a verification (a
    // used message replayed, which signs nothing in), each until the network is refused.
    let replay!: { message: string; signature: Hex };
    const fillNetwork = async () => {
      for (let i = 0; i <= NONCE_RATE_LIMIT.limit; i++) if ((await nonceFor(privateKeyToAccount(generatePrivateKey()).address)).status === 429) break;
      for (let i = 0; i <= NONCE_RATE_LIMIT.limit; i++)
        if ((await client(undefined, from).auth.verify.$post({ json: { network: "ethereum", ...replay } })).status === 429) break;
    };
    // Each phase runs within one minute's window, started with time to spare.
    await inFreshRateWindow(20_000);

    // The 180 new wallets ask for nonces at once: the network's allowance, then 429.
    const asked = await Promise.all(fresh.map(async (a) => ({ a, res: await nonceFor(a.address) })));
    const issued = asked.filter((x) => x.res.status === 200);
    expect(issued).toHaveLength(NONCE_RATE_LIMIT.limit);
    expect(asked.filter((x) => x.res.status === 429)).toHaveLength(fresh.length - NONCE_RATE_LIMIT.limit);
    // They sign in, using up the network's verifications.
    const signedIn = await Promise.all(
      issued.map(async ({ a, res }) => {
        const message = (await res.json()).message!;
        replay = { message, signature: await a.signMessage({ message }) };
        const done = await client(undefined, from).auth.verify.$post({ json: { network: "ethereum", ...replay } });
        expect(done.status).toBe(200);
        return walletOf(a.address, sessionCookie(done), await done.json(), ip);
      }),
    );

    // A stranger on that network claims a returning buyer's wallet, past the network's limits: it gets a nonce (which
    // stores nothing and names that wallet), but without the wallet's key it stores nothing, signs nothing in, and
    // spends none of the wallet's own allowance however often it tries.
    const victim = returning[0];
    const stranger = privateKeyToAccount(generatePrivateKey());
    await inFreshRateWindow(20_000);
    await fillNetwork();
    const before = await storedRows();
    await Promise.all(
      Array.from({ length: RETURNING_SIGN_IN_LIMIT.limit + 1 }, async () => {
        const n = await nonceFor(victim.address);
        expect(n.status).toBe(200);
        const res = await verify(victim, (await n.json()).message!, stranger);
        expect(res.status).toBe(401);
        expect(res.headers.get("set-cookie")).toBeNull();
      }),
    );
    expect(await storedRows()).toEqual(before);
    // A new wallet of the network is still refused a nonce.
    expect((await nonceFor(fresh.at(-1)!.address)).status).toBe(429);

    // Each returning buyer signs in with its own key, past the network's limits (the victim too).
    const back = await Promise.all(
      returning.map(async (a) => {
        const n = await nonceFor(a.address);
        expect(n.status).toBe(200);
        const res = await verify(a, (await n.json()).message!);
        expect(res.status).toBe(200);
        return walletOf(a.address, sessionCookie(res), await res.json(), ip);
      }),
    );

    // Each sign-in is kept on the user: what keeps a wallet from being forgotten once its session is gone.
    const lastSignIn = await env.DB.prepare("SELECT last_sign_in_at AS at FROM users WHERE id = ?").bind(back[0].userId).first<number>("at");
    expect(lastSignIn).toBeGreaterThan(Date.now() - 10 * 60_000);

    // Reservations: the new wallets fill the network's bound, the rest of them are refused; every returning buyer
    // still reserves (and their reservations leave the network's bound as it was).
    const held = new Set<number>();
    for (const w of signedIn) {
      const l = stock.slice(0, MAX_OPEN_RESERVATIONS_PER_NETWORK + 1).find((s) => !held.has(s.id))!;
      const res = await initiate(w, l.id);
      if (held.size < MAX_OPEN_RESERVATIONS_PER_NETWORK) {
        expect(res.status).toBe(201);
        held.add(l.id);
      } else expect(res.status).toBe(409);
    }
    const theirs = stock.slice(MAX_OPEN_RESERVATIONS_PER_NETWORK + 1);
    const reserved = await Promise.all(back.map((w, i) => initiate(w, theirs[i].id).then((r) => r.status)));
    expect(reserved).toEqual(back.map(() => 201));
    const free = stock[MAX_OPEN_RESERVATIONS_PER_NETWORK];
    // Still refused: by the network's bound, or by its reservation calls (30 a minute, which the returning buyers' did
    // not count in) if this minute's are spent.
    expect([409, 429]).toContain((await initiate(signedIn.at(-1)!, free.id)).status);

    // Offers: two new wallets of the network use up its offers on one listing; a returning buyer still makes one.
    const offer = (w: Wallet) => client(w).offers.$post({ json: { addressId: free.id, amount: "0.1", currency: "ETH", validForHours: 24 } });
    const made = [];
    for (const w of signedIn.slice(0, 3)) made.push((await offer(w)).status);
    expect(made).toEqual([201, 201, 409]);
    expect((await offer(back[0])).status).toBe(201);
  }, 180_000);
});
