// Admin > Analytics: a period selector (7/30/90 days), sales per day as an SVG chart (one bar per
// day of the period, networks stacked: sales-chart.ts) with the same figures as a table, average price by
// category and pattern length, reservation outcomes, time from required depth to key release, custom orders by
// state, listing supply by tier; CSV export of what is shown.
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ANALYTICS_PERIODS, type AnalyticsPeriod } from "../../../../schema/analytics";
import { errorMessage } from "../../api/error-message";
import { type Analytics, analyticsQuery } from "../../api/operations";
import { Spinner } from "../../components/Spinner";
import { analyticsCsv, analyticsFileName, downloadCsv } from "../../lib/admin-export";
import { formatUtcDay } from "../../lib/date-format";
import { formatDuration } from "../../lib/duration";
import { CHART_HEIGHT, CHART_WIDTH, salesChart } from "./sales-chart";

const NETWORK_COLOUR = { ethereum: "#8b5cf6", solana: "#14b8a6" } as const;

export function AnalyticsTab() {
  const [days, setDays] = useState<AnalyticsPeriod>("30");
  const data = useQuery(analyticsQuery(days));
  const groupId = useId();
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <fieldset className="flex items-center gap-2">
          <legend className="sr-only">Period</legend>
          <span id={groupId} className="text-sm text-slate-400">
            Period
          </span>
          {ANALYTICS_PERIODS.map((p) => (
            <label
              key={p}
              className="cursor-pointer rounded-lg border border-slate-700 px-3 py-1.5 text-sm text-slate-300 has-[:checked]:border-violet-500 has-[:checked]:bg-violet-600/20 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-violet-400"
            >
              <input
                type="radio"
                name="analytics-period"
                value={p}
                checked={days === p}
                onChange={() => setDays(p)}
                className="sr-only"
                aria-describedby={groupId}
              />
              {p} days
            </label>
          ))}
        </fieldset>
        <button
          type="button"
          disabled={!data.data}
          onClick={() => data.data && downloadCsv(analyticsCsv(data.data), analyticsFileName(data.data.period.days))}
          className="rounded-lg bg-violet-600 px-4 py-2 text-sm font-medium text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-violet-300 disabled:opacity-50"
        >
          Export CSV
        </button>
      </div>
      {data.isPending ? (
        <Spinner label="Loading analytics…" />
      ) : data.isError ? (
        <p role="alert" className="rounded-xl border border-red-700 bg-red-950/40 p-4 text-sm text-red-200">
          Analytics could not be loaded: {errorMessage(data.error)}
        </p>
      ) : (
        <Figures data={data.data} />
      )}
    </div>
  );
}

function Figures({ data }: { data: Analytics }) {
  const sales = data.salesByDay.reduce((n, d) => n + d.sales, 0);
  return (
    <>
      <Section title={`Sales per day (${data.period.days} days)`} id="analytics-sales">
        {sales === 0 ? <Empty text="No sales in this period." /> : <SalesChart rows={data.salesByDay} period={data.period} />}
        <Table
          caption="Sales per day and network"
          head={["Day", "Network", "Sales", "Volume"]}
          rows={data.salesByDay.map((d) => [formatUtcDay(d.day), d.network, String(d.sales), `${d.volume} ${d.currency}`])}
          empty="No sales in this period."
        />
      </Section>
      {/* minmax(0, 1fr) columns: a wide table scrolls inside its own box instead of widening the page (it made the
          tab 406 px wide on a 390 px phone). */}
      <div className="grid grid-cols-1 gap-8 lg:grid-cols-2">
        <Section title="Average price by category and pattern length" id="analytics-average">
          <Table
            caption="Average sale price"
            head={["Network", "Category", "Length", "Sales", "Average"]}
            rows={data.averagePrice.map((r) => [r.network, r.category, String(r.patternLength), String(r.sales), `${r.averagePrice} ${r.currency}`])}
            empty="No sales in this period."
          />
        </Section>
        <Section title="Reservation outcomes" id="analytics-outcomes">
          <Table
            caption="Reservations made in the period by outcome"
            head={["Outcome", "Reservations"]}
            rows={data.reservationOutcomes.map((o) => [o.reason ? `${o.outcome}: ${o.reason}` : o.outcome, String(o.count)])}
            empty="No reservations in this period."
          />
        </Section>
        <Section title="Required depth to key release" id="analytics-release">
          <dl className="grid grid-cols-3 gap-3 text-center" data-testid="depth-to-release">
            <Stat label="Releases" value={String(data.depthToRelease.releases)} />
            <Stat label="p50" value={data.depthToRelease.p50Seconds === null ? "—" : formatDuration(data.depthToRelease.p50Seconds)} />
            <Stat label="p95" value={data.depthToRelease.p95Seconds === null ? "—" : formatDuration(data.depthToRelease.p95Seconds)} />
          </dl>
          <p className="mt-2 text-xs text-slate-400">
            From the moment the payment was seen at the required depth (the purchase settles) to the buyer's first key reveal.
          </p>
        </Section>
        <Section title="Custom orders by state" id="analytics-orders">
          <Table
            caption="Custom orders placed in the period"
            head={["State", "Orders"]}
            rows={data.customOrders.map((c) => [c.status, String(c.count)])}
            empty="No custom orders in this period."
          />
        </Section>
        <Section title="Listing supply by tier" id="analytics-supply">
          <Table
            caption="Listings on the market now"
            head={["Tier", "Network", "Listings"]}
            rows={data.supplyByTier.map((s) => [s.tier, s.network, String(s.listings)])}
            empty="No listings on the market."
          />
        </Section>
        <Section title="Network fee estimates" id="analytics-gas">
          <Table
            caption="Fee estimates against what settled payments paid"
            head={["Network", "Payments", "Estimated ÷ actual"]}
            rows={data.gasAccuracy.map((g) => [g.network, String(g.payments), g.averageAccuracy === null ? "—" : String(g.averageAccuracy)])}
            empty="No settled payments in this period."
          />
        </Section>
        <Section title="Promotions" id="analytics-promotions">
          <Table
            caption="Promotions bought in the period"
            head={["Type", "Promotions"]}
            rows={data.promotions.map((p) => [p.promotionType, String(p.count)])}
            empty="No promotions in this period."
          />
        </Section>
      </div>
    </>
  );
}

/**
 * Sales per day of the period asked, one bar per day with its networks stacked (sales-chart.ts); the table
 * below holds the same figures. The bars stretch with the box; the labels are HTML at the page's text size.
 */
function SalesChart({ rows, period }: { rows: Analytics["salesByDay"]; period: Analytics["period"] }) {
  const chart = salesChart(rows, period);
  return (
    <figure className="rounded-xl border border-slate-800 bg-slate-900/60 p-3" data-testid="sales-chart">
      <div className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2">
        <div className="flex h-40 flex-col justify-between text-right text-xs text-slate-400 tabular-nums" aria-hidden="true">
          <span className="-mt-1.5">{chart.max}</span>
          <span className="-mb-1.5">0</span>
        </div>
        <svg
          viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
          preserveAspectRatio="none"
          className="h-40 w-full border-b border-l border-slate-600"
          role="img"
          aria-label={`Bar chart: ${chart.total} sales from ${period.from.slice(0, 10)} to ${period.to.slice(0, 10)}, one bar per day, at most ${chart.max} on one day; the table below lists every figure.`}
        >
          {chart.bars.map((b) => (
            <rect key={`${b.day}-${b.network}`} x={b.x} y={b.y} width={b.width} height={b.height} fill={NETWORK_COLOUR[b.network]} data-day={b.day}>
              <title>{`${formatUtcDay(b.day)} ${b.network}: ${b.sales} sales, ${b.volume} ${b.currency}`}</title>
            </rect>
          ))}
        </svg>
        <div className="relative col-start-2 mt-1 h-4 text-xs text-slate-400 tabular-nums" aria-hidden="true" data-testid="sales-chart-axis">
          {chart.ticks.map((t) => (
            <span
              key={t.align}
              className={`absolute top-0 whitespace-nowrap ${t.align === "middle" ? "-translate-x-1/2" : t.align === "end" ? "-translate-x-full" : ""}`}
              style={{ left: `${t.at * 100}%` }}
            >
              {formatUtcDay(t.day)}
            </span>
          ))}
        </div>
      </div>
      <figcaption className="mt-2 flex gap-4 text-xs text-slate-400">
        {(["ethereum", "solana"] as const).map((n) => (
          <span key={n} className="flex items-center gap-1">
            <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: NETWORK_COLOUR[n] }} />
            {n}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

function Section({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="min-w-0 space-y-3">
      <h2 id={id} className="text-lg font-semibold text-white">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Table({ caption, head, rows, empty }: { caption: string; head: string[]; rows: string[][]; empty: string }) {
  if (rows.length === 0) return <Empty text={empty} />;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus so keyboard users can scroll it (axe scrollable-region-focusable).
    <div className="max-h-80 overflow-auto rounded-xl border border-slate-800" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-slate-900 text-slate-400">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-800 text-slate-200">
          {rows.map((r, i) => (
            <tr key={i}>
              {r.map((cell, j) => (
                <td key={j} className="px-3 py-1.5 break-words">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl border border-slate-800 bg-slate-900/60 p-3">
      <dt className="text-xs text-slate-400">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-white">{value}</dd>
    </div>
  );
}

export function Empty({ text }: { text: string }) {
  return <p className="rounded-xl border border-dashed border-slate-700 p-6 text-center text-sm text-slate-400">{text}</p>;
}

export { Table as AdminTable, Section as AdminSection };
