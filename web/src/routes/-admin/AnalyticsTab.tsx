// Admin > Analytics (issue 24 §1): a period selector (7/30/90 days), sales per day and network as an SVG chart
// with the same figures as a table, average price by category and pattern length, reservation outcomes, time from
// required depth to key release, custom orders by state, listing supply by tier; CSV export of what is shown.
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ANALYTICS_PERIODS, type AnalyticsPeriod } from "../../../../schema/analytics";
import { errorMessage } from "../../api/error-message";
import { type Analytics, analyticsQuery } from "../../api/operations";
import { Spinner } from "../../components/Spinner";
import { analyticsCsv, analyticsFileName, downloadCsv } from "../../lib/admin-export";
import { formatDuration } from "../../lib/duration";

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
        {sales === 0 ? <Empty text="No sales in this period." /> : <SalesChart rows={data.salesByDay} />}
        <Table
          caption="Sales per day and network"
          head={["Day", "Network", "Sales", "Volume"]}
          rows={data.salesByDay.map((d) => [d.day, d.network, String(d.sales), `${d.volume} ${d.currency}`])}
          empty="No sales in this period."
        />
      </Section>
      <div className="grid gap-8 lg:grid-cols-2">
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

/** Sales count per day, one bar per network side by side; the table below holds the same figures. */
function SalesChart({ rows }: { rows: Analytics["salesByDay"] }) {
  const days = [...new Set(rows.map((r) => r.day))].sort();
  const max = Math.max(1, ...rows.map((r) => r.sales));
  const W = 600;
  const H = 200;
  const pad = { left: 32, bottom: 24, top: 8 };
  const slot = (W - pad.left) / days.length;
  const bar = Math.max(1, slot / 2 - 2);
  const y = (n: number) => H - pad.bottom - (n / max) * (H - pad.bottom - pad.top);
  const total = rows.reduce((n, r) => n + r.sales, 0);
  return (
    <figure className="overflow-hidden rounded-xl border border-slate-800 bg-slate-900/60 p-3">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="h-auto w-full"
        role="img"
        aria-label={`Bar chart: ${total} sales over ${days.length} days with sales, at most ${max} on one day and network; the table below lists every bar.`}
      >
        <line x1={pad.left} x2={W} y1={H - pad.bottom} y2={H - pad.bottom} stroke="#475569" />
        <text x={pad.left - 4} y={pad.top + 8} textAnchor="end" fontSize="10" fill="#94a3b8">
          {max}
        </text>
        <text x={pad.left - 4} y={H - pad.bottom} textAnchor="end" fontSize="10" fill="#94a3b8">
          0
        </text>
        {days.map((day, i) =>
          (["ethereum", "solana"] as const).map((network, j) => {
            const r = rows.find((x) => x.day === day && x.network === network);
            if (!r) return null;
            const x = pad.left + i * slot + 1 + j * (bar + 1);
            return (
              <rect key={`${day}-${network}`} x={x} y={y(r.sales)} width={bar} height={H - pad.bottom - y(r.sales)} fill={NETWORK_COLOUR[network]}>
                <title>{`${day} ${network}: ${r.sales} sales, ${r.volume} ${r.currency}`}</title>
              </rect>
            );
          }),
        )}
        <text x={pad.left} y={H - 6} fontSize="10" fill="#94a3b8">
          {days[0]}
        </text>
        <text x={W} y={H - 6} fontSize="10" fill="#94a3b8" textAnchor="end">
          {days.at(-1)}
        </text>
      </svg>
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
    <section aria-labelledby={id} className="space-y-3">
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
