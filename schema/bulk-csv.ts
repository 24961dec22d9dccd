// Reading a bulk-upload CSV: papaparse does the parsing (quotes, quoted
// newlines, BOM, CRLF); this checks the spec's headers. Rows go to POST /api/admin/addresses/bulk as they
// are: every cell is checked on the server, so a row the parser could not split cleanly is reported there.
// Shared by the seed step, the benchmark and the tests; the web's bulk-upload component may use it too.
import Papa from "papaparse";
import { BULK_CSV_COLUMNS, type BulkRow } from "./listings";

export type ParsedBulkCsv = { ok: true; rows: BulkRow[] } | { ok: false; message: string };

/** Parses the text of a bulk CSV; `Missing required headers: ...` when a column is absent. */
export function parseBulkCsv(text: string): ParsedBulkCsv {
  const parsed = Papa.parse<Record<string, string>>(text, {
    header: true,
    // The spec's files are comma-separated; guessing another delimiter would accept files that are not.
    delimiter: ",",
    skipEmptyLines: "greedy",
    transformHeader: (h) => h.trim().toLowerCase(),
  });
  const fields = parsed.meta.fields ?? [];
  const missing = BULK_CSV_COLUMNS.filter((c) => !fields.includes(c));
  if (missing.length > 0) return { ok: false, message: `Missing required headers: ${missing.join(", ")}` };
  const rows = parsed.data.map((r) => Object.fromEntries(BULK_CSV_COLUMNS.map((c) => [c, typeof r[c] === "string" ? r[c] : ""])) as BulkRow);
  return { ok: true, rows };
}

/** The rows back as CSV text, in the spec's column order (the benchmark and tests write files with it). */
export function formatBulkCsv(rows: BulkRow[]): string {
  return Papa.unparse({ fields: [...BULK_CSV_COLUMNS], data: rows.map((r) => BULK_CSV_COLUMNS.map((c) => r[c])) }, { newline: "\n" });
}
