// Admin > Health's platform sections (docs/operations.md#health): the last cron run with each task's outcome in
// words, the database's migrations against those this version was built with, and the grinders that fill custom
// orders, each by its name in words with what it holds. Each renders from /api/health's `operations` alone, so its
// states (empty, stale, failing) are checked without a server (platform-health.test.tsx).
import { type CronTaskOutcome, cronTaskWords, type GrinderHealth, type GrinderState, type LastCronRun, type MigrationsHealth } from "../../../../schema/health";
import { describeOrderPattern } from "../../../../schema/custom-order-pattern";
import { formatDay, relativeTime } from "../../lib/date-format";
import { compactNumber, formatDuration } from "../../lib/duration";
import { formatCount } from "../../lib/number-format";
import { shortAddress } from "../../lib/short-address";

/** The cron runs once a minute: a last run older than this means the trigger or the Worker stopped running it. */
export const CRON_QUIET_MS = 5 * 60_000;

const OUTCOME: Record<CronTaskOutcome["outcome"], { words: string; tone: string }> = {
  ok: { words: "Done", tone: "text-emerald-300" },
  failed: { words: "Failed", tone: "text-red-300" },
  skipped: { words: "Skipped", tone: "text-amber-200" },
  "not-run": { words: "Did not run", tone: "text-amber-200" },
};

const sectionTitle = (id: string, title: string, about: string) => (
  <div>
    <h2 id={id} className="text-xl font-semibold text-white">
      {title}
    </h2>
    <p className="mt-1 text-sm text-slate-400">{about}</p>
  </div>
);

/** When something happened: the day, and how long ago. */
const when = (at: string, now: number) => `${formatDay(at)}, ${relativeTime(at, now)}`;

export function CronRunPanel({ run, now = Date.now() }: { run: LastCronRun | null; now?: number }) {
  const failed = run?.tasks.filter((t) => t.outcome === "failed").length ?? 0;
  const quiet = run !== null && now - Date.parse(run.finishedAt) > CRON_QUIET_MS;
  return (
    <section aria-labelledby="health-cron-title" className="space-y-3">
      {sectionTitle("health-cron-title", "Last cron run", "The cron settles payments, expires reservations and orders, and checks the nodes once a minute.")}
      {run === null ? (
        <p data-testid="health-cron-empty" role="alert" className="rounded-xl border border-amber-700 bg-amber-950/40 p-3 text-sm text-amber-100">
          The cron has not finished a run yet: payments nobody reports are not settled and reservations do not expire until it does.
        </p>
      ) : (
        <div data-testid="health-cron" className="rounded-2xl border border-slate-800 p-4 text-sm">
          <p className="text-slate-200">
            Started {when(run.startedAt, now)};{" "}
            {run.durationMs === null ? (
              <span className="font-medium text-red-300">stopped by the platform before it finished (out of memory or CPU time?).</span>
            ) : (
              `took ${formatDuration(run.durationMs / 1000)}.`
            )}{" "}
            {failed === 0 ? (
              <span className="text-emerald-300">No task failed.</span>
            ) : (
              <span className="font-medium text-red-300">{failed === 1 ? "1 task failed." : `${formatCount(failed)} tasks failed.`}</span>
            )}
          </p>
          {quiet && (
            <p role="alert" className="mt-2 text-amber-200">
              No run has finished since: the cron may have stopped (check the Worker&apos;s cron trigger and its logs).
            </p>
          )}
          <ul aria-label="Tasks of the last run" className="mt-3 divide-y divide-slate-800">
            {run.tasks.map((t) => (
              <li key={t.task} data-testid="health-cron-task" data-outcome={t.outcome} className="py-1.5">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <span className="text-slate-200">{cronTaskWords(t.task)}</span>
                  <span className={`font-medium ${OUTCOME[t.outcome].tone}`}>{OUTCOME[t.outcome].words}</span>
                </div>
                {t.detail && <p className="mt-0.5 break-words text-xs text-slate-400">{t.detail}</p>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** "0043_sealed_intake.sql" -> "0043 sealed intake". */
export const migrationWords = (file: string) => file.replace(/\.sql$/, "").replace(/_/g, " ");

export function MigrationsPanel({ migrations }: { migrations: MigrationsHealth }) {
  const { applied, newest, built, missing, newer } = migrations;
  return (
    <section aria-labelledby="health-migrations-title" className="space-y-3">
      {sectionTitle(
        "health-migrations-title",
        "Database migrations",
        "The changes to the database's tables, against those this version of the site was built with.",
      )}
      <div data-testid="health-migrations" className="rounded-2xl border border-slate-800 p-4 text-sm text-slate-200">
        <p>
          {formatCount(applied)} applied of the {formatCount(built)} this version knows.{" "}
          {newest === null ? (
            "None is applied yet."
          ) : (
            <>
              The newest is {migrationWords(newest)} <span className="font-mono text-xs text-slate-400">({newest})</span>.
            </>
          )}
        </p>
        {missing.length === 0 ? (
          <p className="mt-2 text-emerald-300">Every migration this version needs is applied.</p>
        ) : (
          <div role="alert" className="mt-3 rounded-xl border border-red-700 bg-red-950/40 p-3 text-red-100">
            <p className="font-medium">
              {missing.length === 1 ? "1 migration this version needs is missing" : `${formatCount(missing.length)} migrations this version needs are missing`}:
              pages that read its tables fail. Apply the migrations (a deploy applies them before it uploads).
            </p>
            <ul aria-label="Missing migrations" className="mt-2 list-disc pl-5">
              {missing.map((m) => (
                <li key={m} data-testid="health-migration-missing">
                  {migrationWords(m)} <span className="font-mono text-xs text-red-200">({m})</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {newer.length > 0 && (
          <p className="mt-2 text-amber-200">
            {newer.length === 1 ? "1 applied migration comes" : `${formatCount(newer.length)} applied migrations come`} from a newer version of the site: this
            version still serves, but deploy the newer one.
          </p>
        )}
      </div>
    </section>
  );
}

const STATE: Record<GrinderState, { words: string; tone: string }> = {
  working: { words: "Working", tone: "border-emerald-700/60 bg-emerald-950/30 text-emerald-200" },
  idle: { words: "Idle, waiting for an order", tone: "border-slate-700 bg-slate-900/60 text-slate-200" },
  silent: { words: "Silent while holding an order", tone: "border-red-700 bg-red-950/40 text-red-100" },
  gone: { words: "Stopped", tone: "border-slate-800 bg-slate-950 text-slate-400" },
};

/** What a grinder holds, in words: "order 12 (0xab…), 1,000 tries so far; its claim lapses in 2 minutes". */
export function holdWords(h: GrinderHealth["holds"][number], now: number): string {
  const pattern = describeOrderPattern({ prefix: h.prefix, suffix: h.suffix, caseSensitive: false });
  const tries = h.attempts === null ? "" : `, ${compactNumber(h.attempts)} tries so far`;
  if (h.claimExpiresAt === null) return `order ${h.orderId} (${pattern})${tries}`;
  const lapse = Date.parse(h.claimExpiresAt);
  const claim = lapse > now ? `its claim lapses ${relativeTime(lapse, now)}` : `its claim lapsed ${relativeTime(lapse, now)}: another grinder may take it`;
  return `order ${h.orderId} (${pattern})${tries}; ${claim}`;
}

export function GrindersPanel({ grinders, now = Date.now() }: { grinders: GrinderHealth[]; now?: number }) {
  return (
    <section aria-labelledby="health-grinders-title" className="space-y-3">
      {sectionTitle(
        "health-grinders-title",
        "Grinders",
        "The processes that find custom orders' addresses: those seen in the last day, and any still holding an order.",
      )}
      {grinders.length === 0 ? (
        <p data-testid="health-grinders-empty" className="text-sm text-slate-400">
          No grinder has reported in the last day: custom orders wait until one runs.
        </p>
      ) : (
        <ul aria-label="Grinders" className="space-y-2">
          {grinders.map((g) => (
            <li key={g.id} data-testid="health-grinder" data-state={g.state} className={`rounded-xl border px-3 py-2 text-sm ${STATE[g.state].tone}`}>
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <span className="font-semibold">
                  {g.name} <span className="font-normal text-slate-400">on {g.label}</span>
                </span>
                <span className="font-medium">{STATE[g.state].words}</span>
              </div>
              <p className="mt-1 break-words text-xs text-slate-300">
                Last seen {relativeTime(g.lastSeenAt, now)}, running since {formatDay(g.startedAt)}
                {g.rate === null ? "; no speed reported yet" : `; ${compactNumber(g.rate)} tries a second`}
                {g.adminWallet && <>; signed in as {shortAddress(g.adminWallet)}</>}
                <span className="ml-1 font-mono text-slate-400" title={g.id}>
                  ({g.id.slice(0, 8)})
                </span>
              </p>
              {g.holds.length === 0 ? (
                <p className="mt-1 text-xs text-slate-400">Holds no order.</p>
              ) : (
                <ul aria-label={`Orders ${g.name} holds`} className="mt-1 list-disc pl-5 text-xs">
                  {g.holds.map((h) => (
                    <li key={h.orderId}>Holds {holdWords(h, now)}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
