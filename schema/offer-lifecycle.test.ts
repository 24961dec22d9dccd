// The offer lifecycle against docs/offers.md#states: the states table's exits, the sets table and the transitions
// table must say exactly what schema/offer-lifecycle.ts declares; the partial indexes that hold the waiting offers
// are written with WAITING; and code in worker/offers names statuses only through the module (SQL through
// worker/offers/status-sql.ts), in either quote style.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { linesWhere, reachedStatuses } from "../scripts/test/lifecycle-checks";
import { backticked, list, section, table } from "../scripts/test/markdown-tables";
import {
  CURRENT,
  ENDED,
  OFFER_STATUSES,
  OFFER_TRANSITIONS,
  type OfferStatus,
  type OfferTransitionName,
  offerCan,
  offerIn,
  offerTo,
  TOLD,
  WAITING,
} from "./offer-lifecycle";

const root = path.join(import.meta.dirname, "..");
const states = section(fs.readFileSync(path.join(root, "docs", "offers.md"), "utf8"), "States", "docs/offers.md");
const statusesIn = (cell: string) => backticked(cell, OFFER_STATUSES);
const transitions = Object.values(OFFER_TRANSITIONS);

describe("the offer lifecycle", () => {
  it("docs/offers.md's sets table names exactly the declared sets", () => {
    const rows = table(states, ["set", "statuses", "meaning"]);
    expect(Object.fromEntries(rows.map(([name, statuses]) => [name.replace(/`/g, ""), list(statuses)]))).toEqual({
      WAITING: [...WAITING],
      CURRENT: [...CURRENT],
      ENDED: [...ENDED],
      TOLD: [...TOLD],
    });
  });

  it("docs/offers.md's transitions table is OFFER_TRANSITIONS: name, from, to, trigger and meaning", () => {
    const rows = table(states, ["transition", "from", "to", "by", "what"]);
    expect(rows.map(([name, from, to, by, what]) => ({ name, from: list(from), to, by: list(by), what }))).toEqual(
      Object.entries(OFFER_TRANSITIONS).map(([name, t]) => ({ name, from: [...t.from], to: t.to, by: [...t.by], what: t.what })),
    );
  });

  it("the states table gives every status a row, and each one's exits are what the transitions lead to from it", () => {
    const exits = new Map<OfferStatus, OfferStatus[]>();
    for (const [state, , out] of table(states, ["state", "meaning", "exits"])) for (const s of statusesIn(state)) exits.set(s, statusesIn(out).sort());
    expect([...exits.keys()].sort()).toEqual([...OFFER_STATUSES].sort());
    for (const s of OFFER_STATUSES) {
      const declared = transitions.filter((t) => offerIn(t.from, s) && t.to !== s).map((t) => t.to);
      expect(exits.get(s), s).toEqual([...new Set(declared)].sort());
    }
  });

  it("every status is reached from a new offer, and nothing leaves an ended one", () => {
    expect(reachedStatuses(transitions)).toEqual([...OFFER_STATUSES].sort());
    for (const t of transitions) for (const s of t.from) expect(offerIn(ENDED, s), `${t.to} from ${s}`).toBe(false);
  });

  it("every waiting status has an exit the clock takes, and an accepted one ends with its purchase (whose own deadlines the clock reaches)", () => {
    for (const s of WAITING) {
      expect(
        transitions.some((t) => offerIn(t.from, s) && offerIn(ENDED, t.to) && (t.by as readonly string[]).includes("cron")),
        s,
      ).toBe(true);
    }
    expect(OFFER_TRANSITIONS.lapse).toMatchObject({ from: ["accepted"], to: "lapsed", by: ["trigger"] });
    expect(OFFER_TRANSITIONS.complete).toMatchObject({ from: ["accepted"], to: "completed", by: ["trigger"] });
  });

  it("the sets keep OFFER_STATUSES order and partition the statuses", () => {
    for (const set of [WAITING, CURRENT, ENDED, TOLD]) expect(OFFER_STATUSES.filter((s) => offerIn(set, s))).toEqual([...set]);
    expect(OFFER_STATUSES.filter((s) => !offerIn(CURRENT, s))).toEqual([...ENDED]);
    expect(WAITING.every((s) => offerIn(CURRENT, s))).toBe(true);
    expect(OFFER_STATUSES.filter((s) => !offerIn(WAITING, s))).toEqual([...TOLD]);
    expect(offerCan("withdraw", "paused")).toBe(true);
    expect(offerCan("accept", "paused")).toBe(false);
    expect(offerTo("make")).toBe("open");
  });

  it("the transition names are what the code passes", () => {
    const names: OfferTransitionName[] = [
      "make",
      "withdraw",
      "accept",
      "pause",
      "decline",
      "expire",
      "end-with-listing",
      "decline-paused",
      "reopen",
      "lapse",
      "complete",
    ];
    expect(Object.keys(OFFER_TRANSITIONS)).toEqual(names);
  });

  it("the partial indexes that hold waiting offers are written with WAITING, as status-sql writes it", () => {
    const migration = fs.readFileSync(path.join(root, "migrations", "0038_offers_paused.sql"), "utf8");
    const waiting = `WHERE status IN (${WAITING.map((s) => `'${s}'`).join(", ")})`;
    for (const index of ["offers_one_open_per_buyer", "offers_buyer_open", "offers_client_open", "offers_open_expiry"]) {
      const line = migration.split("\n").find((l) => l.includes(`CREATE `) && l.includes(`INDEX \`${index}\``));
      expect(line, index).toContain(waiting);
    }
  });
});

describe("code in worker/offers", () => {
  const dir = path.join(root, "worker", "offers");
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "status-sql.ts");

  it("names no offer status as a literal, in either quote style (a switch's case labels aside)", () => {
    expect(files.length).toBeGreaterThan(4);
    const literal = new RegExp(`(['"])(${OFFER_STATUSES.join("|")})\\1`);
    // A switch's case labels aside: tell.ts maps each status to its words.
    const found = linesWhere(dir, files, (line) => literal.test(line) && !/^\s*case\b/.test(line));
    expect(found).toEqual([]);
  });
});
