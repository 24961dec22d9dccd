// Fixed-window rate limiting in D1 (table rate_limits). One atomic upsert counts the request and returns
// the window's count, so concurrent requests from one client are all counted; the same batch drops
// windows that have ended, which keeps the table to about one row per active client. D1 rather than a
// Workers rate-limit binding so it behaves the same under `wrangler dev` and in the worker tests.
import { and, eq, lt, type SQL, sql } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import type { Network } from "../../schema/db";
import { rateLimits, transactions, users } from "../../schema/db";
import { createDb, type Db, type RowOf, writeBatch } from "../db/database";
import type { AppEnv } from "../types";
import { INITIATE_RATE_LIMIT } from "../../schema/purchases";
import { normalizeWallet } from "../domain/users";
import { ApiError } from "./errors";
import { paidPurchase } from "../purchases/market-sale";

/** The IPv6 prefix length counted as one client network (docs/public-surface.md#client-networks). */
export const IPV6_CLIENT_PREFIX = 48;

/**
 * The network a client address stands for when counting: an IPv4 address is one client; an IPv6 address counts
 * as its /48. A /64 is one subscriber's smallest allocation, but a /48 (65,536 /64s) is what a tunnel broker
 * hands out for free and a host rents for little, so counting per /64 would let one party count as thousands.
 */
export function clientNetwork(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(":")) return ip;
  const [head, tail = null] = ip.toLowerCase().split("%")[0].split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === null ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return ip;
  return `${groups
    .slice(0, IPV6_CLIENT_PREFIX / 16)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/${IPV6_CLIENT_PREFIX}`;
}

/** The longest window RATE_LIMIT_WINDOW_MS may set: a day. */
const LONGEST_RATE_WINDOW_MS = 86_400_000;

/**
 * The window a limit counts in: RATE_LIMIT_WINDOW_MS when it is a whole number of milliseconds from the limit's
 * own window (a minute for every limit here) up to a day, else the limit's own window. It can only lengthen a
 * window, which keeps each limit's count and so only refuses sooner: a typo or a too-short value can never let
 * more requests through than production's limits. The test projects set a day, so a test that fills a window
 * does not straddle two of them (docs/configuration.md#optional-settings).
 */
export function rateWindowMs(env: { RATE_LIMIT_WINDOW_MS?: string }, ownWindowMs: number): number {
  const raw = env.RATE_LIMIT_WINDOW_MS;
  if (raw === undefined || !/^\d{1,8}$/.test(raw)) return ownWindowMs;
  const ms = Number(raw);
  return ms >= ownWindowMs && ms <= LONGEST_RATE_WINDOW_MS ? ms : ownWindowMs;
}

/** A window in words: "minute", "hour", "day", else whole seconds. */
function windowWords(windowMs: number): string {
  if (windowMs === 60_000) return "minute";
  if (windowMs === 3_600_000) return "hour";
  if (windowMs === 86_400_000) return "day";
  return `${Math.round(windowMs / 1000)} seconds`;
}

/**
 * Counts one request for each key in the current window; the counts including this one, in order. The sweep
 * drops every row more than one window old, whichever limiter wrote it: every limiter here counts in the same
 * window (a minute, or RATE_LIMIT_WINDOW_MS), and one with a longer window would need the sweep to keep its rows
 * that long.
 */
export async function countRequests(d1: D1Database, keys: readonly string[], windowMs: number, now: number): Promise<number[]> {
  const windowStart = now - (now % windowMs);
  const db = createDb(d1);
  const r = rateLimits;
  const counting = { count: r.count };
  const [, ...counted] = await writeBatch(db, [
    db.delete(r).where(lt(r.windowStart, windowStart - windowMs)),
    ...keys.map((key) =>
      db
        .insert(r)
        .values({ key, windowStart, count: 1 })
        .onConflictDoUpdate({ target: [r.key, r.windowStart], set: { count: sql`${r.count} + 1` } })
        .returning(counting),
    ),
  ]);
  // The raw rows of RETURNING "count": the column's own name and type.
  return counted.map((res) => (res.results as RowOf<typeof counting>[])[0]?.count ?? 1);
}

/** Counts one request for `key` in the current window; the count including this one. */
export async function countRequest(d1: D1Database, key: string, windowMs: number, now: number): Promise<number> {
  return (await countRequests(d1, [key], windowMs, now))[0];
}

/** One bucket a request is counted in, and what to tell a client that has filled it. */
export type LimitCheck = { key: string; limit: number; refusal: string };

/**
 * Counts the request in every bucket and refuses with 429 (docs/api.md#conventions) once any is over its limit, with a
 * Retry-After header giving the seconds until the window ends.
 */
export async function enforceLimits(d1: D1Database, checks: readonly LimitCheck[], windowMs: number, now = Date.now()): Promise<void> {
  const counts = await countRequests(
    d1,
    checks.map((check) => check.key),
    windowMs,
    now,
  );
  const over = checks.find((check, i) => counts[i] > check.limit);
  if (!over) return;
  const retryAfter = Math.max(1, Math.ceil((windowMs - (now % windowMs)) / 1000));
  throw new ApiError(429, `${over.refusal} Wait ${retryAfter} seconds and try again.`, {}, { "Retry-After": String(retryAfter) });
}

/**
/**
 * Counts the request against its client network (an IPv4 address or an IPv6 /48) for `name`; the 429 to answer once
 * the network has made more than `limit` within the current window (`ownWindowMs`, or RATE_LIMIT_WINDOW_MS:
 * rateWindowMs), or null. Retry-After is one whole window.
 */
export async function countNetwork(c: Context<AppEnv>, name: string, limit: number, ownWindowMs: number): Promise<ApiError | null> {
  const windowMs = rateWindowMs(c.env, ownWindowMs);
  const count = await countRequest(c.env.DB, `${name}:${clientNetwork(c.var.requestInfo.ip)}`, windowMs, Date.now());
  if (count <= limit) return null;
  const seconds = Math.round(windowMs / 1000);
  const wait = windowMs === 60_000 ? "a minute" : `${seconds} seconds`;
  return new ApiError(429, `Too many requests: at most ${limit} per ${seconds} seconds. Wait ${wait} and try again.`, {}, { "Retry-After": String(seconds) });
}

/** Refuses with 429 once a client network (an IPv4 address or an IPv6 /48) has made `limit` requests to `name` within the current window. */
export function rateLimit(name: string, limit: number, ownWindowMs: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const over = await countNetwork(c, name, limit, ownWindowMs);
    if (over) throw over;
    await next();
  };
}

/**
 * In SQL: the purchase rows that make `buyer` a returning buyer, one who has paid for a purchase on this store, a custom
 * order's included (paidPurchase, worker/purchases/market-sale.ts). Such a wallet is bounded by its own allowance, not its client network's
 * (docs/public-surface.md#returning-buyers): a completed purchase cost its wallet the price and the fees, which a
 * wallet made to multiply a network's allowance has not paid. The transactions_buyer_open index (buyer_id, status)
 * finds them.
 */
const completedPurchase = (buyer: SQL) =>
  sql`EXISTS (SELECT 1 FROM ${transactions} WHERE ${transactions.buyerId} = ${buyer} AND ${paidPurchase(transactions)})`;

/** Whether the signed-in wallet `userId` has completed a purchase here (a returning buyer). */
export async function isReturningBuyer(db: Db, userId: number): Promise<boolean> {
  const row = await db.get<{ yes: number }>(sql`SELECT ${completedPurchase(sql`${userId}`)} AS yes`);
  return row.yes === 1;
}

/**
 * Whether the wallet `address` of `network` has completed a purchase here, before it is proven (sign-in). This
 * says no more than the chain does: a completed purchase is a transfer from that wallet to the platform address.
 */
export async function isReturningWallet(db: Db, network: Network, address: string): Promise<boolean> {
  const row = await db
    .select({ yes: completedPurchase(sql`${users.id}`) })
    .from(users)
    .where(and(eq(users.network, network), eq(users.walletAddress, normalizeWallet(network, address))))
    .get();
  return row?.yes === 1;
}

/**
 * The bucket a wallet's holdings (open reservations, offers) are counted in, and stored with them: the wallet's own
 * (`wallet:<id>`) once it is a returning buyer, so its neighbours' holdings never refuse it and its own never
 * refuse them; otherwise its client network, which a wallet made for free cannot escape.
 */
export async function holdingsBucket(db: Db, userId: number, ip: string): Promise<string> {
  return (await isReturningBuyer(db, userId)) ? `wallet:${userId}` : clientNetwork(ip);
}

const perWindow = (limit: number, windowMs: number) => `at most ${limit} per ${windowWords(windowMs)}`;

/** A limit for signed-in calls: per wallet (a user, whatever address they come from) and per client network (many wallets, one client). */
export type SignedInLimit = { perWallet: number; perClient: number; windowMs: number; what: string };

/**
 * The buckets a signed-in call is counted in: its wallet's, and its client network's unless the wallet is a returning
 * buyer (`byWalletAlone`), which its own allowance bounds.
 */
function signedInChecks(name: string, limit: SignedInLimit, userId: number, ip: string, byWalletAlone = false): LimitCheck[] {
  const wallet: LimitCheck = {
    key: `${name}:user:${userId}`,
    limit: limit.perWallet,
    refusal: `Too many ${limit.what}: ${perWindow(limit.perWallet, limit.windowMs)} from one wallet.`,
  };
  if (byWalletAlone) return [wallet];
  return [
    wallet,
    {
      key: `${name}:net:${clientNetwork(ip)}`,
      limit: limit.perClient,
      refusal: `Too many ${limit.what} from your network: ${perWindow(limit.perClient, limit.windowMs)}.`,
    },
  ];
}

/**
 * For routes that act for a signed-in wallet: counts the request against the wallet and against the client's
 * network. Mounted after the session and the input are checked, so neither a visitor nor a malformed request
 * writes anything, not even a counter row. A request without a session is passed on uncounted: the route
 * itself must refuse it (401) without writing.
 */
export function limitSignedIn(name: string, limit: SignedInLimit, opts: { returningBuyersByWallet?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const session = c.var.session;
    if (session) {
      const windowMs = rateWindowMs(c.env, limit.windowMs);
      const byWalletAlone = opts.returningBuyersByWallet === true && (await isReturningBuyer(createDb(c.env.DB), session.userId));
      await enforceLimits(c.env.DB, signedInChecks(name, { ...limit, windowMs }, session.userId, c.var.requestInfo.ip, byWalletAlone), windowMs);
    }
    await next();
  };
}

/**
 * Reservations (a purchase's, or a custom order's payment, which reserves its listing), counted per wallet and
 * per client network: they are what a hoarder would multiply, and wallets cost nothing; a returning buyer's per
 * wallet alone (isReturningBuyer). 429 past INITIATE_RATE_LIMIT. How many a network may hold at once is bounded in the reservation's INSERT itself
 * (MAX_OPEN_RESERVATIONS_PER_NETWORK, purchases/reserve.ts).
 */
export async function limitReservations(env: Env, userId: number, ip: string, now = Date.now()): Promise<void> {
  const windowMs = rateWindowMs(env, INITIATE_RATE_LIMIT.windowMs);
  const byWalletAlone = await isReturningBuyer(createDb(env.DB), userId);
  await enforceLimits(env.DB, signedInChecks("initiate", { ...INITIATE_RATE_LIMIT, windowMs }, userId, ip, byWalletAlone), windowMs, now);
}
