// The bulk upload's rows on the client: the file check, the
// per-row preview (the spec's fixed price and rarity by matched length, 8+ skipped), chunking for
// POST /api/admin/addresses/bulk, and merging the server's per-row results back in.
import { BULK_CSV_COLUMNS, BULK_MESSAGES, type BulkAppraisal, type BulkRow, type BulkRowResult } from "../../../../schema/listings";
import { type BulkPricing, priceWarnings } from "../../../../schema/price-advice";

export type RowStatus = "pending" | "validating" | "success" | "error";

export type UploadRow = {
  /** Position in the file (0-based, data rows only). */
  index: number;
  row: BulkRow;
  matchedLength: number;
  /** The spec's bulk price for the matched length, or null when the row is skipped (8+). */
  price: string | null;
  rarity: number;
  status: RowStatus;
  message?: string;
  id?: number;
};

/** Rows per request (the server takes up to BULK_MAX_ROWS). */
export const UPLOAD_CHUNK = 100;
/** Largest CSV accepted in the browser: 5 MB (a 10,000-row file is about 1.3 MB). */
export const MAX_CSV_BYTES = 5 * 1024 * 1024;

export const TEMPLATE_ROW: BulkRow = {
  address: "0x00000a3f5c2b8e1d4f6a9c0b7e2d5f8a1c4e7b90",
  private_key: "replace-with-the-64-hex-character-private-key",
  platform: "ethereum",
  pattern_type: "prefix",
  pattern_matched: "00000",
};

// The spec's fixed tables are shared with the server, so the preview shows what the upload will store.
import { bulkPrice, bulkRarity } from "../../../../schema/bulk-pricing";

export { bulkPrice, bulkRarity };

/** The matched characters, not counting a leading 0x (as the server counts them). */
export const matchedLength = (patternMatched: string) => patternMatched.trim().replace(/^0x/i, "").length;

/** Why a chosen file is refused, or null when it may be read. */
export function fileProblem(file: { name: string; type: string; size: number }): { title: string; description: string } | null {
  const csvType = file.type === "text/csv" || file.type === "application/vnd.ms-excel" || (file.type === "" && /\.csv$/i.test(file.name));
  if (!csvType) return { title: "Invalid File", description: "Please select a valid CSV file" };
  if (file.size > MAX_CSV_BYTES)
    return { title: "Invalid File", description: `The CSV file is too large (at most ${MAX_CSV_BYTES / 1024 / 1024} MB); split it into smaller files` };
  if (file.size === 0) return { title: "Invalid File", description: "The CSV file is empty" };
  return null;
}

/** The preview: every parsed row, with rows missing a field or matching 8+ characters already marked as errors. */
export function prepareRows(rows: BulkRow[]): UploadRow[] {
  return rows.map((row, index) => {
    const length = matchedLength(row.pattern_matched ?? "");
    const base = { index, row, matchedLength: length, price: bulkPrice(length), rarity: bulkRarity(length) };
    if (BULK_CSV_COLUMNS.some((c) => !row[c] || row[c].trim() === "")) return { ...base, status: "error", message: BULK_MESSAGES.missingFields };
    if (length >= 8) return { ...base, status: "error", message: BULK_MESSAGES.skipped8 };
    return { ...base, status: "pending" };
  });
}

export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The rows after one chunk's answer: `sent[i]` is the row index the server's result `i` belongs to. */
export function applyResults(rows: UploadRow[], sent: number[], results: BulkRowResult[]): UploadRow[] {
  const byIndex = new Map<number, BulkRowResult>();
  for (const r of results) if (sent[r.index] !== undefined) byIndex.set(sent[r.index], r);
  const inChunk = new Set(sent);
  return rows.map((row) => {
    if (!inChunk.has(row.index)) return row;
    const r = byIndex.get(row.index);
    if (!r) return { ...row, status: "error", message: "Upload failed" };
    if (r.status === "success") return { ...row, status: "success", id: r.id, price: r.price, message: undefined };
    return { ...row, status: "error", message: r.message || "Upload failed" };
  });
}

/** Marks the rows of a chunk whose request failed as a whole. */
export function failRows(rows: UploadRow[], sent: number[], message: string): UploadRow[] {
  const inChunk = new Set(sent);
  return rows.map((row) => (inChunk.has(row.index) ? { ...row, status: "error", message: message || "Upload failed" } : row));
}

export function countResults(rows: UploadRow[]): { succeeded: number; failed: number } {
  let succeeded = 0;
  let failed = 0;
  for (const r of rows) {
    if (r.status === "success") succeeded++;
    else if (r.status === "error") failed++;
  }
  return { succeeded, failed };
}

/** A row without its key, as the preview's appraisal is sent (the key is never sent before the upload itself). */
export const withoutKey = ({ private_key: _key, ...rest }: BulkRow): Omit<BulkRow, "private_key"> => rest;

/** The price the upload will give a row: the spec's table or the estimate the row's page will show. */
export function previewPrice(row: UploadRow, appraisal: BulkAppraisal | undefined, pricing: BulkPricing): string | null {
  if (row.status === "success") return row.price;
  if (pricing === "table" || appraisal?.status !== "ok") return row.price;
  return row.price === null ? null : appraisal.estimatedValue;
}

/** The preview's warnings for one row, in words and naming the row ("Row 3: …"). */
export function rowWarnings(row: UploadRow, appraisal: BulkAppraisal | undefined, pricing: BulkPricing): string[] {
  if (!appraisal || row.status === "error") return [];
  const n = `Row ${row.index + 1}`;
  if (appraisal.status === "error") return [`${n}: ${appraisal.message}`];
  const price = previewPrice(row, appraisal, pricing);
  if (price === null) return [];
  return priceWarnings({ price, estimate: appraisal.estimatedValue, currency: appraisal.currency, notable: appraisal.notable }).map(
    (w) => `${n}: ${w.message}`,
  );
}
