// The record of each cron run (issue 24 §4, §5): when it ran and which tasks failed. /api/health shows the last
// one to admins; the alerts open an incident for a task failing CRON_FAILURE_RUNS runs in a row.
import { desc, lt } from "drizzle-orm";
import { cronRuns } from "../../schema/db";
import type { Db } from "../db";

/** Runs kept (the newest); older ones are deleted as new ones are written. A day of runs at one a minute. */
export const CRON_RUNS_KEPT = 1440;

/** "verify: timeout" -> "verify": the task names of a run's errors (scheduled.ts prefixes each with its task). */
export function failedTaskNames(errors: string[]): string[] {
  return [...new Set(errors.map((e) => e.split(":")[0].trim()).filter(Boolean))];
}

export async function recordCronRun(db: Db, startedAt: number, finishedAt: number, errors: string[]): Promise<void> {
  const [inserted] = await db
    .insert(cronRuns)
    .values({ startedAt, finishedAt, failedTasks: failedTaskNames(errors), errors: errors.map((e) => e.slice(0, 300)) })
    .returning({ id: cronRuns.id });
  await db.delete(cronRuns).where(lt(cronRuns.id, inserted.id - CRON_RUNS_KEPT + 1));
}

/** The newest `n` runs, newest first. */
export async function lastCronRuns(db: Db, n: number) {
  return db.select().from(cronRuns).orderBy(desc(cronRuns.startedAt), desc(cronRuns.id)).limit(n);
}
