// The listings version as this Worker isolate last read it from the primary: the edge cache's key part that
// changes on every listing or transaction write (listings_version, bumped by triggers, migration 0010).
//
// Reading it on every request would cost a D1 round trip, as much as most searches, so an isolate trusts
// what it read for `ttlMs` (default 1 s), then for up to another `ttlMs` keeps serving it while a fresh
// read runs in the background, and past 2 x ttlMs waits for a fresh read. A write is therefore seen by
// cached reads within 2 x ttlMs plus one primary round trip (docs/api.md#edge-cache).
//
// The read also yields the primary's bookmark: a cache miss runs its queries in a D1 session started at that
// bookmark, so whatever it stores under version V was read from a replica at least as new as V.
import { eq } from "drizzle-orm";
import { listingsVersion } from "../../schema/db";
import { createDb } from "../db/database";

/** How long an isolate trusts a version it read, unless LISTINGS_VERSION_TTL_MS says otherwise. */
export const DEFAULT_VERSION_TTL_MS = 1000;

export type ListingsVersion = { version: number; bookmark: string | null; readAt: number };

let known: ListingsVersion | null = null;
let reading: Promise<ListingsVersion> | null = null;

/** Tests: start from nothing known. */
export function forgetListingsVersion() {
  known = null;
  reading = null;
}

/** LISTINGS_VERSION_TTL_MS as a whole number of milliseconds (0: read on every request), else the default. */
export function versionTtlMs(env: { LISTINGS_VERSION_TTL_MS?: string }): number {
  const raw = env.LISTINGS_VERSION_TTL_MS;
  return raw !== undefined && /^\d{1,6}$/.test(raw) ? Number(raw) : DEFAULT_VERSION_TTL_MS;
}

async function readFromPrimary(db: D1Database): Promise<ListingsVersion> {
  const session = db.withSession("first-primary");
  const row = await createDb(session).select({ version: listingsVersion.version }).from(listingsVersion).where(eq(listingsVersion.id, 1)).get();
  if (!row) throw new Error("listings_version has no row: migration 0010 not applied");
  return { version: row.version, bookmark: session.getBookmark(), readAt: Date.now() };
}

/** One read at a time per isolate: concurrent requests share it. */
function refresh(db: D1Database): Promise<ListingsVersion> {
  reading ??= readFromPrimary(db)
    .then((v) => {
      // A slower, older read never replaces a newer one.
      if (!known || v.version >= known.version) known = v;
      return known;
    })
    .finally(() => {
      reading = null;
    });
  return reading;
}

/**
 * The version to key this request by. `background` receives the refresh promise when a stale-but-usable
 * version is returned (pass ctx.waitUntil so the read outlives the response).
 */
export async function currentListingsVersion(db: D1Database, ttlMs: number, background: (p: Promise<unknown>) => void): Promise<ListingsVersion> {
  const age = known ? Date.now() - known.readAt : Number.POSITIVE_INFINITY;
  if (known && age < ttlMs) return known;
  if (known && age < 2 * ttlMs) {
    background(refresh(db).catch(() => undefined));
    return known;
  }
  return refresh(db);
}
