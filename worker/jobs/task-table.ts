// Runs a table of tasks in order, the way the cron job runs its own (scheduled.ts): a task runs only while what
// it needs holds, and a task that throws is logged and named in the errors ("<name>: <message>", the form the
// cron run's record reads its failed tasks from, operations/cron-runs.ts) without stopping the tasks after it.

/** What a task needs before it may run, in words (for readers and tests) and as a check on the job so far. */
export type Need<J> = { says: string; holds: (job: J) => boolean };

/** One task: its name (in errors and the cron run's record), what it needs, and what it does. */
export type Task<J> = { name: string; needs: Need<J>; run: (job: J) => Promise<unknown> };

/** What went wrong, in one line: for a failed query, the database's own words (drizzle's message would list the SQL). */
export function failure(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error && /^Failed query/.test(err.message) ? err.cause : err;
  return cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
}

/**
 * Runs `tasks` in order on `job`; each failure is pushed onto `errors` and added to `failed` (by name) before the
 * next task's need is checked, so a later task may need an earlier one to have failed. Never throws.
 */
export async function runTasks<J>(tasks: readonly Task<J>[], job: J, errors: string[], failed: Set<string>): Promise<void> {
  for (const task of tasks) {
    if (!task.needs.holds(job)) continue;
    try {
      await task.run(job);
    } catch (err) {
      const message = failure(err);
      console.error(`scheduled task ${task.name} failed:`, message);
      errors.push(`${task.name}: ${message}`);
      failed.add(task.name);
    }
  }
}
