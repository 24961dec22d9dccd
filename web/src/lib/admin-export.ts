// The admin panel's CSV export (transactions-profile-admin.md §9): the spec's columns, a file named with
// today's date, and cells that a spreadsheet would run as a formula defused with a leading apostrophe.
import Papa from "papaparse";
import type { AdminListing } from "../../../schema/listings";

export const EXPORT_COLUMNS = ["address", "network", "price", "currency", "category", "pattern", "status", "featured", "created"] as const;

/** A cell starting with = + - @, a tab or a carriage return gets a leading apostrophe (OWASP CSV injection). */
export function escapeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** "vanity-listings-YYYY-MM-DD.csv" for the local date. */
export function exportFileName(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `vanity-listings-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

export function listingsCsv(listings: Pick<AdminListing, "address" | "network" | "price" | "currency" | "category" | "pattern" | "status" | "isFeatured" | "createdAt">[]): string {
  const data = listings.map((l) =>
    [l.address, l.network, l.price, l.currency, l.category || "custom", l.pattern ?? "", l.status, l.isFeatured ? "yes" : "no", l.createdAt].map((v) => escapeFormula(String(v ?? ""))),
  );
  return Papa.unparse({ fields: [...EXPORT_COLUMNS], data }, { newline: "\n", quotes: false });
}

/** Starts the browser's download of `text` as a CSV file. */
export function downloadCsv(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
