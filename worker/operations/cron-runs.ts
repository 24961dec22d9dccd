// The record of each cron run: when it ran and which tasks failed. /api/health shows the last
// one to admins; the alerts open an incident for a task failing CRON_FAILURE_RUNS runs in a row.
import { desc, eq, lt } from "drizzle-orm";
import { cronRuns } from "../../schema/db";
import type { Db } from "../db/database";

/** Runs kept (the newest); older ones are deleted as new ones are written. A day of runs at one a minute. */
export const CRON_RUNS_KEPT = 1440;

/** "verify: timeout" -> "verify": the task names of a run's errors (scheduled.ts prefixes each with its task). */
export function failedTaskNames(errors: string[]): string[] {
  return [...new Set(errors.map((e) => e.split(":")[0].trim()).filter(Boolean))];
}

/** Records a run; its id. */
export async function recordCronRun(db: Db, startedAt: number, finishedAt: number, errors: string[]): Promise<number> {
  const [inserted] = await db
    .insert(cronRuns)
    .values({ startedAt, finishedAt, failedTasks: failedTaskNames(errors), errors: errors.map((e) => e.slice(0, 300)) })
    .returning({ id: cronRuns.id });
  await db.delete(cronRuns).where(lt(cronRuns.id, inserted.id - CRON_RUNS_KEPT + 1));
  return inserted.id;
}

/** A task that ran after its run was recorded (the alerts) failed: the record takes its failure too. */
export async function rewriteCronRun(db: Db, id: number, finishedAt: number, errors: string[]): Promise<void> {
  await db
    .update(cronRuns)
    .set({ finishedAt, failedTasks: failedTaskNames(errors), errors: errors.map((e) => e.slice(0, 300)) })
    .where(eq(cronRuns.id, id));
}

export type FailingTask = { task: string; since: string; runs: number; lastError: string | null };

/**
 * The tasks that failed in the newest recorded run, each with how many runs in a row it has failed (of `runs`,
 * newest first), since when, and its last error.
 */
export function failingTasks(runs: { startedAt: number; failedTasks: string[]; errors: string[] }[]): FailingTask[] {
  const newest = runs[0];
  if (!newest) return [];
  return newest.failedTasks.map((task) => {
    let n = 0;
    while (n < runs.length && runs[n].failedTasks.includes(task)) n++;
    return {
      task,
      since: new Date(runs[n - 1].startedAt).toISOString(),
      runs: n,
      lastError: newest.errors.find((e) => e.startsWith(`${task}:`)) ?? null,
    };
  });
}

/** The newest `n` runs, newest first. */
export async function lastCronRuns(db: Db, n: number) {
  return db.select().from(cronRuns).orderBy(desc(cronRuns.startedAt), desc(cronRuns.id)).limit(n);
}
