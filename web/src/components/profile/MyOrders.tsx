// The profile's "My Orders": the signed-in Ethereum wallet's custom orders (waiting, grinding, found, paying,
// paid, delivered, expired, cancelled), each linking to its order page. A found address shows in the compact
// form of the site's tight lists, its ordered prefix and suffix highlighted: whole, it widened Profile to 436 px
// on a 390 px phone.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { myOrdersQuery } from "../../api/custom-orders";
import { patternRanges } from "../../lib/pattern-ranges";
import { HighlightedAddress } from "../HighlightedAddress";
import { orderStage, STAGE_LABEL } from "../../routes/-custom-order/order-stage";

export function MyOrders({ wallet }: { wallet: string }) {
  const orders = useQuery(myOrdersQuery(wallet));
  const rows = orders.data?.orders ?? [];
  return (
    <section aria-labelledby="my-orders-title" className="mt-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="my-orders-title" className="text-2xl font-semibold text-white">
          My Orders
        </h2>
        <Link to="/custom-order" className="rounded-lg border border-slate-700 px-4 py-2 text-sm text-slate-200 hover:border-violet-500">
          Order a custom address
        </Link>
      </div>
      {orders.isPending && <p className="mt-4 text-slate-400">Loading your orders…</p>}
      {orders.isError && <p className="mt-4 text-red-300">Your orders could not be loaded; try again in a moment.</p>}
      {orders.isSuccess && rows.length === 0 && <p className="mt-4 text-slate-400">No custom orders yet.</p>}
      {rows.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-800 rounded-2xl border border-slate-800 bg-slate-900/60" data-testid="my-orders">
          {rows.map((o) => (
            <li key={o.id}>
              <Link
                to="/custom-orders/$id"
                params={{ id: String(o.id) }}
                className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 hover:bg-slate-800/50"
              >
                {o.address ? (
                  <HighlightedAddress
                    address={o.address}
                    ranges={patternRanges(o.address, "ethereum", `${o.prefix}...${o.suffix}`)}
                    className="text-slate-100"
                    compact
                  />
                ) : (
                  <span className="min-w-0 font-mono break-all text-slate-100">{`0x${o.prefix}…${o.suffix}`}</span>
                )}
                <span className="text-sm text-slate-400">
                  <span data-testid="my-order-stage">{STAGE_LABEL[orderStage(o)]}</span> · {o.price} ETH
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
