// A row of the admin panel's Listings Management tab (ListingsTab.tsx): its status badge, its actions and the words of
// the confirmation that deleting or deactivating asks; and the tab's search and filter fields.
import { ADMIN_NETWORK_FILTERS, ADMIN_STATUS_FILTERS, type AdminListing } from "../../../../schema/listings";
import { networkName } from "../../../../schema/network";
import type { AdminSearch } from "./admin-search";

const STATUS_BADGE: Record<string, string> = {
  active: "bg-emerald-500/15 text-emerald-200",
  inactive: "bg-slate-600/30 text-slate-300",
  pending: "bg-amber-500/15 text-amber-200",
  sold: "bg-sky-500/15 text-sky-200",
  deleted: "bg-red-500/15 text-red-200",
};
export const control =
  "rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-white focus:border-violet-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-violet-500/40";

/** The search box and the network and status filters; the filters write the URL at once, the box through its caller. */
export function ListingsFilters({
  id,
  search,
  onSearch,
  network,
  status,
  onChange,
}: {
  id: string;
  search: string;
  onSearch: (text: string) => void;
  network: string;
  status: string;
  onChange: (patch: Partial<Record<keyof AdminSearch, unknown>>) => void;
}) {
  return (
    <div className="flex flex-col gap-3 rounded-2xl border border-slate-800 bg-slate-900/60 p-4 md:flex-row md:items-end">
      <div className="flex-1">
        <label htmlFor={`${id}-search`} className="mb-1 block text-sm text-slate-400">
          Search
        </label>
        <input
          id={`${id}-search`}
          type="search"
          className={`${control} w-full`}
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          placeholder="Address, category or pattern"
        />
      </div>
      <div>
        <label htmlFor={`${id}-network`} className="mb-1 block text-sm text-slate-400">
          Network
        </label>
        <select id={`${id}-network`} className={control} value={network} onChange={(e) => onChange({ network: e.target.value })}>
          {ADMIN_NETWORK_FILTERS.map((n) => (
            <option key={n} value={n}>
              {n === "all" ? "All networks" : networkName(n)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-status`} className="mb-1 block text-sm text-slate-400">
          Status
        </label>
        <select id={`${id}-status`} className={control} value={status} onChange={(e) => onChange({ status: e.target.value })}>
          {ADMIN_STATUS_FILTERS.map((s) => (
            <option key={s} value={s}>
              {s === "all" ? "All statuses" : s[0].toUpperCase() + s.slice(1)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/**
 * What the panel says of a custom order's address (docs/custom-orders.md#paying-and-delivery): the key was made in
 * its buyer's browser and the address is never listed, so it is not "inactive" waiting to be activated.
 */
function customOrderState(order: NonNullable<AdminListing["customOrder"]>): string {
  if (order.status === "delivered") return "delivered to its buyer";
  if (order.status === "found") return "held for its buyer's payment";
  return "custom order ended unpaid";
}

export function ListingStatus({ listing: l }: { listing: AdminListing }) {
  if (l.customOrder)
    return (
      <span data-testid="status-badge" className="inline-flex rounded-full bg-violet-500/15 px-2 py-0.5 text-xs font-semibold text-violet-200">
        {customOrderState(l.customOrder)}
      </span>
    );
  return (
    <span
      data-testid="status-badge"
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_BADGE[l.status] ?? STATUS_BADGE.inactive}`}
    >
      {l.status}
    </span>
  );
}

/** The confirmation's title, button and tone for deleting (cannot be undone) or deactivating (until activated again). */
export function confirmWords(
  target: { action: "delete" | "deactivate"; kind: "selected"; count: number } | { action: "delete" | "deactivate"; kind: "one" } | null,
): {
  title: string;
  confirmLabel: string;
  tone: "danger" | "primary";
} {
  const verb = target?.action === "deactivate" ? "Deactivate" : "Delete";
  const tone = target?.action === "deactivate" ? "primary" : "danger";
  if (target?.kind === "selected") {
    return { title: `${verb} ${target.count} selected listing${target.count === 1 ? "" : "s"}?`, confirmLabel: `${verb} listings`, tone };
  }
  return { title: `${verb} this listing?`, confirmLabel: `${verb} listing`, tone };
}

const rowButton = "rounded px-2 py-1 text-xs ring-1 ring-slate-700 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:opacity-40";

/**
 * A row's actions. A custom order's address gets none: activating would list someone else's key and always fails,
 * featuring means nothing for an address never listed, and deleteTarget it would cut the order from its address.
 */
export function ListingRowActions({
  listing: l,
  busy,
  onToggleStatus,
  onToggleFeatured,
  onDelete,
}: {
  listing: AdminListing;
  busy: boolean;
  onToggleStatus: () => void;
  onToggleFeatured: () => void;
  onDelete: () => void;
}) {
  if (l.customOrder) return <span className="text-xs text-slate-400">Belongs to its buyer (custom order {l.customOrder.id})</span>;
  return (
    <div className="flex flex-wrap gap-1">
      <button type="button" className={`${rowButton} text-slate-200 hover:ring-violet-500`} disabled={busy || l.status === "sold"} onClick={onToggleStatus}>
        {l.status === "active" ? "Deactivate" : "Activate"}
      </button>
      <button type="button" className={`${rowButton} text-slate-200 hover:ring-violet-500`} disabled={busy || l.status === "sold"} onClick={onToggleFeatured}>
        {l.isFeatured ? "Unfeature" : "Feature"}
      </button>
      <button type="button" className={`${rowButton} text-red-300 hover:ring-red-500`} disabled={busy} onClick={onDelete} aria-label={`Delete ${l.address}`}>
        Delete
      </button>
    </div>
  );
}
