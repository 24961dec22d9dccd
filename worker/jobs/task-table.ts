// Runs a table of tasks in order, the way the cron job runs its own (scheduled.ts): a task runs only while what
// it needs holds, within its time budget, and a task that throws or runs out of time is logged and named in the
// errors ("<name>: <message>", the form the cron run's record reads its failed tasks from, operations/cron-runs.ts)
// without stopping the tasks after it.

/** What a task needs before it may run, in words (for readers and tests) and as a check on the job so far. */
export type Need<J> = { says: string; holds: (job: J) => boolean };

/**
 * One task: its name (in errors and the cron run's record), what it needs, its time budget and what it does. `run`
 * is given the time (ms since the epoch) its budget ends: a task that works in chunks stops starting new ones by
 * then. One still running at that time is failed ("ran out of its N s") and the next task starts; what it was doing
 * is not cancelled (a promise cannot be), so each task's writes are guarded as if another run overlapped.
 */
export type Task<J> = { name: string; needs: Need<J>; budgetMs?: number; run: (job: J, deadline: number) => Promise<unknown> };

/** A task's budget unless its line says otherwise. */
export const TASK_BUDGET_MS = 20_000;

/** What went wrong, in one line: for a failed query, the database's own words (drizzle's message would list the SQL). */
export function failure(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error && /^Failed query/.test(err.message) ? err.cause : err;
  return cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
}

/**
 * Runs `tasks` in order on `job`; each failure is pushed onto `errors` and added to `failed` (by name) before the
 * next task's need is checked, so a later task may need an earlier one to have failed. `starting` is told each
 * task's name before it runs (where a run stopped by the platform was; its failure is only logged). Never throws.
 */
export async function runTasks<J>(
  tasks: readonly Task<J>[],
  job: J,
  errors: string[],
  failed: Set<string>,
  starting: (name: string) => Promise<void> = async () => {},
): Promise<void> {
  for (const task of tasks) {
    if (!task.needs.holds(job)) continue;
    await starting(task.name).catch((err) => console.error(`scheduled task ${task.name}: its start not noted:`, failure(err)));
    const budget = task.budgetMs ?? TASK_BUDGET_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outOfTime = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`ran out of its ${budget / 1000} s budget`)), budget);
    });
    try {
      await Promise.race([task.run(job, Date.now() + budget), outOfTime]);
    } catch (err) {
      const message = failure(err);
      console.error(`scheduled task ${task.name} failed:`, message);
      errors.push(`${task.name}: ${message}`);
      failed.add(task.name);
    } finally {
      clearTimeout(timer);
    }
  }
}
