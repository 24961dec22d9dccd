// The ledger's two status columns against docs/payments.md#the-ledger (the sets and transitions tables must say what
// schema/ledger-lifecycle.ts declares), the shape of their lifecycles, and the guard that code names a ledger status
// or refund status only through the module: no literal in SQL quotes, and none beside a status column in TypeScript.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { linesWhere, workerSources } from "../scripts/test/lifecycle-checks";
import { list, section, table } from "../scripts/test/markdown-tables";
import {
  inLedgerSet,
  LEDGER_FINAL,
  LEDGER_HELD,
  LEDGER_STATUSES,
  LEDGER_TRANSITIONS,
  REFUND_CLOSED,
  REFUND_OWED,
  REFUND_STATUSES,
  REFUND_TRANSITIONS,
} from "./ledger-lifecycle";

const root = path.join(import.meta.dirname, "..");
const ledger = section(fs.readFileSync(path.join(root, "docs", "payments.md"), "utf8"), "The ledger", "docs/payments.md");
type Declared = Record<string, { from: readonly string[]; to: string; orNew: boolean; by: readonly string[]; what: string }>;
const rows = (column: string, declared: Declared) =>
  Object.entries(declared).map(([name, t]) => ({ name, column, from: [...(t.orNew ? ["new"] : []), ...t.from], to: t.to, by: [...t.by], what: t.what }));

describe("the ledger's lifecycles", () => {
  it("docs/payments.md's sets table names exactly the declared sets", () => {
    const found = table(ledger, ["set", "statuses", "meaning"]);
    expect(Object.fromEntries(found.map(([name, statuses]) => [name.replace(/`/g, ""), list(statuses)]))).toEqual({
      LEDGER_HELD: [...LEDGER_HELD],
      LEDGER_FINAL: [...LEDGER_FINAL],
      REFUND_OWED: [...REFUND_OWED],
      REFUND_CLOSED: [...REFUND_CLOSED],
    });
  });

  it("docs/payments.md's transitions table is LEDGER_TRANSITIONS then REFUND_TRANSITIONS", () => {
    const found = table(ledger, ["transition", "column", "from", "to", "by", "what"]);
    expect(found.map(([name, column, from, to, by, what]) => ({ name, column, from: list(from), to, by: list(by), what }))).toEqual([
      ...rows("status", LEDGER_TRANSITIONS),
      ...rows("refund_status", REFUND_TRANSITIONS),
    ]);
  });

  it("held and final partition the ledger statuses, owed and closed the refund statuses", () => {
    expect([...LEDGER_HELD, ...LEDGER_FINAL].sort()).toEqual([...LEDGER_STATUSES].sort());
    expect([...REFUND_OWED, ...REFUND_CLOSED].sort()).toEqual([...REFUND_STATUSES].sort());
    expect(inLedgerSet(LEDGER_HELD, null)).toBe(false);
  });

  it("only a held row moves, only an owed refund moves, and every status is written by some transition", () => {
    for (const t of Object.values(LEDGER_TRANSITIONS)) for (const s of t.from) expect(inLedgerSet(LEDGER_HELD, s), t.to).toBe(true);
    for (const t of Object.values(REFUND_TRANSITIONS)) for (const s of t.from) expect(inLedgerSet(REFUND_OWED, s), t.to).toBe(true);
    expect(new Set(Object.values(LEDGER_TRANSITIONS).map((t) => t.to))).toEqual(new Set(LEDGER_STATUSES));
    expect(new Set(Object.values(REFUND_TRANSITIONS).map((t) => t.to))).toEqual(new Set(REFUND_STATUSES));
  });
});

describe("code in worker/", () => {
  const files = workerSources(root);
  const words = [...LEDGER_STATUSES, ...REFUND_STATUSES].join("|");
  // In SQL text: 'held'. Beside a status column in TypeScript: { status: "held" }, row.status === "held", eq(e.refundStatus, "needed").
  const sqlLiteral = new RegExp(`'(${words})'`);
  const tsLiteral = new RegExp(`\\b(status|refundStatus)\\s*(:|===|!==|,)\\s*"(${words})"`);

  it("names no ledger or refund status as a literal, in SQL or beside a status column", () => {
    expect(files.length).toBeGreaterThan(100);
    const found = linesWhere(root, files, (line) => sqlLiteral.test(line) || tsLiteral.test(line));
    expect(found).toEqual([]);
  });
});
