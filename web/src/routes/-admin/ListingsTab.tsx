// The admin panel's Listings Management tab:
// stat cards, search and filters, select-all with bulk actions, the table with row actions, and paging. A row's
// status, its actions and the filters' fields are in ListingRow.tsx.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useState } from "react";
import { ADMIN_PAGE_SIZES, type AdminListing, type BulkActionResponse } from "../../../../schema/listings";
import { errorMessage } from "../../api/error-message";
import { HttpError } from "../../api/http";
import {
  adminDeleteListing,
  adminListingsQuery,
  adminStatsQuery,
  adminUpdateListing,
  bulkDelete,
  bulkSetFeatured,
  bulkSetStatus,
  exportAdminListings,
  listingChangeMutation,
} from "../../api/listings-admin";
import { type Column, DataTable } from "../../components/DataTable";
import { NetworkBadge } from "../../components/NetworkBadge";
import { toast } from "../../components/toast-store";
import { downloadCsv, exportFileName, exportSummary, listingsCsv } from "../../lib/admin-export";
import { formatDay } from "../../lib/date-format";
import { formatPriceTrimmed } from "../../lib/number-format";
import { shortAddress } from "../../lib/short-address";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { type AdminSearch, adminState } from "./admin-search";
import { confirmWords, control, ListingRowActions, ListingStatus, ListingsFilters } from "./ListingRow";
import { useDebounced } from "../../components/use-debounced";
import { patternText } from "../../lib/pattern-ranges";
import { allSelected, bulkResultText, missingIdsOf, offsetFor, pageSummary, selectionOnPage, toggleAll, toggleId } from "./table-state";

function useErrorToast(isError: boolean, at: number, title: string) {
  useEffect(() => {
    if (isError) toast({ title, description: "Try again in a moment.", variant: "destructive" });
  }, [isError, at, title]);
}

type Props = { search: AdminSearch; onChange: (patch: Partial<Record<keyof AdminSearch, unknown>>, replace?: boolean) => void };

/** The search box applies after this pause in typing. */
const SEARCH_PAUSE_MS = 300;

export function ListingsTab({ search: urlSearch, onChange }: Props) {
  const id = useId();
  const queryClient = useQueryClient();
  // Filters, page and page size live in the URL (admin-search.ts); only the typed text and the selection are local.
  const { q, network, status, page, limit: pageSize } = adminState(urlSearch);
  const [search, setSearch] = useState(q);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const debouncedSearch = useDebounced(search.trim(), SEARCH_PAUSE_MS);

  // Typing replaces the history entry rather than adding one per pause; the URL changing elsewhere (back
  // button, a shared link) puts its text in the box.
  useEffect(() => {
    if (debouncedSearch !== q) onChange({ q: debouncedSearch }, true);
  }, [debouncedSearch]);
  useEffect(() => setSearch((typed) => (typed.trim() === q ? typed : q)), [q]);

  // Selection belongs to the page shown: another page or new filters start with nothing selected.
  const goTo = (next: number) => onChange({ page: next });
  useEffect(() => setSelected(new Set()), [q, network, status, pageSize, page]);

  const stats = useQuery(adminStatsQuery());
  const listings = useQuery(adminListingsQuery({ limit: pageSize, offset: offsetFor(page, pageSize), search: q, network, status }));
  useErrorToast(stats.isError, stats.errorUpdatedAt, "Failed to fetch admin stats");
  useErrorToast(listings.isError, listings.errorUpdatedAt, "Failed to fetch admin addresses");

  const rows = useMemo(() => listings.data?.addresses ?? [], [listings.data]);
  const ids = rows.map((r) => r.id);
  const pagination = listings.data?.pagination;

  // The selection follows the rows that exist: a row deleted by its own button (or by anyone, seen on refresh)
  // leaves it, so a bulk action never names a listing that is gone.
  useEffect(() => {
    setSelected((prev) => {
      const next = selectionOnPage(prev, ids);
      return next.size === prev.size ? prev : next;
    });
  }, [rows]);

  const needSelection = (what: "update" | "delete") => {
    if (selected.size > 0) return false;
    toast({ title: "No Listings Selected", description: `Please select listings to ${what}`, variant: "destructive" });
    return true;
  };

  /**
   * A bulk call over the selection, reported per row (done, skipped and why). Rows someone else removed since
   * the page loaded are left out and reported, and the rest still go through.
   */
  const bulk = useMutation(
    listingChangeMutation(queryClient, async ({ action, chosen }: { action: (ids: number[]) => Promise<BulkActionResponse>; chosen: number[] }) => {
      let gone: number[] = [];
      let result: BulkActionResponse;
      try {
        result = await action(chosen);
      } catch (err) {
        gone = err instanceof HttpError && err.status === 404 ? missingIdsOf(err.bodyText) : [];
        const rest = chosen.filter((id) => !gone.includes(id));
        if (gone.length === 0 || rest.length === 0) throw err;
        result = await action(rest);
      }
      return { ...result, skipped: [...result.skipped, ...gone.map((id) => ({ id, reason: "no longer exists" }))] };
    }),
  );
  /** One row's status, featured flag or deletion. */
  const rowChange = useMutation(listingChangeMutation(queryClient, (change: () => Promise<unknown>) => change()));
  const busy = bulk.isPending || rowChange.isPending;

  const run = (action: (ids: number[]) => Promise<BulkActionResponse>, ok: string, verb: "updated" | "deleted", failTitle: string, fallback: string) =>
    bulk.mutate(
      { action, chosen: [...selected] },
      {
        onSuccess: (report) => {
          toast({ title: ok, description: bulkResultText(report, verb), variant: "success" });
          setSelected(new Set());
        },
        onError: (err) => toast({ title: failTitle, description: errorMessage(err) || fallback, variant: "destructive" }),
      },
    );

  const bulkUpdate = (action: (ids: number[]) => Promise<BulkActionResponse>) => {
    if (needSelection("update")) return;
    run(action, "Bulk Update Complete", "updated", "Update Failed", "Failed to update listings");
  };

  // Deleting and deactivating ask first (ConfirmDialog): the selection, or one row.
  type Asked = "delete" | "deactivate";
  const [deleteTarget, setDeleteTarget] = useState<
    { action: Asked; kind: "selected"; count: number } | { action: Asked; kind: "one"; listing: AdminListing } | null
  >(null);
  const bulkRemove = () => {
    if (needSelection("delete")) return;
    setDeleteTarget({ action: "delete", kind: "selected", count: selected.size });
  };
  const bulkDeactivate = () => {
    if (needSelection("update")) return;
    setDeleteTarget({ action: "deactivate", kind: "selected", count: selected.size });
  };

  // Export covers every listing the filters match, not only this page or its selection (one read of the server's
  // export route, capped at ADMIN_EXPORT_CAP with a message saying so).
  const exporter = useMutation({
    mutationFn: () => exportAdminListings({ search: q, network, status }),
    onSuccess: (result) => {
      const name = exportFileName();
      downloadCsv(listingsCsv(result.addresses), name);
      toast({
        title: "Export Complete",
        description: exportSummary({ exported: result.addresses.length, total: result.total, cap: result.cap }, name),
        variant: "success",
      });
    },
    onError: (err) => toast({ title: "Export Failed", description: errorMessage(err) || "Failed to export listings", variant: "destructive" }),
  });

  const rowAction = (change: () => Promise<unknown>, ok: string, okText: string, failTitle: string, fallback: string) =>
    rowChange.mutate(change, {
      onSuccess: () => toast({ title: ok, description: okText, variant: "success" }),
      onError: (err) => toast({ title: failTitle, description: errorMessage(err) || fallback, variant: "destructive" }),
    });

  const setStatus = (l: AdminListing, next: "active" | "inactive") =>
    rowAction(
      () => adminUpdateListing(l.id, { status: next }),
      "Status Updated",
      `${shortAddress(l.address)} is now ${next}`,
      "Update Failed",
      "Failed to update listing status",
    );
  // Activating lists it again at once; deactivating takes it off the market, so it asks first.
  const toggleStatus = (l: AdminListing) =>
    l.status === "active" ? setDeleteTarget({ action: "deactivate", kind: "one", listing: l }) : setStatus(l, "active");
  const toggleFeatured = (l: AdminListing) =>
    rowAction(
      () => adminUpdateListing(l.id, { isFeatured: !l.isFeatured }),
      "Featured Status Updated",
      `${shortAddress(l.address)} is ${l.isFeatured ? "no longer featured" : "now featured"}`,
      "Update Failed",
      "Failed to update featured status",
    );
  const remove = (l: AdminListing) => setDeleteTarget({ action: "delete", kind: "one", listing: l });
  const confirmDelete = () => {
    if (deleteTarget?.action === "deactivate") {
      if (deleteTarget.kind === "selected") bulkUpdate((ids) => bulkSetStatus(ids, "inactive"));
      else setStatus(deleteTarget.listing, "inactive");
    } else if (deleteTarget?.kind === "selected") run(bulkDelete, "Bulk Delete Complete", "deleted", "Delete Failed", "Failed to delete listing(s)");
    else if (deleteTarget?.kind === "one") {
      const l = deleteTarget.listing;
      rowAction(() => adminDeleteListing(l.id), "Listing Deleted", `${shortAddress(l.address)} was deleted`, "Delete Failed", "Failed to delete listing(s)");
    }
    setDeleteTarget(null);
  };

  const statCards: [string, number | undefined][] = [
    ["Total Listings", stats.data?.totalListings],
    ["Active Listings", stats.data?.activeListings],
    ["Featured", stats.data?.featuredListings],
    ["Total Users", stats.data?.totalUsers],
  ];
  const columns: Column<AdminListing>[] = [
    {
      key: "select",
      header: (
        <input
          type="checkbox"
          aria-label="Select all listings on this page"
          checked={allSelected(selected, ids)}
          onChange={() => setSelected(toggleAll(selected, ids))}
          className="accent-violet-500"
        />
      ),
      cell: (l) => (
        <input
          type="checkbox"
          aria-label={`Select ${l.address}`}
          checked={selected.has(l.id)}
          onChange={() => setSelected(toggleId(selected, l.id))}
          className="accent-violet-500"
        />
      ),
    },
    {
      key: "address",
      header: "Address",
      cell: (l) => (
        <>
          <span className="font-mono text-slate-100" title={l.address}>
            {shortAddress(l.address)}
          </span>
          {l.pattern && <span className="block font-mono text-xs text-violet-300">{patternText(l.pattern)}</span>}
        </>
      ),
    },
    { key: "network", header: "Network", cell: (l) => <NetworkBadge network={l.network} short /> },
    {
      key: "price",
      header: "Price",
      className: "tabular-nums",
      cell: (l) => (
        <>
          <span className="text-white">
            {formatPriceTrimmed(l.price)} {l.currency}
          </span>
          {l.formattedUsd && <span className="block text-xs text-slate-400">{l.formattedUsd}</span>}
        </>
      ),
    },
    { key: "category", header: "Category", className: "text-slate-300", cell: (l) => l.category || "Custom" },
    { key: "status", header: "Status", cell: (l) => <ListingStatus listing={l} /> },
    {
      key: "featured",
      header: "Featured",
      cell: (l) => (l.isFeatured ? <span className="text-amber-300">★ Yes</span> : <span className="text-slate-400">☆ No</span>),
    },
    { key: "created", header: "Created", className: "text-slate-400", cell: (l) => formatDay(l.createdAt) },
    {
      key: "actions",
      header: "Actions",
      cell: (l) => (
        <ListingRowActions
          listing={l}
          busy={busy}
          onToggleStatus={() => toggleStatus(l)}
          onToggleFeatured={() => toggleFeatured(l)}
          onDelete={() => remove(l)}
        />
      ),
    },
  ];
  const bulkButton = "rounded-lg border border-slate-700 px-3 py-1.5 text-sm text-slate-200 hover:border-violet-500 disabled:opacity-50";

  return (
    <div className="space-y-6">
      <ConfirmDialog
        open={deleteTarget !== null}
        onOpenChange={(open) => !open && setDeleteTarget(null)}
        {...confirmWords(deleteTarget)}
        onConfirm={confirmDelete}
      >
        <p>
          {deleteTarget?.kind === "one" ? <span className="font-mono break-all">{deleteTarget.listing.address}</span> : "They"}{" "}
          {deleteTarget?.action === "deactivate"
            ? `${deleteTarget.kind === "one" ? "leaves" : "leave"} the marketplace and cannot be bought until an admin activates ${deleteTarget.kind === "one" ? "it" : "them"} again.`
            : `${deleteTarget?.kind === "one" ? "leaves" : "leave"} the marketplace and cannot be bought. This cannot be undone.`}
        </p>
      </ConfirmDialog>
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {statCards.map(([title, value]) => (
          <div key={title} className="rounded-2xl border border-slate-800 bg-slate-900/60 p-4" data-testid="stat-card">
            <p className="text-sm text-slate-400">{title}</p>
            <p className="mt-1 text-2xl font-bold tabular-nums text-white">{stats.isLoading ? "…" : (value ?? "—")}</p>
          </div>
        ))}
      </div>

      <ListingsFilters id={id} search={search} onSearch={setSearch} network={network} status={status} onChange={onChange} />

      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Bulk actions">
        <span className="mr-2 text-sm text-slate-400" aria-live="polite">
          {selected.size} selected
        </span>
        <button type="button" className={bulkButton} disabled={busy} onClick={() => bulkUpdate((ids) => bulkSetStatus(ids, "active"))}>
          Activate
        </button>
        <button type="button" className={bulkButton} disabled={busy} onClick={bulkDeactivate}>
          Deactivate
        </button>
        <button type="button" className={bulkButton} disabled={busy} onClick={() => bulkUpdate((ids) => bulkSetFeatured(ids, true))}>
          Feature
        </button>
        <button type="button" className={bulkButton} disabled={busy} onClick={() => bulkUpdate((ids) => bulkSetFeatured(ids, false))}>
          Unfeature
        </button>
        <button
          type="button"
          className={bulkButton}
          disabled={busy || exporter.isPending}
          aria-busy={exporter.isPending}
          title="Every listing the search and filters match, on every page"
          onClick={() => exporter.mutate()}
        >
          {exporter.isPending ? "Exporting…" : "Export all matching"}
        </button>
        <button type="button" className={`${bulkButton} hover:border-red-500 hover:text-red-200`} disabled={busy} onClick={bulkRemove}>
          Delete
        </button>
      </div>

      <div className="overflow-x-auto rounded-2xl border border-slate-800">
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(l) => l.id}
          caption="Listings"
          loading={listings.isLoading}
          loadingText="Loading listings…"
          empty={listings.isError ? "Listings could not be loaded." : "No listings match these filters."}
          testId="admin-table"
          tableClassName="min-w-[56rem]"
          theadClassName="bg-slate-900"
          rowProps={(l) => ({ "data-testid": "admin-row", className: selected.has(l.id) ? "bg-violet-500/5" : undefined })}
        />
      </div>

      <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-400">
        <span aria-live="polite" data-testid="page-summary">
          {pagination ? pageSummary(pagination.offset, rows.length, pagination.total) : ""}
        </span>
        <div className="flex items-center gap-2">
          <label htmlFor={`${id}-size`}>Per page</label>
          <select id={`${id}-size`} className={control} value={pageSize} onChange={(e) => onChange({ limit: Number(e.target.value) })}>
            {ADMIN_PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          <button type="button" className={bulkButton} disabled={!pagination?.hasPrevPage} onClick={() => goTo(Math.max(1, page - 1))}>
            Previous
          </button>
          <span>
            Page {pagination?.page ?? page} of {Math.max(1, pagination?.totalPages ?? 1)}
          </span>
          <button type="button" className={bulkButton} disabled={!pagination?.hasNextPage} onClick={() => goTo(page + 1)}>
            Next
          </button>
        </div>
      </div>
    </div>
  );
}
