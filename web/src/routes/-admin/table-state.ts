// The admin table's pure helpers: selection, paging text, the query for a page, and the bulk action toasts.
import type { BulkActionResponse } from "../../../../schema/listings";

export function toggleId(selected: ReadonlySet<number>, id: number): Set<number> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

export const allSelected = (selected: ReadonlySet<number>, ids: number[]) => ids.length > 0 && ids.every((id) => selected.has(id));

/** Select-all: selects every id shown, or clears them when all already are. */
export function toggleAll(selected: ReadonlySet<number>, ids: number[]): Set<number> {
  const next = new Set(selected);
  if (allSelected(selected, ids)) ids.forEach((id) => next.delete(id));
  else ids.forEach((id) => next.add(id));
  return next;
}

/** "Showing 21–40 of 57", or "No listings" when the total is 0. */
export function pageSummary(offset: number, shown: number, total: number): string {
  if (total === 0 || shown === 0) return "No listings";
  return `Showing ${offset + 1}–${offset + shown} of ${total}`;
}

/** The offset of a page (1-based) for a page size; the first page when the filters change. */
export const offsetFor = (page: number, pageSize: number) => Math.max(0, (page - 1) * pageSize);

/** "3 listings updated" plus what was left alone ("1 skipped: sold"). */
export function bulkResultText(result: BulkActionResponse, verb: "updated" | "deleted"): string {
  const main = `${result.updated} listing${result.updated === 1 ? "" : "s"} ${verb}`;
  if (result.skipped.length === 0) return main;
  const reasons = [...new Set(result.skipped.map((s) => s.reason))].join(", ");
  return `${main}; ${result.skipped.length} skipped (${reasons})`;
}

/**
 * The selection kept to rows that still exist on the page shown: a row deleted (by its own button, another
 * admin, a refresh) leaves the selection, so a bulk action never names a listing that is gone.
 */
export function selectionOnPage(selected: ReadonlySet<number>, ids: readonly number[]): Set<number> {
  const shown = new Set(ids);
  return new Set([...selected].filter((id) => shown.has(id)));
}

/** The ids a refused bulk call names as missing (the Worker's 404 body carries `missingIds`). */
export function missingIdsOf(bodyText: string): number[] {
  try {
    const body = JSON.parse(bodyText) as { missingIds?: unknown };
    return Array.isArray(body.missingIds) ? body.missingIds.filter((n): n is number => Number.isSafeInteger(n)) : [];
  } catch {
    return [];
  }
}
