// The cron job (every minute in production). Each task is idempotent and bounded, so two overlapping runs
// do no harm; one failing task does not stop the others.
import { lt } from "drizzle-orm";
import { sessions, usedSignInNonces } from "../../schema/db";
import { type CollectorReport, runCollectorJob } from "../collectors/notification-job";
import { createDb } from "../db/database";
import { type OfferJobReport, runOfferJob } from "../offers/offer-job";
import { expireOverdueOrders } from "../orders/orders";
import { type AlertReport, runAlerts } from "../operations/alerts";
import { recordChainProbe } from "../operations/chains";
import { recordCronRun, rewriteCronRun } from "../operations/cron-runs";
import { paymentReadiness } from "../deployment/payment-readiness";
import { getUsdPrices } from "../prices/price-feed";
import { closeOverduePurchases } from "../purchases/deadlines";
import { expireReservations, verifyPendingPayments } from "../purchases/payment-jobs";
import { scanForPayments } from "../purchases/payment-scan";
import { reconcilePayments, type ReconcileReport } from "../purchases/reconcile";
import { rewrapUnderCurrentSecret, type ShredReport } from "../vault/shred";
import { calibrateValues } from "./calibrate-values";
import { recomputeMarketTrends } from "./market-trends";
import { rescoreRarity } from "./rescore-rarity";

export type JobReport = {
  expiredNonces: number;
  expiredSessions: number;
  /** closedOverdue: pending purchases past their last deadline, failed as unverified (purchases/deadlines.ts). */
  payments: { verified: number; settled: number; foundByScan: number; expiredReservations: number; closedOverdue: number };
  /** The platform addresses read against the ledger (null: that network's task failed). */
  reconciliation: { ethereum: ReconcileReport | null; solana: ReconcileReport | null };
  pricesSource: "feed" | "fallback" | null;
  marketTrends: number;
  keyRewrap: ShredReport | null;
  /** found custom orders not paid by their deadline */
  expiredCustomOrders: number;
  /** Listings moved to the current rarity scale (migration 0009). */
  rescoredListings: number;
  /** Estimated-value multipliers fitted from sales this run (jobs/calibrate-values.ts; once a day). */
  calibratedValues: number;
  /** Each chain node's probe (operations/chains.ts): did it answer. */
  chains: { ethereum: boolean; solana: boolean };
  /** Listing and purchase events turned into notifications (collectors/notification-job.ts); null: the task failed. */
  collectors: CollectorReport | null;
  /** Offers expired by the clock, buyers told of ended offers, ended offers deleted (offers/offer-job.ts); null: the task failed. */
  offers: OfferJobReport | null;
  /** Incidents opened, resolved, alerts sent and failed (operations/alerts.ts); null: the task failed. */
  alerts: AlertReport | null;
  errors: string[];
};

/** What went wrong, in one line: for a failed query, the database's own words (drizzle's message would list the SQL). */
function failure(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error && /^Failed query/.test(err.message) ? err.cause : err;
  return cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
}

async function attempt<T>(name: string, errors: string[], task: () => Promise<T>): Promise<T | null> {
  try {
    return await task();
  } catch (err) {
    const message = failure(err);
    console.error(`scheduled task ${name} failed:`, message);
    errors.push(`${name}: ${message}`);
    return null;
  }
}

export async function runScheduledJobs(env: Env, now = Date.now()): Promise<JobReport> {
  const db = createDb(env.DB);
  const errors: string[] = [];
  const [nonces, expired] = await db.batch([
    db.delete(usedSignInNonces).where(lt(usedSignInNonces.expiresAt, now)),
    db.delete(sessions).where(lt(sessions.expiresAt, now)),
  ]);
  // Verify first, then look for unreported payments, and only then expire: a reservation paid in its last
  // minute is found before it would lapse. On unsafe payment settings (deployment/payment-readiness.ts) nothing is verified
  // or settled: a payment checked at the wrong depth or on the wrong chain would release a key. Expiring
  // reservations stays safe and goes on.
  // No request here: SITE_ORIGIN alone says where the site is (deployment/local-mode.ts).
  const readiness = await paymentReadiness(env, null, now);
  if (!readiness.ok) {
    console.error(`scheduled payments skipped: unsafe payment settings: ${readiness.problems.join(" | ")}`);
    errors.push(`payments: skipped, unsafe payment settings: ${readiness.problems.join(" ")}`);
  }
  const verified = readiness.ok ? await attempt("verify", errors, () => verifyPendingPayments(db, env, now)) : null;
  let foundByScan = 0;
  for (const network of readiness.ok ? (["ethereum", "solana"] as const) : []) {
    const scan = await attempt(`scan-${network}`, errors, () => scanForPayments(db, env, network, now));
    foundByScan += scan?.found ?? 0;
  }
  const expiredReservations = await attempt("expire", errors, () => expireReservations(db, now));
  // The clock's exit for a payment that never becomes final, on safe settings or not: it releases nothing.
  const closedOverdue = await attempt("overdue", errors, () => closeOverduePurchases(db, now));
  // After the scan: a transfer the scan is about to credit is not a difference.
  // Not on unsafe settings either: read from a node on the wrong chain, every difference would be noise.
  const reconciliation = {
    ethereum: readiness.ok ? await attempt("reconcile-ethereum", errors, () => reconcilePayments(db, env, "ethereum", now)) : null,
    solana: readiness.ok ? await attempt("reconcile-solana", errors, () => reconcilePayments(db, env, "solana", now)) : null,
  };
  const prices = await attempt("prices", errors, () => getUsdPrices(env, now));
  const trends = await attempt("market-trends", errors, () => recomputeMarketTrends(db, now));
  const keyRewrap = await attempt("key-rewrap", errors, () => rewrapUnderCurrentSecret(db, env));
  const expiredCustomOrders = await attempt("custom-orders", errors, () => expireOverdueOrders(db, now));
  const rescored = await attempt("rarity-rescore", errors, () => rescoreRarity(env.DB));
  const calibrated = await attempt("value-calibration", errors, () => calibrateValues(db, now));
  // After the payment tasks: what they settled or expired this run is told this run (an accepted offer's lapse too).
  const offers = await attempt("offers", errors, () => runOfferJob(db, now));
  const collectors = await attempt("collectors", errors, () => runCollectorJob(db, now));
  // A node that does not answer is recorded (health, alerts), not a failed task: the alert for it has its own rule.
  const chains = {
    ethereum: (await attempt("chain-ethereum", errors, () => recordChainProbe(db, env, "ethereum", now)))?.ok ?? false,
    solana: (await attempt("chain-solana", errors, () => recordChainProbe(db, env, "solana", now)))?.ok ?? false,
  };
  // Last: the record of this run, which the health check and the alerts read.
  const runId = await attempt("cron-record", errors, () => recordCronRun(db, now, Date.now(), errors));
  // After the record: a task failing in this run counts toward its run of failures.
  const alerts = await attempt("alerts", errors, () => runAlerts(db, env, now));
  // A failing alerts task cannot report itself: its failure joins this run's record, so health shows it and the
  // next run that alerts tells of it (operations/alerts.ts, LATE_TASKS).
  if (alerts === null && runId !== null) await attempt("cron-record", errors, () => rewriteCronRun(db, runId, Date.now(), errors));
  return {
    expiredNonces: nonces.meta.changes ?? 0,
    expiredSessions: expired.meta.changes ?? 0,
    payments: {
      verified: verified?.verified ?? 0,
      settled: verified?.settled ?? 0,
      foundByScan,
      expiredReservations: expiredReservations ?? 0,
      closedOverdue: closedOverdue ?? 0,
    },
    reconciliation,
    pricesSource: prices?.source ?? null,
    marketTrends: trends ?? 0,
    keyRewrap,
    expiredCustomOrders: expiredCustomOrders ?? 0,
    rescoredListings: rescored ?? 0,
    calibratedValues: calibrated ?? 0,
    chains,
    collectors,
    offers,
    alerts,
    errors,
  };
}
