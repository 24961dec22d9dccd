// The one table of the app: the marketplace's listings, the admin panel, the transactions tables,
// the profile's history and the bulk upload preview all describe their columns and hand the rows here, so the
// markup (caption, header cells with scope, loading, empty and error rows, responsive hiding) is written once.
import type { HTMLAttributes, ReactNode } from "react";

export type Column<T> = {
  key: string;
  /** What the header says; a string is also the column's name for screen readers. */
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Extra classes for this column's cells (header and body). */
  className?: string;
  /** Hidden on small screens (below Tailwind's sm or md breakpoint). */
  hideBelow?: "sm" | "md";
  /** A sortable column's state, for the header's aria-sort. */
  ariaSort?: "ascending" | "descending" | "none";
};

type Props<T> = {
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** Read by screen readers; not shown. */
  caption: string;
  /** While the first rows load: `skeletonRows` placeholder rows, or one row saying `loadingText`. */
  loading?: boolean;
  skeletonRows?: number;
  loadingText?: string;
  /** Shown in one full-width row when there is nothing to list (and not loading). */
  empty?: ReactNode;
  /** "compact" cells fit a 360 px phone (the marketplace); "regular" elsewhere. */
  density?: "compact" | "regular";
  testId?: string;
  /** Extra attributes per row (test ids, data-*, handlers). */
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | number | undefined>;
  tableClassName?: string;
  theadClassName?: string;
  /** Dims the rows while newer ones load (kept on screen so the page does not jump). */
  busy?: boolean;
};

const HIDE = { sm: "hidden sm:table-cell", md: "hidden md:table-cell" } as const;
const CELL = {
  // 4 px a side on a phone: the marketplace's four phone columns fit 360 px even with a reserved row's notice in
  // the Buy column (wider than Buy) and every address on its balanced lines (e2e/quality.e2e.ts).
  compact: { th: "px-1 py-2 sm:px-3", td: "px-1 py-2.5 sm:px-3" },
  regular: { th: "px-3 py-2", td: "px-3 py-2.5" },
} as const;

export function DataTable<T>({
  columns,
  rows,
  rowKey,
  caption,
  loading = false,
  skeletonRows = 0,
  loadingText = "Loading…",
  empty,
  density = "regular",
  testId,
  rowProps,
  tableClassName = "",
  theadClassName = "border-b border-slate-800",
  busy = false,
}: Props<T>) {
  const cell = CELL[density];
  const cls = (c: Column<T>, base: string) => [base, c.hideBelow ? HIDE[c.hideBelow] : "", c.className ?? ""].join(" ");
  return (
    <table
      className={`w-full text-left text-sm transition-opacity ${busy ? "opacity-50" : ""} ${tableClassName}`}
      data-testid={testId}
      aria-busy={loading || busy}
    >
      <caption className="sr-only">{caption}</caption>
      <thead className={theadClassName}>
        <tr>
          {columns.map((c) => (
            <th key={c.key} scope="col" aria-sort={c.ariaSort} className={cls(c, `${cell.th} text-xs font-semibold tracking-wide text-slate-400 uppercase`)}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-800">
        {loading && skeletonRows > 0
          ? Array.from({ length: skeletonRows }, (_, i) => (
              <tr key={`skeleton-${i}`} aria-hidden data-testid="table-skeleton-row">
                {columns.map((c) => (
                  <td key={c.key} className={cls(c, `${cell.td} align-middle`)}>
                    <div className="h-4 rounded bg-slate-800" />
                  </td>
                ))}
              </tr>
            ))
          : null}
        {loading && skeletonRows === 0 ? (
          <tr>
            <td colSpan={columns.length} className="px-3 py-10 text-center text-slate-400">
              {loadingText}
            </td>
          </tr>
        ) : null}
        {!loading && rows.length === 0 && empty !== undefined ? (
          <tr>
            <td colSpan={columns.length} className="px-3 py-10 text-center text-slate-400">
              {empty}
            </td>
          </tr>
        ) : null}
        {!loading &&
          rows.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((c) => (
                <td key={c.key} className={cls(c, `${cell.td} align-middle`)}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
      </tbody>
    </table>
  );
}
