// Admin > Health's platform sections from the answer alone: the last cron run with each task's outcome in words, a
// cron gone quiet, the migrations (all there, one missing, one from a newer version), and the grinders by name, a
// silent one holding an order, and each section's empty state.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CRON_TASK_WORDS, type GrinderHealth, grinderName, type LastCronRun } from "../../../../schema/health";
import { CronRunPanel, GrindersPanel, holdWords, MigrationsPanel, migrationWords } from "./PlatformHealth";

const now = new Date(2026, 10, 28, 14, 30).getTime();
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
const iso = (msAgo: number) => new Date(now - msAgo).toISOString();

const run: LastCronRun = {
  startedAt: iso(50_000),
  finishedAt: iso(46_500),
  durationMs: 3_500,
  failedTasks: ["payments", "prices"],
  tasks: [
    { task: "cron-record", outcome: "ok", detail: null },
    { task: "verify", outcome: "skipped", detail: "unsafe payment settings: ETH_CONFIRMATIONS is not set." },
    { task: "prices", outcome: "failed", detail: "HTTP 503 from the price feed" },
    { task: "collectors", outcome: "not-run", detail: "the run was stopped before this task" },
    { task: "a-task-of-another-version", outcome: "failed", detail: null },
  ],
};

describe("CronRunPanel", () => {
  it("when it ran, how long it took, and each task in words with its outcome and why", () => {
    const html = renderToStaticMarkup(<CronRunPanel run={run} now={now} />);
    const t = text(html);
    expect(t).toContain("Started November 28, 2026, less than a minute ago; took 3.5 seconds.");
    expect(t).toContain("2 tasks failed.");
    expect(t).toMatch(/Recording the run Done/);
    expect(t).toMatch(/Verifying reported payments Skipped unsafe payment settings: ETH_CONFIRMATIONS is not set\./);
    expect(t).toMatch(/Fetching coin prices Failed HTTP 503 from the price feed/);
    expect(t).toMatch(/Notifying collectors Did not run/);
    expect(t).toMatch(/A task of another version Failed/);
    // Words, not the task names of the code.
    expect(t).not.toMatch(/cron-record|collectors\b(?! )/);
    expect(html).not.toContain('role="alert"');
    expect(html.match(/data-testid="health-cron-task"/g)).toHaveLength(5);
  });

  it("a run the platform stopped says so instead of how long it took", () => {
    const t = text(renderToStaticMarkup(<CronRunPanel run={{ ...run, durationMs: null }} now={now} />));
    expect(t).toContain("stopped by the platform before it finished");
    expect(t).not.toContain("took");
  });

  it("a run that finished long ago says the cron may have stopped; no run yet says what waits", () => {
    const quiet = renderToStaticMarkup(<CronRunPanel run={{ ...run, startedAt: iso(20 * 60_000), finishedAt: iso(19 * 60_000) }} now={now} />);
    expect(text(quiet)).toContain("No run has finished since: the cron may have stopped");
    const none = text(renderToStaticMarkup(<CronRunPanel run={null} now={now} />));
    expect(none).toContain("The cron has not finished a run yet");
    const clean = text(renderToStaticMarkup(<CronRunPanel run={{ ...run, failedTasks: [], tasks: [run.tasks[0]] }} now={now} />));
    expect(clean).toContain("No task failed.");
  });

  it("every task of the cron has its words", () => {
    for (const words of Object.values(CRON_TASK_WORDS)) expect(words).toMatch(/^[A-Z][a-z]/);
  });
});

describe("MigrationsPanel", () => {
  const all = { applied: 33, newest: "0043_sealed_intake.sql", built: 33, missing: [], newer: [] };
  it("all applied: the count and the newest in words", () => {
    const t = text(renderToStaticMarkup(<MigrationsPanel migrations={all} />));
    expect(t).toContain("33 applied of the 33 this version knows.");
    expect(t).toContain("The newest is 0043 sealed intake (0043_sealed_intake.sql)");
    expect(t).toContain("Every migration this version needs is applied.");
  });

  it("one missing is an alert naming it; one from a newer version is said as such", () => {
    const html = renderToStaticMarkup(
      <MigrationsPanel migrations={{ ...all, applied: 33, missing: ["0030_offers.sql"], newer: ["0046_future.sql"], newest: "0046_future.sql" }} />,
    );
    const t = text(html);
    expect(html).toContain('role="alert"');
    expect(t).toContain("1 migration this version needs is missing");
    expect(t).toContain("0030 offers (0030_offers.sql)");
    expect(t).toContain("1 applied migration comes from a newer version of the site");
    expect(t).not.toContain("Every migration this version needs is applied.");
    expect(migrationWords("0043_sealed_intake.sql")).toBe("0043 sealed intake");
  });

  it("none applied", () => {
    expect(text(renderToStaticMarkup(<MigrationsPanel migrations={{ ...all, applied: 0, newest: null, missing: ["0000_a.sql"] }} />))).toContain(
      "None is applied yet.",
    );
  });
});

describe("GrindersPanel", () => {
  const id = "k3Jf9aQ2xLmN8pRt";
  const working: GrinderHealth = {
    id,
    name: grinderName(id),
    label: "GPU NVIDIA H200",
    adminWallet: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
    state: "working",
    startedAt: iso(3 * 3600_000),
    lastSeenAt: iso(20_000),
    rate: 2_000_000_000,
    holds: [{ orderId: 12, prefix: "dead", suffix: "beef", claimExpiresAt: iso(-100_000), attempts: 1_500_000 }],
  };

  it("each grinder by its name in words, what it runs on, its speed, its admin and what it holds", () => {
    const t = text(renderToStaticMarkup(<GrindersPanel grinders={[working]} now={now} />));
    expect(t).toContain(`${grinderName(id)} on GPU NVIDIA H200`);
    expect(t).toContain("Working");
    expect(t).toContain("2 billion tries a second");
    expect(t).toContain("signed in as 0xf39fd6...b92266");
    expect(t).toContain("Holds order 12 (0xdead…beef), 1.5 million tries so far; its claim lapses in 1 minute");
    expect(grinderName(id)).toBe(grinderName(id));
    expect(grinderName(id)).not.toBe(grinderName("another-grinder-id-0001"));
  });

  it("a grinder silent while holding an order says so, and that another grinder may take it once its claim lapsed", () => {
    const silent: GrinderHealth = {
      ...working,
      state: "silent",
      lastSeenAt: iso(10 * 60_000),
      holds: [{ ...working.holds[0], claimExpiresAt: iso(5 * 60_000) }],
    };
    const html = renderToStaticMarkup(
      <GrindersPanel grinders={[silent, { ...working, id: "idle-grinder-0000001", state: "idle", rate: null, holds: [] }]} now={now} />,
    );
    const t = text(html);
    expect(html).toContain('data-state="silent"');
    expect(t).toContain("Silent while holding an order");
    expect(t).toContain("Last seen 10 minutes ago");
    expect(t).toContain("its claim lapsed 5 minutes ago: another grinder may take it");
    expect(t).toContain("Idle, waiting for an order");
    expect(t).toContain("no speed reported yet");
    expect(t).toContain("Holds no order.");
  });

  it("none in the last day: orders wait", () => {
    expect(text(renderToStaticMarkup(<GrindersPanel grinders={[]} now={now} />))).toContain("No grinder has reported in the last day: custom orders wait");
    expect(holdWords({ orderId: 3, prefix: "ab", suffix: "", claimExpiresAt: null, attempts: null }, now)).toBe("order 3 (0xab…)");
  });
});
