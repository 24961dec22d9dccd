// The order page while the order waits or is ground: attempts so far against the expected (a bar), the
// grinder's rate, an estimate, the deadline and the queue; an alert when no grinder has reported for a while.
// The wording is grinding-status.ts's; the page's query polls the order every 10 s, and the clock here ticks so
// "no grinder has reported for N minutes" appears and grows even when nothing new arrives.
import type { CustomOrderView } from "../../../../schema/custom-orders";
import { useNow } from "../../components/use-now";
import { formatDayTime } from "../../lib/date-format";
import { grindingStatus } from "./grinding-status";

export function GrindingPanel({ order }: { order: CustomOrderView }) {
  const now = useNow(15_000);
  const s = grindingStatus(order, now);
  const grinding = order.status === "grinding";
  return (
    <section className="mt-6 rounded-2xl border border-slate-800 bg-slate-900/60 p-5" aria-labelledby="grinding-title" data-testid="grinding-panel">
      <h2 id="grinding-title" className="text-lg font-semibold text-white">
        {grinding ? "Searching for your address" : "In the queue"}
      </h2>
      {s.silenceText && (
        <p className="mt-3 rounded-lg border border-amber-700 bg-amber-950/40 p-3 text-sm text-amber-100" role="status" data-testid="grinder-silent">
          {s.silenceText}
        </p>
      )}
      <div
        className="mt-4 h-2 w-full overflow-hidden rounded-full bg-slate-800"
        role="progressbar"
        aria-label="Attempts against the expected number"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(s.percent)}
      >
        <div className="h-full rounded-full bg-violet-500 transition-[width]" style={{ width: `${s.percent}%` }} />
      </div>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
        <Item label="Attempts" testId="grinding-attempts">
          {s.progressText}
        </Item>
        {s.queueText && (
          <Item label="Queue" testId="grinding-queue">
            {s.queueText}
          </Item>
        )}
        {grinding && (
          <Item label="Rate" testId="grinding-rate">
            {s.rateText ?? "Measuring…"}
          </Item>
        )}
        {s.estimateText && (
          <Item label="Estimate" testId="grinding-estimate">
            {s.estimateText}
          </Item>
        )}
        <Item label="Deadline" testId="grinding-deadline">
          Find by {formatDayTime(s.deadline)} ({s.deadlineText}). Not found by then, the order expires and you pay nothing.
          {s.deadlineAtRisk && <span className="mt-1 block text-amber-200">At this rate it may not be found before then.</span>}
        </Item>
      </dl>
    </section>
  );
}

function Item({ label, testId, children }: { label: string; testId: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs tracking-wide text-slate-400 uppercase">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-100" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
