// The record of each cron run: when it ran and which tasks failed. /api/health shows the last
// one to admins; the alerts open an incident for a task failing CRON_FAILURE_RUNS runs in a row.
import { and, desc, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { cronRuns } from "../../schema/db";
import type { Db } from "../db/database";

/** Runs kept (the newest); older ones are deleted as new ones are written. A day of runs at one a minute. */
export const CRON_RUNS_KEPT = 1440;

/** "verify: timeout" -> "verify": the task names of a run's errors (scheduled.ts prefixes each with its task). */
export function failedTaskNames(errors: string[]): string[] {
  return [...new Set(errors.map((e) => e.split(":")[0].trim()).filter(Boolean))];
}

/**
 * A run still in a task this long after it started was stopped there: the platform ends a scheduled invocation
 * after 15 minutes at most (sooner for memory or CPU time), and an overlapping run that is merely slow is younger.
 */
export const CRON_RUN_STOPPED_AFTER_MS = 15 * 60_000;

/** The error recorded for the task a stopped run was in ("verify: the run was stopped ..."). */
export const RUN_STOPPED_ERROR = "the run was stopped during this task (out of memory or CPU time?)";

/** Records a finished run (its errors so far); its id. */
export async function recordCronRun(db: Db, startedAt: number, finishedAt: number, errors: string[]): Promise<number> {
  const [inserted] = await db
    .insert(cronRuns)
    .values({ startedAt, finishedAt, failedTasks: failedTaskNames(errors), errors: errors.map((e) => e.slice(0, 300)) })
    .returning({ id: cronRuns.id });
  await db.delete(cronRuns).where(lt(cronRuns.id, inserted.id - CRON_RUNS_KEPT + 1));
  return inserted.id;
}

/**
 * Starts a run's record, in its first task: the record exists before any other task can fail or stop the run.
 * The runs stopped in a task (CRON_RUN_STOPPED_AFTER_MS) are closed first, that task recorded as failed.
 */
export async function startCronRun(db: Db, startedAt: number, errors: string[]): Promise<number> {
  const r = cronRuns;
  await db
    .update(r)
    .set({
      failedTasks: sql`json_insert(${r.failedTasks}, '$[#]', ${r.runningTask})`,
      errors: sql`json_insert(${r.errors}, '$[#]', ${r.runningTask} || ${`: ${RUN_STOPPED_ERROR}`})`,
      runningTask: null,
    })
    .where(and(isNotNull(r.runningTask), lt(r.startedAt, startedAt - CRON_RUN_STOPPED_AFTER_MS)));
  const id = await recordCronRun(db, startedAt, startedAt, errors);
  await db.update(r).set({ runningTask: "cron-record" }).where(eq(r.id, id));
  return id;
}

/** Notes the task a run is in (before it starts): if the run is stopped there, the next run knows where. */
export async function noteRunningTask(db: Db, id: number, task: string): Promise<void> {
  await db
    .update(cronRuns)
    .set({ runningTask: task })
    .where(and(eq(cronRuns.id, id), isNotNull(cronRuns.runningTask)));
}

/**
 * Finishes a run's record with all its errors. Not a run closed as stopped meanwhile (one that came back after
 * CRON_RUN_STOPPED_AFTER_MS): its record keeps saying where it stopped.
 */
export async function finishCronRun(db: Db, id: number, finishedAt: number, errors: string[]): Promise<void> {
  await db
    .update(cronRuns)
    .set({ finishedAt, failedTasks: failedTaskNames(errors), errors: errors.map((e) => e.slice(0, 300)), runningTask: null })
    .where(and(eq(cronRuns.id, id), isNotNull(cronRuns.runningTask)));
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

/** The newest `n` finished runs (a run in progress has not told all it did), newest first. */
export async function lastCronRuns(db: Db, n: number) {
  return db.select().from(cronRuns).where(isNull(cronRuns.runningTask)).orderBy(desc(cronRuns.startedAt), desc(cronRuns.id)).limit(n);
}
