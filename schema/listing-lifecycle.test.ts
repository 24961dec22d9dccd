// The listing lifecycle against docs/listings.md#states (its states, sets and transitions tables must say what
// schema/listing-lifecycle.ts declares), the shape of the lifecycle, the SQL that names its sets (the partial search
// indexes' term, migration 0049's list, the NOT IN form of a wide set), and the guard that code in worker/ names a
// listing status only through the module: no literal in SQL quotes, none in drizzle's eq/ne/inArray/notInArray on a
// status column, none beside a status in TypeScript.
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { linesWhere, reachedStatuses, workerSources } from "../scripts/test/lifecycle-checks";
import { backticked, list, section, table } from "../scripts/test/markdown-tables";
import { listingCanMove, listingStatusIn, listingStatusIs, onMarket } from "../worker/listings/status-sql";
import { ADMIN_STATUS_FILTERS } from "./constants";
import { BROWSABLE_SQL } from "./db/listings";
import {
  changeTransition,
  inListingSet,
  isOnMarket,
  LISTING_BROWSABLE,
  LISTING_CHANGEABLE,
  LISTING_ENDED,
  LISTING_KEPT,
  LISTING_ON_MARKET,
  LISTING_STATUSES,
  LISTING_TRANSITIONS,
  type ListingStatus,
  type ListingTransitionName,
  listingTo,
} from "./listing-lifecycle";

const root = path.join(import.meta.dirname, "..");
const states = section(fs.readFileSync(path.join(root, "docs", "listings.md"), "utf8"), "States", "docs/listings.md");
const transitions = Object.values(LISTING_TRANSITIONS);
const dialect = new SQLiteSyncDialect();
const text = (q: ReturnType<typeof sql>) => dialect.sqlToQuery(q).sql;

describe("the listing lifecycle", () => {
  it("docs/listings.md's sets table names exactly the declared sets", () => {
    const rows = table(states, ["set", "statuses", "meaning"]);
    expect(Object.fromEntries(rows.map(([name, statuses]) => [name.replace(/`/g, ""), list(statuses)]))).toEqual({
      LISTING_ON_MARKET: [...LISTING_ON_MARKET],
      LISTING_CHANGEABLE: [...LISTING_CHANGEABLE],
      LISTING_ENDED: [...LISTING_ENDED],
      LISTING_BROWSABLE: [...LISTING_BROWSABLE],
      LISTING_KEPT: [...LISTING_KEPT],
    });
  });

  it("docs/listings.md's transitions table is LISTING_TRANSITIONS: name, from, to, trigger and meaning", () => {
    const rows = table(states, ["transition", "from", "to", "by", "what"]);
    expect(rows.map(([name, from, to, by, what]) => ({ name, from: list(from), to, by: list(by), what }))).toEqual(
      Object.entries(LISTING_TRANSITIONS).map(([name, t]) => ({ name, from: [...t.from], to: t.to, by: [...t.by], what: t.what })),
    );
  });

  it("the states table gives every status a row, and each one's exits are what the transitions lead to from it", () => {
    const exits = new Map<ListingStatus, ListingStatus[]>();
    for (const [state, , out] of table(states, ["state", "meaning", "exits"])) {
      for (const s of backticked(state, LISTING_STATUSES)) exits.set(s, backticked(out, LISTING_STATUSES).sort());
    }
    expect([...exits.keys()].sort()).toEqual([...LISTING_STATUSES].sort());
    for (const s of LISTING_STATUSES) {
      const declared = transitions.filter((t) => inListingSet(t.from, s) && t.to !== s).map((t) => t.to);
      expect(exits.get(s), s).toEqual([...new Set(declared)].sort());
    }
  });

  it("every status is reached from a new listing, nothing leaves an ended one, and pending is gone", () => {
    expect(reachedStatuses(transitions)).toEqual([...LISTING_STATUSES].sort());
    for (const t of transitions) for (const s of t.from) expect(inListingSet(LISTING_ENDED, s), `${t.to} from ${s}`).toBe(false);
    expect(LISTING_STATUSES as readonly string[]).not.toContain("pending");
  });

  it("the sets keep LISTING_STATUSES order; changeable and ended partition the statuses, kept is all but deleted", () => {
    for (const set of [LISTING_ON_MARKET, LISTING_CHANGEABLE, LISTING_ENDED, LISTING_BROWSABLE, LISTING_KEPT]) {
      expect(LISTING_STATUSES.filter((s) => inListingSet(set, s))).toEqual([...set]);
    }
    expect(LISTING_STATUSES.filter((s) => !inListingSet(LISTING_CHANGEABLE, s))).toEqual([...LISTING_ENDED]);
    expect(LISTING_STATUSES.filter((s) => !inListingSet(LISTING_KEPT, s))).toEqual([listingTo("delete")]);
    expect(LISTING_ON_MARKET.every((s) => inListingSet(LISTING_CHANGEABLE, s) && inListingSet(LISTING_BROWSABLE, s))).toBe(true);
    expect(ADMIN_STATUS_FILTERS).toEqual(["all", ...LISTING_KEPT]);
  });

  it("what a seller or an admin chooses is a transition of its own; on the market needs the flag too", () => {
    expect(LISTING_CHANGEABLE.map(changeTransition)).toEqual(["activate", "deactivate"]);
    expect(LISTING_CHANGEABLE.map((s) => listingTo(changeTransition(s)))).toEqual([...LISTING_CHANGEABLE]);
    expect(isOnMarket({ status: "active", isListed: true })).toBe(true);
    expect(isOnMarket({ status: "active", isListed: false })).toBe(false);
    expect(isOnMarket({ status: "inactive", isListed: true })).toBe(false);
  });

  it("the transition names are what the code passes", () => {
    const names: ListingTransitionName[] = ["list", "add-inactive", "order-found", "activate", "deactivate", "delete", "sell", "deliver-order", "retire-order"];
    expect(Object.keys(LISTING_TRANSITIONS)).toEqual(names);
  });
});

describe("listing statuses in SQL", () => {
  const status = sql.identifier("status");

  it("BROWSABLE_SQL, the partial search indexes' term, is LISTING_BROWSABLE, and the indexes are written with it", () => {
    expect(BROWSABLE_SQL).toBe(`status in (${LISTING_BROWSABLE.map((s) => `'${s}'`).join(", ")})`);
    const migration = fs.readFileSync(path.join(root, "migrations", "0005_browse_search_covering.sql"), "utf8");
    expect(migration).toContain(`WHERE ${BROWSABLE_SQL}`);
  });

  it("one status is an equality the status indexes serve; a wider set is NOT IN the others (same rows, no status index)", () => {
    expect(text(listingStatusIs(status, "sold"))).toBe(`"status" IN ('sold')`);
    expect(text(listingStatusIn(status, LISTING_KEPT))).toBe(`"status" NOT IN ('deleted')`);
    expect(text(listingStatusIn(status, LISTING_CHANGEABLE))).toBe(`"status" NOT IN ('sold', 'deleted')`);
    expect(text(listingCanMove(status, "retire-order"))).toBe(`"status" IN ('active')`);
    expect(text(listingStatusIn(status, LISTING_STATUSES))).toBe(`"status" IN ('active', 'inactive', 'sold', 'deleted')`);
    expect(text(onMarket({ status, isListed: sql.identifier("is_listed") }))).toBe(`"status" IN ('active') AND "is_listed" = 1`);
    expect(() => listingStatusIn(status, [])).toThrow(/never empty/);
    expect(() => listingStatusIn(status, ["pending" as ListingStatus])).toThrow(/not a listing status: pending/);
  });

  it("migration 0049 moves pending rows to a changeable status and its triggers refuse exactly what LISTING_STATUSES leaves out", () => {
    const migration = fs.readFileSync(path.join(root, "migrations", "0049_listing_status_known.sql"), "utf8");
    expect(migration).toContain("UPDATE `addresses` SET `status` = 'inactive' WHERE `status` = 'pending';");
    expect(inListingSet(LISTING_CHANGEABLE, "inactive") && !inListingSet(LISTING_ON_MARKET, "inactive")).toBe(true);
    const known = `WHEN NEW.\`status\` NOT IN (${LISTING_STATUSES.map((s) => `'${s}'`).join(", ")})`;
    expect(migration.split(known).length - 1).toBe(2);
  });
});

describe("code in worker/", () => {
  const files = workerSources(root);
  const words = LISTING_STATUSES.join("|");
  // In SQL text: 'sold'. listing_counts has a `state` column of its own ('available', 'sold'), kept by the triggers
  // of migration 0003; a line on that column is its vocabulary, not a listing status.
  const sqlLiteral = new RegExp(`'(${words})'`);
  const countsState = /\.state\b/;
  // In drizzle's builders on a status column: eq(a.status, "active"), notInArray(a.status, ["sold", "deleted"]).
  const builderLiteral = new RegExp(`\\b(eq|ne|inArray|notInArray)\\(\\s*[\\w.]*\\.status,\\s*\\[?\\s*"(${words})"`);
  // Beside a status in TypeScript: { status: "deleted" }, row.status === "sold", status !== "active".
  const tsLiteral = new RegExp(`\\bstatus\\s*(:|===|!==)\\s*"(${words})"`);
  // A list made only of listing statuses: picklist(["active", "inactive"]).
  const listLiteral = new RegExp(`\\[\\s*"(${words})"(\\s*,\\s*"(${words})")*\\s*\\]`);
  const found = (line: string) =>
    (sqlLiteral.test(line) && !countsState.test(line)) || builderLiteral.test(line) || tsLiteral.test(line) || listLiteral.test(line);

  it("names no listing status as a literal: every one comes from a set or a transition (SQL through status-sql.ts)", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(linesWhere(root, files, found)).toEqual([]);
  });

  it("the guard catches each shape it is for", () => {
    for (const line of [
      "WHERE a.status = 'active' AND a.is_listed = 1",
      'eq(a.status, "active"),',
      'notInArray(a.status, ["sold", "deleted"])',
      '.set({ status: "inactive", updatedAt: now })',
      'if (row.status === "deleted") return;',
      'v.picklist(["active", "inactive"], "status must be active or inactive")',
    ]) {
      expect(found(line), line).toBe(true);
    }
    for (const line of ["WHERE lc.state IN ('available', 'sold')", 'ev.kind === "sold"', '["price_drop", "reserved", "freed", "sold"]', '? "sold" : null']) {
      expect(found(line), line).toBe(false);
    }
  });
});
