// The cron job's runner (task-table.ts): tasks in order, each only while what it needs holds, and a failing task
// named in the errors without stopping the ones after it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Need, runTasks, type Task } from "./task-table";

type Job = { ran: string[]; open: boolean; failed: Set<string> };
const always: Need<Job> = { says: "nothing", holds: () => true };
const whenOpen: Need<Job> = { says: "the gate open", holds: (j) => j.open };
const afterBFailed: Need<Job> = { says: "b failed", holds: (j) => j.failed.has("b") };
const ok = (name: string, needs = always): Task<Job> => ({ name, needs, run: async (j) => j.ran.push(name) });
const throwing = (name: string, err: unknown): Task<Job> => ({
  name,
  needs: always,
  run: async (j) => {
    j.ran.push(name);
    throw err;
  },
});

async function run(tasks: Task<Job>[], open = true) {
  const job: Job = { ran: [], open, failed: new Set() };
  const errors: string[] = ["payments: skipped"];
  await runTasks(tasks, job, errors, job.failed);
  return { ...job, errors };
}

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe("runTasks", () => {
  it("runs every task once, in the table's order", async () => {
    expect((await run([ok("a"), ok("b"), ok("c")])).ran).toEqual(["a", "b", "c"]);
  });

  it("skips a task whose need does not hold, and only that one", async () => {
    expect((await run([ok("a"), ok("pay", whenOpen), ok("c")], false)).ran).toEqual(["a", "c"]);
    expect((await run([ok("a"), ok("pay", whenOpen), ok("c")], true)).ran).toEqual(["a", "pay", "c"]);
  });

  it("goes on after a failing task, naming it in the errors after what was there, and logging it", async () => {
    const result = await run([ok("a"), throwing("b", new Error("node down\nstack line")), ok("c"), throwing("d", "plain")]);
    expect(result.ran).toEqual(["a", "b", "c", "d"]);
    expect(result.errors).toEqual(["payments: skipped", "b: node down", "d: plain"]);
    expect([...result.failed]).toEqual(["b", "d"]);
    expect(console.error).toHaveBeenCalledWith("scheduled task b failed:", "node down");
  });

  it("lets a later task need an earlier one to have failed", async () => {
    expect((await run([ok("b"), ok("retry", afterBFailed)])).ran).toEqual(["b"]);
    expect((await run([throwing("b", new Error("x")), ok("retry", afterBFailed)])).ran).toEqual(["b", "retry"]);
  });

  it("fails a task that outlives its budget and goes on; the task was told when its budget ends", async () => {
    let deadline = 0;
    const slow: Task<Job> = {
      name: "slow",
      needs: always,
      budgetMs: 20,
      run: (j, d) => {
        deadline = d;
        j.ran.push("slow");
        return new Promise(() => {});
      },
    };
    const before = Date.now();
    const result = await run([slow, ok("after")]);
    expect(result.ran).toEqual(["slow", "after"]);
    expect(result.errors).toEqual(["payments: skipped", "slow: ran out of its 0.02 s budget"]);
    expect(deadline).toBeGreaterThanOrEqual(before + 20);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 20);
  });

  it("says which task is starting before it runs, and a failure to note it fails no task", async () => {
    const job: Job = { ran: [], open: true, failed: new Set() };
    const errors: string[] = [];
    const noted: string[] = [];
    await runTasks([ok("a"), ok("b")], job, errors, job.failed, async (name) => {
      noted.push(`${name} before ${job.ran.length}`);
      if (name === "b") throw new Error("no database");
    });
    expect(noted).toEqual(["a before 0", "b before 1"]);
    expect(job.ran).toEqual(["a", "b"]);
    expect(errors).toEqual([]);
  });

  it("reports a failed query in the database's own words, not drizzle's SQL", async () => {
    const query = new Error("Failed query: select * from t where secret = ?\\nparams: 1", { cause: new Error("D1_ERROR: no such table: t") });
    expect((await run([throwing("q", query)])).errors).toEqual(["payments: skipped", "q: D1_ERROR: no such table: t"]);
  });
});
