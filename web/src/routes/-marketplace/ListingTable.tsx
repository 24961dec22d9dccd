// The marketplace table: star (the wallet's watchlist), Buy, network,
// Type, Age, Price, address. Network and Age are hidden on small screens. Type, Age and Price sort on the
// server through the shared sort in the URL.
import { Link } from "@tanstack/react-router";
import { startTransition, useEffect, useState } from "react";
import type { ListingView, SortField, SortOrder } from "../../../../schema/browse";
import { WatchStar } from "../../components/collectors/WatchStar";
import { type Column, DataTable } from "../../components/DataTable";
import { HighlightedAddress } from "../../components/HighlightedAddress";
import { TableGrade } from "../../components/listing/badges";
import { ReservationNotice, useReservation } from "../../components/listing/Reservation";
import { buyPhaseLabel, useBuyFlow } from "../../components/listing/use-buy-flow";
import { NetworkBadge } from "../../components/NetworkBadge";
import { buyButton } from "../../lib/listing-state";
import { formatPrice } from "../../lib/number-format";
import { TYPE_LEGEND } from "../../lib/rarity-display";
import { relativeTime } from "../../lib/date-format";
import { patternRanges } from "../../lib/pattern-ranges";

type Props = {
  listings: ListingView[];
  sortBy: SortField;
  sortOrder: SortOrder;
  onSort: (column: SortField) => void;
  busy: boolean;
};

/** About what a phone's first screen shows of the table (it starts near the bottom of that screen). */
const FIRST_PASS_ROWS = 5;

export function ListingTable({ listings, sortBy, sortOrder, onSort, busy }: Props) {
  // When the table first appears, its first rows are committed (and styled, laid out, painted) first and the
  // rest of the page's rows in a second pass: in one commit, a page of 20 rows (some 500 new elements) was
  // one 120-160 ms task of style and layout on a slow phone (4x CPU). The rows below the first screen follow a
  // frame or two later; a later page or sort renders all its rows at once.
  const [firstPass, setFirstPass] = useState(true);
  useEffect(() => startTransition(() => setFirstPass(false)), []);
  const shown = firstPass ? listings.slice(0, FIRST_PASS_ROWS) : listings;
  const now = Date.now();
  const sortable = (column: SortField, label: string): Pick<Column<ListingView>, "header" | "ariaSort"> => ({
    header: <SortButton label={label} column={column} sortBy={sortBy} sortOrder={sortOrder} onSort={onSort} />,
    ariaSort: sortBy === column ? (sortOrder === "asc" ? "ascending" : "descending") : "none",
  });
  // Compact cells on a phone: the whole table fits 360 px with every address shown in full, the
  // address wrapping in even pieces rather than scrolling or being cut.
  const columns: Column<ListingView>[] = [
    {
      key: "star",
      header: <span className="sr-only">Star</span>,
      className: "w-8 sm:w-10",
      cell: (l) => <WatchStar listingId={l.id} address={l.address} size="row" />,
    },
    { key: "buy", header: <span className="sr-only">Buy</span>, cell: (l) => <TableBuyButton listing={l} /> },
    { key: "network", header: "Network", hideBelow: "sm", cell: (l) => <NetworkBadge network={l.network} short /> },
    { key: "type", ...sortable("rarity", "Type"), hideBelow: "sm", cell: (l) => <TableGrade score={l.rarityScore} /> },
    {
      key: "age",
      ...sortable("createdAt", "Age"),
      hideBelow: "sm",
      className: "whitespace-nowrap text-slate-400",
      cell: (l) => <time dateTime={l.createdAt}>{relativeTime(l.createdAt, now)}</time>,
    },
    {
      key: "price",
      ...sortable("price", "Price"),
      className: "sm:whitespace-nowrap",
      cell: (l) => (
        <>
          <div className="font-semibold text-white tabular-nums" data-testid="listing-price">
            {formatPrice(l.price)} <span className="block text-xs sm:inline sm:text-sm">{l.currency}</span>
          </div>
          <div className="text-xs text-slate-400" data-testid="listing-usd">
            {l.formattedUsd}
          </div>
        </>
      ),
    },
    {
      key: "address",
      header: "Address",
      // A floor under the address's width, so a phone shows it in even pieces (HighlightedAddress: halves, quarters at
      // 360 px), not one character per line.
      className: "min-w-[9.5rem]",
      cell: (l) => (
        <>
          {/* The Type column is hidden on a phone; its label rides above the address instead. */}
          <TableGrade score={l.rarityScore} className="mb-0.5 block sm:hidden" />
          <Link
            to="/address/$id"
            params={{ id: String(l.id) }}
            className="rounded text-xs leading-snug text-slate-200 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400 sm:text-sm"
          >
            <HighlightedAddress address={l.address} ranges={patternRanges(l.address, l.network, l.pattern)} />
          </Link>
        </>
      ),
    },
  ];
  return (
    <div className="overflow-x-auto">
      <DataTable
        columns={columns}
        rows={shown}
        rowKey={(l) => l.id}
        caption="Listings for sale"
        density="compact"
        testId="listing-table"
        busy={busy}
        rowProps={(l) => ({ className: "hover:bg-slate-800/30", "data-testid": "listing-row", "data-listing-id": l.id })}
      />
      <p className="px-4 py-3 text-xs text-slate-400" data-testid="type-legend">
        {TYPE_LEGEND}
      </p>
    </div>
  );
}

function SortButton({
  label,
  column,
  sortBy,
  sortOrder,
  onSort,
}: {
  label: string;
  column: SortField;
  sortBy: SortField;
  sortOrder: SortOrder;
  onSort: (c: SortField) => void;
}) {
  const active = sortBy === column;
  return (
    <button
      type="button"
      onClick={() => onSort(column)}
      className={`inline-flex items-center gap-1 rounded uppercase hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400 ${active ? "text-white" : ""}`}
    >
      {label}
      <span aria-hidden className="text-xs">
        {active ? (sortOrder === "asc" ? "▲" : "▼") : "↕"}
      </span>
    </button>
  );
}

function TableBuyButton({ listing }: { listing: ListingView }) {
  const flow = useBuyFlow(listing, "table");
  const state = buyButton(listing);
  const reservation = useReservation(listing);
  const base =
    "rounded-md px-2.5 py-1 text-xs font-semibold whitespace-nowrap focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400";
  if (listing.isOwner) {
    return (
      <span className="text-xs text-slate-400" title="You own this listing">
        Yours
      </span>
    );
  }
  if (state.enabled && reservation.kind !== "free") return <ReservationNotice state={reservation} compact />;
  if (!state.enabled) {
    return (
      <button type="button" disabled className={`${base} cursor-not-allowed bg-slate-800 text-slate-400`}>
        {state.label}
      </button>
    );
  }
  return (
    <button
      type="button"
      className={`${base} bg-violet-600 text-white hover:bg-violet-500 disabled:cursor-wait disabled:opacity-80`}
      aria-label={flow.phase === "idle" ? `Buy ${listing.address}` : undefined}
      aria-busy={flow.phase !== "idle"}
      disabled={flow.phase !== "idle"}
      onClick={flow.start}
    >
      {buyPhaseLabel(flow.phase, "Buy")}
    </button>
  );
}
