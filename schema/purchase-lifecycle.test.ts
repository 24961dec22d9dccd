// The lifecycle module against docs/payments.md: the sets and transitions tables of "The lifecycle" must say exactly
// what schema/purchase-lifecycle.ts declares, and the Deadlines table's exits must be the transitions' to-statuses,
// so a change on either side alone fails here. Then the guard that SQL in purchases/ and orders/ names statuses only
// through worker/purchases/status-sql.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { linesWhere, reachedStatuses, workerSources } from "../scripts/test/lifecycle-checks";
import { backticked, list, section, table } from "../scripts/test/markdown-tables";
import {
  isIn,
  OPEN,
  PAYABLE,
  PAYMENT_RECORDED,
  PURCHASE_STATUSES,
  PURCHASE_TRANSITIONS,
  type PurchaseStatus,
  SOLD,
  TERMINAL,
  type TransitionName,
  transitionFrom,
  transitionTo,
  without,
} from "./purchase-lifecycle";

const root = path.join(import.meta.dirname, "..");
const doc = fs.readFileSync(path.join(root, "docs", "payments.md"), "utf8");

/** The purchase statuses named in backticks in a cell, in order, each once. */
const statusesIn = (cell: string) => backticked(cell, PURCHASE_STATUSES);

const lifecycle = section(doc, "The lifecycle", "docs/payments.md");

describe("the purchase lifecycle", () => {
  it("docs/payments.md's sets table names exactly the declared sets", () => {
    const declared = { OPEN, PAYABLE, SOLD, PAYMENT_RECORDED, TERMINAL };
    const rows = table(lifecycle, ["set", "statuses", "meaning"]);
    expect(Object.fromEntries(rows.map(([name, statuses]) => [name.replace(/`/g, ""), list(statuses)]))).toEqual(
      Object.fromEntries(Object.entries(declared).map(([name, set]) => [name, [...set]])),
    );
  });

  it("docs/payments.md's transitions table is PURCHASE_TRANSITIONS: name, from, to, trigger and meaning", () => {
    const rows = table(lifecycle, ["transition", "from", "to", "by", "what"]);
    expect(rows.map(([name, from, to, by, what]) => ({ name, from: list(from), to, by: list(by), what }))).toEqual(
      Object.entries(PURCHASE_TRANSITIONS).map(([name, t]) => ({ name, from: [...t.from], to: t.to, by: [...t.by], what: t.what })),
    );
  });

  it("the Deadlines table gives every status a row, and each status's exits are what the transitions lead to from it", () => {
    const rows = table(section(doc, "Deadlines", "docs/payments.md"), ["state", "exits", "when at the latest"]);
    const exits = new Map<PurchaseStatus, PurchaseStatus[]>();
    for (const [state, out] of rows) for (const s of statusesIn(state)) exits.set(s, statusesIn(out).sort());
    expect([...exits.keys()].sort()).toEqual([...PURCHASE_STATUSES].sort());
    for (const s of PURCHASE_STATUSES) {
      const declared = Object.values(PURCHASE_TRANSITIONS)
        .filter((t) => isIn(t.from, s) && t.to !== s)
        .map((t) => t.to);
      expect(exits.get(s), s).toEqual([...new Set(declared)].sort());
    }
    // "terminal" in the table is TERMINAL.
    const terminal = rows.find(([, out]) => out === "terminal");
    expect(statusesIn(terminal?.[0] ?? "")).toEqual([...TERMINAL]);
  });

  it("no transition leads into verified, and nothing leaves a terminal status", () => {
    const targets: PurchaseStatus[] = Object.values(PURCHASE_TRANSITIONS).map((t) => t.to);
    expect(targets).not.toContain("verified");
    for (const t of Object.values(PURCHASE_TRANSITIONS)) for (const s of t.from) expect(isIn(TERMINAL, s)).toBe(false);
  });

  it("every status but verified is reached from a reservation (every one a purchase can be in has a way in)", () => {
    expect(reachedStatuses(Object.values(PURCHASE_TRANSITIONS))).toEqual([...without(PURCHASE_STATUSES, "verified")].sort());
  });

  it("every open status but verified has an exit to a terminal status that the clock takes (the cron job)", () => {
    for (const s of without(OPEN, "verified")) {
      const byClock = Object.values(PURCHASE_TRANSITIONS).filter(
        (t) => isIn(t.from, s) && isIn(TERMINAL, t.to) && (t.by as readonly string[]).includes("cron"),
      );
      expect(byClock.length, s).toBeGreaterThan(0);
    }
    // The clock's exits: an unpaid reservation expires, a pending purchase closes past its last deadline.
    expect(transitionFrom("expire")).toEqual(["initiated"]);
    expect(PURCHASE_TRANSITIONS.expire.by).toContain("cron");
    expect(transitionFrom("close-overdue")).toEqual(["pending"]);
    expect(PURCHASE_TRANSITIONS["close-overdue"].by).toEqual(["cron"]);
  });

  it("the sets keep PURCHASE_STATUSES order and agree with each other", () => {
    for (const set of [OPEN, PAYABLE, SOLD, PAYMENT_RECORDED, TERMINAL]) {
      expect(PURCHASE_STATUSES.filter((s) => isIn(set, s))).toEqual([...set]);
    }
    expect(PAYABLE.every((s) => isIn(OPEN, s))).toBe(true);
    expect(without(OPEN, ...PAYABLE)).toEqual(["verified"]);
    // Every status is open or terminal, never both.
    expect(without(PURCHASE_STATUSES, ...OPEN)).toEqual([...TERMINAL]);
    expect(transitionTo("settle")).toBe("completed");
    expect(isIn(SOLD, transitionTo("settle"))).toBe(true);
  });

  it("transition names are what the code passes (a typo is a type error; here, the list)", () => {
    const names: TransitionName[] = [
      "reserve",
      "offer-accept",
      "order-pay",
      "report",
      "wait",
      "settle",
      "reopen",
      "reject",
      "cancel",
      "expire",
      "close-overdue",
      "admin-close",
    ];
    expect(Object.keys(PURCHASE_TRANSITIONS)).toEqual(names);
  });
});

describe("SQL in worker/", () => {
  // Every Worker file but the tests and status-sql.ts itself: a purchase status is read in listings, analytics and
  // the rate limits too.
  const files = workerSources(root);
  // The statuses no other lifecycle shares (cancelled and expired are custom orders' and offers' too: their own
  // guards hold those directories). In SQL quotes, or beside a status column in drizzle's eq/ne/inArray/notInArray.
  const words = "initiated|pending|verified|completed|failed";
  const sqlLiteral = new RegExp(`'(${words})'`);
  const builderLiteral = new RegExp(`\\b(eq|ne|inArray|notInArray)\\(\\s*[\\w.]*\\.status,\\s*\\[?\\s*"(${words})"`);

  it("names no purchase status as a literal: every one comes from a set or a transition through status-sql.ts", () => {
    expect(files.length).toBeGreaterThan(100);
    const found = linesWhere(root, files, (line) => sqlLiteral.test(line) || builderLiteral.test(line));
    expect(found).toEqual([]);
  });
});
