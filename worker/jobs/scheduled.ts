// The cron job (every minute in production): a table of tasks (CRON_TASKS), one line each with its name, what it
// needs and what it does, run in order by task-table.ts, each within its time budget. Each task is idempotent and
// bounded, so two overlapping runs do no harm; one failing or running out of time does not stop the others. The
// cron's own health comes first (docs/buying.md#the-cron-job): the run's record, the chain probes and the alerts
// run before any task that could fail, hang or be stopped by the platform, and the record notes the task the run
// is in, so a run stopped in a task is recorded by the next as failing there.
import { lt } from "drizzle-orm";
import { type Network, sessions, usedSignInNonces } from "../../schema/db";
import type { CronTaskOutcome } from "../../schema/health";
import { type CollectorReport, runCollectorJob } from "../collectors/notification-job";
import { createDb, type Db } from "../db/database";
import { type Deployment, readDeployment } from "../deployment/deployment";
import { paymentReadiness } from "../deployment/payment-readiness";
import { type OfferJobReport, runOfferJob } from "../offers/offer-job";
import { expireOverdueOrders } from "../orders/orders";
import { type AlertReport, runAlerts } from "../operations/alerts";
import { recordChainProbe } from "../operations/chains";
import { finishCronRun, noteRunningTask, RUN_STOPPED_ERROR, recordCronRun, startCronRun } from "../operations/cron-runs";
import { getUsdPrices } from "../prices/price-feed";
import { closeOverduePurchases } from "../purchases/deadlines";
import { expireReservations, verifyPendingPayments } from "../purchases/payment-jobs";
import { scanForPayments } from "../purchases/payment-scan";
import { reconcilePayments, type ReconcileReport } from "../purchases/reconcile";
import { runSupplyJob, type SupplyJobReport } from "../supply/claims";
import { rewrapUnderCurrentSecret, type ShredReport } from "../vault/shred";
import { calibrateValues } from "./calibrate-values";
import { forgetIdleUsers } from "./forget-idle-users";
import { recomputeMarketTrends } from "./market-trends";
import { rescoreRarity } from "./rescore-rarity";
import { type Need, runTasks, type Task } from "./task-table";

export type JobReport = {
  expiredNonces: number;
  expiredSessions: number;
  /** Users rows of wallets idle for USER_IDLE_DAYS with nothing on the store, deleted (jobs/forget-idle-users.ts). */
  forgottenUsers: number;
  /** closedOverdue: pending purchases past their last deadline, failed as unverified (purchases/deadlines.ts). */
  payments: { verified: number; settled: number; foundByScan: number; expiredReservations: number; closedOverdue: number };
  /** The platform addresses read against the ledger (null: that network's task failed). */
  reconciliation: { ethereum: ReconcileReport | null; solana: ReconcileReport | null };
  pricesSource: "feed" | "fallback" | null;
  marketTrends: number;
  keyRewrap: ShredReport | null;
  /** found custom orders not paid by their deadline */
  expiredCustomOrders: number;
  /** Supply claims closed for want of a report within their lease, and closed ones deleted (supply/claims.ts); null: the task failed. */
  supplyClaims: SupplyJobReport | null;
  /** Listings moved to the current rarity scale (migration 0009). */
  rescoredListings: number;
  /** Estimated-value multipliers fitted from sales this run (jobs/calibrate-values.ts; once a day). */
  calibratedValues: number;
  /** Each chain's probe of all its nodes (operations/chains.ts): did at least its quorum of nodes answer. */
  chains: { ethereum: boolean; solana: boolean };
  /** Listing and purchase events turned into notifications (collectors/notification-job.ts); null: the task failed. */
  collectors: CollectorReport | null;
  /** Offers expired by the clock, buyers told of ended offers, ended offers deleted (offers/offer-job.ts); null: the task failed. */
  offers: OfferJobReport | null;
  /** Incidents opened, resolved, alerts sent and failed (operations/alerts.ts); null: the task failed. */
  alerts: AlertReport | null;
  errors: string[];
};

/** One cron run as its tasks see it: what they read, and the report they fill in. */
export type CronJob = {
  db: Db;
  env: Env;
  /** The deployment, read once at the start of the run (no request: SITE_ORIGIN alone says where the site is). */
  deployment: Deployment;
  now: number;
  /** The payment settings passed paymentReadiness at the start of the run. */
  paymentsSafe: boolean;
  report: JobReport;
  /** The id of this run's record, once the cron-record task has written it. */
  runId: number | null;
};

const ALWAYS: Need<CronJob> = { says: "nothing", holds: () => true };
// On unsafe payment settings nothing is verified, settled or reconciled: a payment checked at the wrong depth or
// on the wrong chain would release a key, and read from a node on the wrong chain every difference is noise.
const SAFE_PAYMENTS: Need<CronJob> = { says: "payment settings that pass paymentReadiness", holds: (j) => j.paymentsSafe };

/**
 * The cron job's tasks, in the order they run; each is idempotent and bounded. First what tells of the cron's own
 * health, which nothing after it can then keep from running. Verify, then look for unreported payments, and only
 * then expire: a reservation paid in its last minute is found before it would lapse.
 */
export const CRON_TASKS: readonly Task<CronJob>[] = [
  // The run's record, begun (it notes each task as it starts); the runs stopped in a task are closed as failing there.
  { name: "cron-record", needs: ALWAYS, budgetMs: 10_000, run: async (j) => (j.runId = await startCronRun(j.db, j.now, j.report.errors)) },
  // A node that does not answer is recorded (health, alerts), not a failed task: the alert for it has its own rule.
  { name: "chain-ethereum", needs: ALWAYS, budgetMs: 15_000, run: probe("ethereum") },
  { name: "chain-solana", needs: ALWAYS, budgetMs: 15_000, run: probe("solana") },
  // Judged on the finished runs: what fails in this run is told by the next.
  { name: "alerts", needs: ALWAYS, run: async (j) => (j.report.alerts = await runAlerts(j.db, j.env, j.now)) },
  { name: "sign-in-expiry", needs: ALWAYS, run: expireSignIns },
  { name: "forget-idle-users", needs: ALWAYS, run: async (j) => (j.report.forgottenUsers = await forgetIdleUsers(j.db, j.now)) },
  { name: "verify", needs: SAFE_PAYMENTS, run: verify },
  { name: "scan-ethereum", needs: SAFE_PAYMENTS, run: scan("ethereum") },
  { name: "scan-solana", needs: SAFE_PAYMENTS, run: scan("solana") },
  // Expiring reservations stays safe on unsafe settings and goes on.
  { name: "expire", needs: ALWAYS, run: async (j) => (j.report.payments.expiredReservations = await expireReservations(j.db, j.now)) },
  // The clock's exit for a payment that never becomes final, on safe settings or not: it releases nothing.
  { name: "overdue", needs: ALWAYS, run: async (j) => (j.report.payments.closedOverdue = await closeOverduePurchases(j.db, j.now)) },
  // After the scan: a transfer the scan is about to credit is not a difference.
  { name: "reconcile-ethereum", needs: SAFE_PAYMENTS, run: reconcile("ethereum") },
  { name: "reconcile-solana", needs: SAFE_PAYMENTS, run: reconcile("solana") },
  { name: "prices", needs: ALWAYS, run: async (j) => (j.report.pricesSource = (await getUsdPrices(j.env, j.now)).source) },
  { name: "market-trends", needs: ALWAYS, run: async (j) => (j.report.marketTrends = await recomputeMarketTrends(j.db, j.now)) },
  { name: "key-rewrap", needs: ALWAYS, run: async (j) => (j.report.keyRewrap = await rewrapUnderCurrentSecret(j.db, j.env)) },
  { name: "custom-orders", needs: ALWAYS, run: async (j) => (j.report.expiredCustomOrders = await expireOverdueOrders(j.db, j.now)) },
  { name: "supply-claims", needs: ALWAYS, run: async (j) => (j.report.supplyClaims = await runSupplyJob(j.db, j.now)) },
  { name: "rarity-rescore", needs: ALWAYS, run: async (j) => (j.report.rescoredListings = await rescoreRarity(j.env.DB)) },
  { name: "value-calibration", needs: ALWAYS, run: async (j) => (j.report.calibratedValues = await calibrateValues(j.db, j.now)) },
  // After the payment tasks: what they settled or expired this run is told this run (an accepted offer's lapse too).
  { name: "offers", needs: ALWAYS, run: async (j) => (j.report.offers = await runOfferJob(j.db, j.now)) },
  // It stops starting chunks at its deadline, a few seconds before the budget's end; the next run goes on from there.
  {
    name: "collectors",
    needs: ALWAYS,
    budgetMs: 30_000,
    run: async (j, deadline) => (j.report.collectors = await runCollectorJob(j.db, j.now, deadline - 5_000)),
  },
  // Last: the record finished with every task's outcome (written whole if it could not be begun).
  { name: "cron-record", needs: ALWAYS, budgetMs: 10_000, run: finishRecord },
];

/**
 * The name a run's record gives the payment tasks skipped on unsafe settings: a failed "task" of its own, so the
 * alerts and Admin > Health tell of it run after run.
 */
export const PAYMENTS_SKIPPED = "payments";

/**
 * Each task of CRON_TASKS (once, in order) with its outcome in a recorded run, read from the record's failed tasks
 * and errors (Admin > Health): a task that needs safe payment settings was skipped when the run says so, the tasks
 * after the one a stopped run was in never ran, a failed one carries its error. A failed task this table no longer
 * has (a run of an older version) is listed after them.
 */
export function cronTaskOutcomes(run: { failedTasks: string[]; errors: string[] }): CronTaskOutcome[] {
  const errorOf = (task: string) => {
    const line = run.errors.find((e) => e.startsWith(`${task}:`));
    return line === undefined ? null : line.slice(task.length + 1).trim();
  };
  const skipped = run.failedTasks.includes(PAYMENTS_SKIPPED) ? (errorOf(PAYMENTS_SKIPPED)?.replace(/^skipped,\s*/, "") ?? "") : null;
  const names = [...new Set(CRON_TASKS.map((t) => t.name))];
  const stoppedIn = names.findIndex((name) => errorOf(name) === RUN_STOPPED_ERROR);
  const outcomes = names.map((task, i): CronTaskOutcome => {
    if (run.failedTasks.includes(task)) return { task, outcome: "failed", detail: errorOf(task) };
    if (stoppedIn >= 0 && i > stoppedIn) return { task, outcome: "not-run", detail: "the run was stopped before this task" };
    const need = CRON_TASKS.find((t) => t.name === task)?.needs;
    if (need === SAFE_PAYMENTS && skipped !== null) return { task, outcome: "skipped", detail: skipped };
    return { task, outcome: "ok", detail: null };
  });
  const unknown = run.failedTasks.filter((t) => t !== PAYMENTS_SKIPPED && !names.includes(t));
  return [...outcomes, ...unknown.map((task): CronTaskOutcome => ({ task, outcome: "failed", detail: errorOf(task) }))];
}

// The tasks that take more than one line, or run once per network.

async function finishRecord(j: CronJob): Promise<void> {
  if (j.runId === null) j.runId = await recordCronRun(j.db, j.now, Date.now(), j.report.errors);
  else await finishCronRun(j.db, j.runId, Date.now(), j.report.errors);
}

async function verify(j: CronJob): Promise<void> {
  const { verified, settled } = await verifyPendingPayments(j.db, j.deployment, j.now);
  Object.assign(j.report.payments, { verified, settled });
}

function scan(network: Network) {
  return async (j: CronJob) => {
    j.report.payments.foundByScan += (await scanForPayments(j.db, j.deployment, network, j.now)).found;
  };
}

function reconcile(network: Network) {
  return async (j: CronJob) => {
    j.report.reconciliation[network] = await reconcilePayments(j.db, j.deployment, network, j.now);
  };
}

function probe(network: Network) {
  return async (j: CronJob) => {
    j.report.chains[network] = (await recordChainProbe(j.db, j.deployment, network, j.now)).ok;
  };
}

/** Used sign-in nonces and sessions past their expiry are deleted. */
async function expireSignIns(j: CronJob): Promise<void> {
  const [nonces, sessionsDeleted] = await j.db.batch([
    j.db.delete(usedSignInNonces).where(lt(usedSignInNonces.expiresAt, j.now)),
    j.db.delete(sessions).where(lt(sessions.expiresAt, j.now)),
  ]);
  j.report.expiredNonces = nonces.meta.changes ?? 0;
  j.report.expiredSessions = sessionsDeleted.meta.changes ?? 0;
}

/** A report of a run in which nothing has run yet: a task that fails leaves its fields as they are here. */
function emptyReport(): JobReport {
  return {
    expiredNonces: 0,
    expiredSessions: 0,
    forgottenUsers: 0,
    payments: { verified: 0, settled: 0, foundByScan: 0, expiredReservations: 0, closedOverdue: 0 },
    reconciliation: { ethereum: null, solana: null },
    pricesSource: null,
    marketTrends: 0,
    keyRewrap: null,
    expiredCustomOrders: 0,
    supplyClaims: null,
    rescoredListings: 0,
    calibratedValues: 0,
    chains: { ethereum: false, solana: false },
    collectors: null,
    offers: null,
    alerts: null,
    errors: [],
  };
}

/** One cron run; `tasks`: the table it runs (tests arm a task in a copy of CRON_TASKS). */
export async function runScheduledJobs(env: Env, now = Date.now(), tasks: readonly Task<CronJob>[] = CRON_TASKS): Promise<JobReport> {
  const report = emptyReport();
  // No request here: SITE_ORIGIN alone says where the site is (deployment/local-mode.ts). On unsafe payment
  // settings (deployment/payment-readiness.ts) the tasks that need SAFE_PAYMENTS are skipped, and the run says so.
  const deployment = readDeployment(env);
  const readiness = await paymentReadiness(deployment, now);
  if (!readiness.ok) {
    console.error(`scheduled payments skipped: unsafe payment settings: ${readiness.problems.join(" | ")}`);
    report.errors.push(`${PAYMENTS_SKIPPED}: skipped, unsafe payment settings: ${readiness.problems.join(" ")}`);
  }
  const job: CronJob = { db: createDb(env.DB), env, deployment, now, paymentsSafe: readiness.ok, report, runId: null };
  await runTasks(tasks, job, report.errors, new Set(), (name) => (job.runId === null ? Promise.resolve() : noteRunningTask(job.db, job.runId, name)));
  return report;
}
