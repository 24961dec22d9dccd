// The custom order lifecycle against docs/custom-orders.md#the-flow (its sets and transitions tables must say what
// schema/order-lifecycle.ts declares), the shape of the lifecycle (every status reached, nothing leaves an end, every
// unfinished status has an exit the clock takes), the partial indexes written with its sets, and the guard that code
// in worker/orders names no status as a literal, in either quote style.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { linesWhere, reachedStatuses } from "../scripts/test/lifecycle-checks";
import { list, section, table } from "../scripts/test/markdown-tables";
import { CUSTOM_ORDER_STATUSES, ORDER_ENDED, ORDER_TRANSITIONS, ORDER_UNFINISHED, ORDER_WAITING, ORDER_WITHDRAWN, orderIn } from "./order-lifecycle";

const root = path.join(import.meta.dirname, "..");
const flow = section(fs.readFileSync(path.join(root, "docs", "custom-orders.md"), "utf8"), "The flow", "docs/custom-orders.md");
const transitions = Object.values(ORDER_TRANSITIONS);

describe("the custom order lifecycle", () => {
  it("docs/custom-orders.md's sets table names exactly the declared sets", () => {
    const rows = table(flow, ["set", "statuses", "meaning"]);
    expect(Object.fromEntries(rows.map(([name, statuses]) => [name.replace(/`/g, ""), list(statuses)]))).toEqual({
      ORDER_WAITING: [...ORDER_WAITING],
      ORDER_UNFINISHED: [...ORDER_UNFINISHED],
      ORDER_ENDED: [...ORDER_ENDED],
      ORDER_WITHDRAWN: [...ORDER_WITHDRAWN],
    });
  });

  it("docs/custom-orders.md's transitions table is ORDER_TRANSITIONS", () => {
    const rows = table(flow, ["transition", "from", "to", "by", "what"]);
    expect(rows.map(([name, from, to, by, what]) => ({ name, from: list(from), to, by: list(by), what }))).toEqual(
      Object.entries(ORDER_TRANSITIONS).map(([name, t]) => ({ name, from: [...t.from], to: t.to, by: [...t.by], what: t.what })),
    );
  });

  it("every status is reached from a new order, nothing leaves an ended one, and every unfinished one has an exit the clock takes", () => {
    expect(reachedStatuses(transitions)).toEqual([...CUSTOM_ORDER_STATUSES].sort());
    for (const t of transitions) for (const s of t.from) expect(orderIn(ORDER_ENDED, s), `${t.to} from ${s}`).toBe(false);
    for (const s of ORDER_UNFINISHED) {
      expect(
        transitions.some((t) => orderIn(t.from, s) && orderIn(ORDER_ENDED, t.to) && (t.by as readonly string[]).includes("cron")),
        s,
      ).toBe(true);
    }
  });

  it("the sets keep CUSTOM_ORDER_STATUSES order; unfinished and ended partition the statuses", () => {
    for (const set of [ORDER_WAITING, ORDER_UNFINISHED, ORDER_ENDED, ORDER_WITHDRAWN]) {
      expect(CUSTOM_ORDER_STATUSES.filter((s) => orderIn(set, s))).toEqual([...set]);
    }
    expect(CUSTOM_ORDER_STATUSES.filter((s) => !orderIn(ORDER_UNFINISHED, s))).toEqual([...ORDER_ENDED]);
    expect(ORDER_WITHDRAWN.every((s) => orderIn(ORDER_ENDED, s))).toBe(true);
  });

  it("the partial indexes are written with the sets, as status-sql writes them", () => {
    const literal = (set: readonly string[]) => (set.length === 1 ? `status = '${set[0]}'` : `status IN (${set.map((s) => `'${s}'`).join(", ")})`);
    const sqlOf = (file: string) => fs.readFileSync(path.join(root, "migrations", file), "utf8");
    expect(sqlOf("0025_order_grinders.sql")).toContain(`ON \`custom_orders\` (\`grind_deadline\`) WHERE ${literal(ORDER_TRANSITIONS["expire-unfound"].from)}`);
    expect(sqlOf("0012_custom_orders.sql")).toContain(`ON \`custom_orders\` (\`payment_deadline\`) WHERE ${literal(ORDER_TRANSITIONS["expire-unpaid"].from)}`);
  });
});

describe("code in worker/orders", () => {
  const dir = path.join(root, "worker", "orders");
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "status-sql.ts");

  it("names no custom order status as a literal, in either quote style", () => {
    expect(files.length).toBeGreaterThan(5);
    const literal = new RegExp(`(['"])(${CUSTOM_ORDER_STATUSES.join("|")})\\1`);
    const found = linesWhere(dir, files, (line) => literal.test(line));
    expect(found).toEqual([]);
  });
});
