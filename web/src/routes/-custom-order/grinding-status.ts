// What the order page says while an order waits or is ground: attempts so far against the expected, the
// grinder's rate, an estimate, the deadline, the queue, and plainly when no grinder has reported for a while.
// Pure, so the wording is tested (grinding-status.test.ts). docs/custom-orders.md#what-the-buyer-sees
//
// The search has no memory: every attempt has the same 1-in-expected chance, so the time left never counts
// down. The estimate says what is true at any moment: at rate r, the chance of a hit within t is
// 1 - exp(-r·t/expected), so even odds come within ln 2 · expected / r and nine in ten within ln 10 · expected / r.
import { CUSTOM_ORDER_GRIND_HOURS, type CustomOrderQuote, type CustomOrderView, GRINDER_LEASE_MS } from "../../../../schema/custom-orders";
import { compactNumber, formatDuration } from "../../lib/duration";

export type GrindingOrder = Pick<CustomOrderView, "status" | "expectedAttempts" | "progress" | "grindDeadline" | "createdAt" | "queueAhead" | "grinders">;

export type GrindingStatus = {
  /** attempts by every grinder so far */
  attempts: number;
  expected: number;
  /** attempts against the expected, for the bar: 0 to 100 */
  percent: number;
  progressText: string;
  /** the rate of the grinder on it; null while waiting or before its first report */
  rateText: string | null;
  estimateText: string | null;
  deadline: Date;
  deadlineText: string;
  /** the estimate's nine-in-ten time runs past the deadline */
  deadlineAtRisk: boolean;
  queueText: string | null;
  /** "No grinder has reported for N minutes" and what that means, or null while grinders report */
  silenceText: string | null;
};

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** "3 minutes", "2 hours": whole minutes at least, as a person says how long something has been quiet. */
function quietFor(ms: number): string {
  return formatDuration(Math.max(60, Math.floor(ms / 60_000) * 60));
}

export function grindingStatus(order: GrindingOrder, now: number): GrindingStatus {
  const expected = Number(order.expectedAttempts);
  const attempts = order.progress?.attempts ?? 0;
  const grinding = order.status === "grinding";
  const rate = grinding && order.progress && order.progress.rate > 0 ? order.progress.rate : null;
  // Orders placed before deadlines existed have none: a week from placing is what they are held to in practice.
  const deadline = new Date(order.grindDeadline ? Date.parse(order.grindDeadline) : Date.parse(order.createdAt) + CUSTOM_ORDER_GRIND_HOURS * 3600_000);
  const untilDeadline = (deadline.getTime() - now) / 1000;

  const share = expected > 0 ? attempts / expected : 0;
  const progressText =
    attempts === 0
      ? `No attempts yet; about ${compactNumber(expected)} are expected`
      : share <= 1
        ? `${compactNumber(attempts)} of about ${compactNumber(expected)} expected attempts (${Math.floor(share * 100)}%)`
        : `${compactNumber(attempts)} attempts, past the ${compactNumber(expected)} expected: that is luck, not a fault (a third of searches run past it)`;

  let estimateText: string | null = null;
  let deadlineAtRisk = false;
  if (rate !== null) {
    const even = (Math.LN2 * expected) / rate;
    const likely = (Math.LN10 * expected) / rate;
    estimateText = `Even odds within ${formatDuration(even)}, 9 in 10 within ${formatDuration(likely)} at this rate (every attempt has the same chance, so this does not count down)`;
    deadlineAtRisk = likely > untilDeadline;
  }

  let silenceText: string | null = null;
  const lastReport = grinding ? order.progress?.at : order.grinders.lastReportAt;
  const quietMs = lastReport ? now - Date.parse(lastReport) : null;
  if (grinding ? quietMs !== null && quietMs > GRINDER_LEASE_MS : order.grinders.online === 0) {
    const since = quietMs === null ? "No grinder has reported yet." : `No grinder has reported for ${quietFor(quietMs)}.`;
    silenceText = `${since} Your order keeps its place in the queue and is ground as soon as a grinder runs again. If it is not found by the deadline, it expires and you pay nothing: payment is due only once the address is found.`;
  }

  let queueText: string | null = null;
  if (order.status === "open") {
    const ahead = order.queueAhead === 0 ? "Next in line" : `${plural(order.queueAhead, "order")} ahead of yours`;
    const online = order.grinders.online;
    queueText = online === 0 ? ahead : `${ahead}; ${plural(online, "grinder")} at work`;
  }

  return {
    attempts,
    expected,
    percent: Math.min(100, share * 100),
    progressText,
    rateText: rate === null ? null : `${compactNumber(rate)} attempts a second`,
    estimateText,
    deadline,
    deadlineText: untilDeadline > 0 ? `in ${formatDuration(untilDeadline)}` : "passed",
    deadlineAtRisk,
    queueText,
    silenceText,
  };
}

/**
 * The quote's word on the grinders, or null while one runs: the quote's time is then at the running grinder's own
 * rate, so there is nothing to add. With none running, the order would wait in the queue.
 */
export function quoteGrinderNote(quote: Pick<CustomOrderQuote, "grinders" | "grindHours">, now: number): string | null {
  const { online, lastReportAt } = quote.grinders;
  const expiry = `An order not found within ${formatDuration(quote.grindHours * 3600)} expires and costs nothing.`;
  if (online === 0) {
    const last = lastReportAt ? `the last one reported ${quietFor(now - Date.parse(lastReportAt))} ago` : "none has reported yet";
    return `No grinder is running right now (${last}): your order would wait in the queue until one runs. ${expiry}`;
  }
  // With a grinder running, the quote's time is already at its rate (the quote route): nothing to correct.
  return null;
}
