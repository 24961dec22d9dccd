// The admin queue of custom orders: the grinders seen today (what they run on, their rate, their order), and the
// orders with difficulty, age, status and their grinder's last progress, refreshed every 15 s. The grinders work
// through the same API (`npm run grind -- --orders`); this is for watching them, in words: a grinder by the name
// Admin > Health gives it, an order's status as the buyer's page says it (docs/custom-orders.md#several-grinders).
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { type GrinderRow, QUEUE_FILTERS } from "../../../../schema/custom-orders";
import type { CustomOrderStatus } from "../../../../schema/db/custom-orders";
import { grinderName } from "../../../../schema/health";
import { orderQueueQuery } from "../../api/custom-orders";
import { compactNumber, formatDuration } from "../../lib/duration";
import { shortAddress } from "../../lib/short-address";
import { PowerOfTwo } from "../../components/PowerOfTwo";

/** An order's status in words, for the operator (the buyer's page words its own stages: order-stage.ts). */
const STATUS_WORDS: Record<CustomOrderStatus, string> = {
  open: "Waiting for a grinder",
  grinding: "Being ground",
  found: "Found, waiting for its buyer's payment",
  delivered: "Delivered",
  expired: "Expired",
  cancelled: "Cancelled",
};

const FILTER_WORDS: Record<(typeof QUEUE_FILTERS)[number], string> = { waiting: "Waiting or being ground", all: "All orders", ...STATUS_WORDS };

export function CustomOrdersTab() {
  const id = useId();
  const [status, setStatus] = useState<(typeof QUEUE_FILTERS)[number]>("waiting");
  const queue = useQuery(orderQueueQuery(status));
  const rows = queue.data?.orders ?? [];
  return (
    <section aria-labelledby={`${id}-title`}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
            Custom orders
          </h2>
          <p className="text-sm text-slate-400">Filled by the grinders listed below; the grinder's half of each key (its offset) is never shown here.</p>
        </div>
        <label className="text-sm text-slate-300">
          Show{" "}
          <select
            value={status}
            onChange={(e) => setStatus(e.target.value as typeof status)}
            className="ml-1 rounded-lg border border-slate-700 bg-slate-950 px-2 py-1"
          >
            {QUEUE_FILTERS.map((f) => (
              <option key={f} value={f}>
                {FILTER_WORDS[f]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {queue.isSuccess && <GrinderList grinders={queue.data.grinders} />}
      {queue.isPending && <p className="mt-6 text-slate-400">Loading the queue…</p>}
      {queue.isError && <p className="mt-6 text-red-300">The queue could not be loaded: {queue.error.message}</p>}
      {queue.isSuccess && rows.length === 0 && (
        <p className="mt-6 rounded-xl border border-dashed border-slate-700 p-6 text-center text-slate-400">No orders here.</p>
      )}
      {rows.length > 0 && (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full min-w-[640px] text-left text-sm" data-testid="order-queue">
            <thead className="text-xs text-slate-400 uppercase">
              <tr>
                <th className="py-2 pr-3">#</th>
                <th className="py-2 pr-3">Pattern</th>
                <th className="py-2 pr-3">Difficulty</th>
                <th className="py-2 pr-3">Age</th>
                <th className="py-2 pr-3">Status</th>
                <th className="py-2 pr-3">Grinder</th>
                <th className="py-2 pr-3">Buyer</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-800">
              {rows.map((o) => (
                <tr key={o.id}>
                  <td className="py-2 pr-3 text-slate-400">{o.id}</td>
                  <td className="py-2 pr-3 font-mono text-slate-100">
                    0x{o.prefix}…{o.suffix}
                    {o.caseSensitive ? " (Aa)" : ""}
                  </td>
                  <td className="py-2 pr-3">
                    <PowerOfTwo bits={o.difficultyBits} />
                  </td>
                  <td className="py-2 pr-3">{formatDuration(o.ageSeconds)}</td>
                  <td className="py-2 pr-3">
                    {STATUS_WORDS[o.status]}
                    {o.address ? <div className="font-mono text-xs text-emerald-300">{shortAddress(o.address)}</div> : null}
                  </td>
                  <td className="py-2 pr-3 text-slate-300">
                    {o.progress
                      ? `${compactNumber(o.progress.attempts)} at ${compactNumber(o.progress.rate)}/s, ${formatDuration((Date.now() - Date.parse(o.progress.at)) / 1000)} ago`
                      : "—"}
                  </td>
                  <td className="py-2 pr-3 font-mono text-xs text-slate-400">{shortAddress(o.buyerWallet)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function GrinderList({ grinders }: { grinders: GrinderRow[] }) {
  const online = grinders.filter((g) => g.online).length;
  return (
    <div className="mt-4 rounded-xl border border-slate-800 p-4" data-testid="grinder-list">
      <h3 className="text-sm font-semibold text-white">
        Grinders: {online} online{grinders.length > online ? `, ${grinders.length - online} seen earlier today` : ""}
      </h3>
      {grinders.length === 0 ? (
        <p className="mt-1 text-sm text-amber-200">
          No grinder has reported today: orders wait. Start one on a grinding host with the command{" "}
          <span className="font-mono">npm run grind -- --orders --gpu=auto</span>.
        </p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm text-slate-300">
          {grinders.map((g) => (
            <li key={g.id} className="break-words">
              <span className={g.online ? "text-emerald-300" : "text-slate-400"}>{g.online ? "●" : "○"}</span> {grinderName(g.id)} on {g.label}
              {g.rate !== null ? `, ${compactNumber(g.rate)} tries a second` : ""}
              {g.orderId !== null ? `, on order ${g.orderId}` : ", idle"}; last seen {formatDuration((Date.now() - Date.parse(g.lastSeenAt)) / 1000)} ago{" "}
              <span className="font-mono text-xs text-slate-400" title={g.id}>
                ({g.id.slice(0, 8)})
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
