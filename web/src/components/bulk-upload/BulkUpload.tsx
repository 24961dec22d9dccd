// The bulk upload, on /create-listing and in
// the admin panel's Bulk Upload tab: template download, CSV choice and checks, a preview with per-row status
// badges, each row's estimated value beside its price and warnings in words (from POST
// /api/admin/addresses/bulk/appraise, sent without the keys), the choice of pricing, the confirmation that
// plain addresses may be listed, the upload in chunks to POST /api/admin/addresses/bulk with a progress bar, and
// Reset.
// papaparse (through schema/bulk-csv.ts) is imported only here, so it stays out of the shared chunks.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useMemo, useRef, useState } from "react";
import { formatBulkCsv, parseBulkCsv } from "../../../../schema/bulk-csv";
import type { BulkAppraisal } from "../../../../schema/listings";
import type { BulkPricing } from "../../../../schema/price-advice";
import { errorMessage } from "../../api/error-message";
import { appraiseBulkRows, listingChangeMutation, uploadBulkRows } from "../../api/listings-admin";
import { downloadCsv } from "../../lib/admin-export";
import { type Column, DataTable } from "../DataTable";
import { toast } from "../toast-store";
import {
  applyResults,
  chunk,
  countResults,
  failRows,
  fileProblem,
  prepareRows,
  previewPrice,
  type RowStatus,
  rowWarnings,
  TEMPLATE_ROW,
  UPLOAD_CHUNK,
  type UploadRow,
  withoutKey,
} from "./bulk-rows";

/** Rows drawn in the preview; a bigger file is still uploaded whole, and the counts cover every row. */
const PREVIEW_LIMIT = 1000;

const BADGE: Record<RowStatus, string> = {
  pending: "bg-slate-600/30 text-slate-300",
  validating: "bg-sky-500/20 text-sky-200",
  success: "bg-emerald-500/20 text-emerald-200",
  error: "bg-red-500/20 text-red-200",
};

/** Warnings listed above the preview; the rest are counted, and each row still shows its own. */
const WARNINGS_SHOWN = 20;

const previewColumns = (appraisals: Map<number, BulkAppraisal>, pricing: BulkPricing): Column<UploadRow>[] => [
  { key: "n", header: "#", className: "text-slate-400", cell: (r) => r.index + 1 },
  {
    key: "address",
    header: "Address",
    className: "max-w-[16rem] truncate font-mono text-xs text-slate-200",
    cell: (r) => <span title={r.row.address}>{r.row.address || "—"}</span>,
  },
  { key: "platform", header: "Platform", className: "text-slate-300", cell: (r) => r.row.platform },
  { key: "pattern", header: "Pattern", className: "text-slate-300", cell: (r) => r.row.pattern_type },
  {
    key: "matched",
    header: "Matched",
    className: "font-mono text-xs text-slate-300",
    cell: (r) => `${r.row.pattern_matched} (${r.matchedLength})`,
  },
  { key: "price", header: "Price", className: "tabular-nums text-slate-200", cell: (r) => previewPrice(r, appraisals.get(r.index), pricing) ?? "SOLD" },
  {
    key: "estimate",
    header: "Est. value",
    className: "tabular-nums text-slate-300",
    cell: (r) => {
      const a = appraisals.get(r.index);
      return a?.status === "ok" ? `${a.estimatedValue} ${a.currency}` : "—";
    },
  },
  { key: "rarity", header: "Rarity", className: "tabular-nums text-slate-200", cell: (r) => `${r.rarity.toFixed(1)}/10` },
  {
    key: "status",
    header: "Status",
    cell: (r) => (
      <>
        <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[r.status]}`}>{r.status}</span>
        {r.status === "success" && r.id !== undefined && <span className="ml-2 text-xs text-slate-400">#{r.id}</span>}
        {r.message && <p className="mt-1 text-xs text-red-300">{r.message}</p>}
        {rowWarnings(r, appraisals.get(r.index), pricing).map((w) => (
          <p key={w} className="mt-1 text-xs text-amber-200" data-testid="bulk-row-warning">
            {w}
          </p>
        ))}
      </>
    ),
  },
];

/** Why the text is not a usable CSV before its headers are even looked at, or null. */
function formatProblem(text: string): string | null {
  if (text.includes("\u0000")) return "The file is not a text CSV file";
  const header = text.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  if (!header.includes(",") && /[;\t|]/.test(header)) return "The CSV must be comma-separated";
  return null;
}

export function BulkUpload() {
  const queryClient = useQueryClient();
  const inputId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [rows, setRows] = useState<UploadRow[]>([]);
  const [progress, setProgress] = useState(0);
  // Rows sent so far and in all, for the progress bar's words ("200 of 350 rows").
  const [sentCount, setSentCount] = useState({ sent: 0, total: 0 });
  // Per upload: the spec's table or the estimate, and whether plain addresses may be listed.
  const [pricing, setPricing] = useState<BulkPricing>("table");
  const [confirmNoPattern, setConfirmNoPattern] = useState(false);
  const [appraisals, setAppraisals] = useState<Map<number, BulkAppraisal>>(new Map());
  // The file the appraisals belong to, so a slow answer for a file since replaced is dropped.
  const appraising = useRef(0);

  const reset = () => {
    appraising.current++;
    setAppraisals(new Map());
    setConfirmNoPattern(false);
    setPricing("table");
    setRows([]);
    setFileName(null);
    setProgress(0);
    upload.reset();
    if (fileInput.current) fileInput.current.value = "";
  };

  const downloadTemplate = () => {
    downloadCsv(`${formatBulkCsv([TEMPLATE_ROW])}\n`, "bulk-upload-template.csv");
    toast({ title: "Template Downloaded", description: "Fill in one row per address with the 5 columns of the template.", variant: "success" });
  };

  const choose = async (file: File | undefined) => {
    if (!file) return;
    const problem = fileProblem(file);
    if (problem) {
      toast({ ...problem, variant: "destructive" });
      if (fileInput.current) fileInput.current.value = "";
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch {
      toast({ title: "Invalid CSV Format", description: "The file could not be read", variant: "destructive" });
      return;
    }
    const bad = formatProblem(text);
    const parsed = bad ? null : parseBulkCsv(text);
    if (!parsed?.ok || parsed.rows.length === 0) {
      toast({
        title: "Invalid CSV Format",
        description: bad ?? (parsed && !parsed.ok ? parsed.message : "The CSV file has no data rows"),
        variant: "destructive",
      });
      if (fileInput.current) fileInput.current.value = "";
      return;
    }
    const prepared = prepareRows(parsed.rows);
    setRows(prepared);
    setFileName(file.name);
    setProgress(0);
    upload.reset();
    setAppraisals(new Map());
    setConfirmNoPattern(false);
    const ready = prepared.filter((r) => r.status === "pending").length;
    toast({ title: "CSV Parsed", description: `${prepared.length} rows found, ${ready} ready to upload`, variant: "success" });
    void appraise(prepared);
  };

  // The estimate and pattern verdict of every row that may be uploaded, asked without the keys.
  const appraise = async (prepared: UploadRow[]) => {
    const run = ++appraising.current;
    const todo = prepared.filter((r) => r.status === "pending");
    for (const part of chunk(todo, UPLOAD_CHUNK)) {
      try {
        const answer = await appraiseBulkRows(part.map((r) => withoutKey(r.row)));
        if (run !== appraising.current) return;
        setAppraisals((before) => {
          const next = new Map(before);
          for (const a of answer.results) if (part[a.index]) next.set(part[a.index].index, a);
          return next;
        });
      } catch (err) {
        if (run === appraising.current)
          toast({ title: "Estimates unavailable", description: errorMessage(err) || "The rows' estimated values could not be read", variant: "destructive" });
        return;
      }
    }
  };

  // The whole upload is one mutation: its chunks go one after another, each row's status and the progress
  // bar follow as answers come in, and the listing reads are refreshed once it is settled.
  const upload = useMutation(
    listingChangeMutation(queryClient, async (todo: number[]) => {
      setProgress(0);
      setSentCount({ sent: 0, total: todo.length });
      let current = rows;
      const update = (next: UploadRow[]) => {
        current = next;
        setRows(next);
      };
      let processed = 0;
      for (const sent of chunk(todo, UPLOAD_CHUNK)) {
        const inChunk = new Set(sent);
        update(current.map((r) => (inChunk.has(r.index) ? { ...r, status: "validating" } : r)));
        try {
          const answer = await uploadBulkRows(
            sent.map((i) => current[i].row),
            { pricing, confirmNoPattern },
          );
          update(applyResults(current, sent, answer.results));
        } catch (err) {
          update(failRows(current, sent, errorMessage(err) || "Upload failed"));
        }
        processed += sent.length;
        setProgress(Math.round((processed / todo.length) * 100));
        setSentCount({ sent: processed, total: todo.length });
      }
      // The keys have been sent; nothing keeps them in the page afterwards.
      update(current.map((r) => ({ ...r, row: { ...r.row, private_key: "" } })));
      return countResults(current);
    }),
  );
  const uploading = upload.isPending;
  const done = upload.isSuccess;

  const start = () => {
    const todo = rows.filter((r) => r.status === "pending").map((r) => r.index);
    if (todo.length === 0 || uploading) return;
    upload.mutate(todo, {
      onSuccess: ({ succeeded, failed }) => {
        toast({
          title: "Bulk Upload Complete",
          description: `${succeeded} successful, ${failed} failed`,
          variant: failed > 0 && succeeded === 0 ? "destructive" : "success",
        });
      },
    });
  };

  const pending = rows.filter((r) => r.status === "pending").length;
  const counts = countResults(rows);
  const columns = useMemo(() => previewColumns(appraisals, pricing), [appraisals, pricing]);
  const warnings = useMemo(
    () => rows.flatMap((r) => (r.status === "pending" ? rowWarnings(r, appraisals.get(r.index), pricing) : [])),
    [rows, appraisals, pricing],
  );
  const plain = rows.filter((r) => {
    const a = appraisals.get(r.index);
    return r.status === "pending" && a?.status === "ok" && !a.notable;
  }).length;

  return (
    <section className="space-y-5 rounded-2xl border border-slate-800 bg-slate-900/60 p-6" aria-labelledby={`${inputId}-title`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`${inputId}-title`} className="text-xl font-semibold text-white">
            Bulk Upload
          </h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-400">
            Upload a CSV with exactly these 5 columns: <code className="text-violet-300">address, private_key, platform, pattern_type, pattern_matched</code>.
            Each row's key is checked against its address. Rarity follows the matched length; the price follows it too unless you price this upload at the
            estimates. 8 or more matched characters are skipped.
          </p>
        </div>
        <button
          type="button"
          onClick={downloadTemplate}
          className="rounded-lg border border-slate-700 px-3 py-2 text-sm text-slate-200 hover:border-violet-500"
        >
          Download Template
        </button>
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={inputId} className="text-sm font-medium text-slate-300">
          CSV file
        </label>
        <input
          id={inputId}
          ref={fileInput}
          type="file"
          accept=".csv,text/csv"
          disabled={uploading}
          onChange={(e) => void choose(e.target.files?.[0])}
          className="text-sm text-slate-300 file:mr-3 file:rounded-lg file:border-0 file:bg-violet-600 file:px-3 file:py-2 file:text-white hover:file:bg-violet-500"
          data-testid="bulk-file-input"
        />
        {fileName && <span className="text-sm text-slate-400">{fileName}</span>}
      </div>

      {rows.length > 0 && (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="button"
              onClick={start}
              disabled={uploading || pending === 0}
              className="rounded-lg bg-violet-600 px-4 py-2 text-sm font-semibold text-white hover:bg-violet-500 disabled:cursor-not-allowed disabled:opacity-50"
            >
              {uploading ? "Uploading..." : `Start Upload (${pending} rows)`}
            </button>
            <button
              type="button"
              onClick={reset}
              disabled={uploading}
              className="rounded-lg border border-slate-700 px-4 py-2 text-sm text-slate-200 hover:border-slate-500 disabled:opacity-50"
            >
              Reset
            </button>
            {(uploading || done) && (
              <span className="text-sm text-slate-400" aria-live="polite">
                {counts.succeeded} successful, {counts.failed} failed
              </span>
            )}
          </div>
          <fieldset className="space-y-2 rounded-xl border border-slate-800 p-4 text-sm" disabled={uploading}>
            <legend className="px-1 font-medium text-slate-300">Pricing for this upload</legend>
            {(
              [
                ["table", "The specification's table by matched length (0.00001 for 4 or fewer characters up to 0.002 for 7)"],
                ["estimate", "At each row's estimated value, the figure its listing page will show"],
              ] as const
            ).map(([value, text]) => (
              <label key={value} className="flex items-start gap-2 text-slate-300">
                <input
                  type="radio"
                  name={`${inputId}-pricing`}
                  value={value}
                  checked={pricing === value}
                  onChange={() => setPricing(value)}
                  className="mt-1 accent-violet-500"
                />
                <span>{text}</span>
              </label>
            ))}
            {plain > 0 && (
              <label className="flex items-start gap-2 text-amber-100">
                <input type="checkbox" checked={confirmNoPattern} onChange={(e) => setConfirmNoPattern(e.target.checked)} className="mt-1 accent-violet-500" />
                <span>
                  List the {plain} {plain === 1 ? "row" : "rows"} with no notable pattern anyway (otherwise the upload refuses {plain === 1 ? "it" : "them"})
                </span>
              </label>
            )}
          </fieldset>
          {warnings.length > 0 && (
            <div className="rounded-xl border border-amber-500/40 bg-amber-500/10 p-4 text-sm text-amber-100" data-testid="bulk-warnings">
              <p className="font-medium">
                {warnings.length} {warnings.length === 1 ? "warning" : "warnings"} before you upload
              </p>
              <ul className="mt-2 list-disc space-y-1 pl-5">
                {warnings.slice(0, WARNINGS_SHOWN).map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
              {warnings.length > WARNINGS_SHOWN && <p className="mt-2">and {warnings.length - WARNINGS_SHOWN} more, each shown on its row below.</p>}
            </div>
          )}
          {(uploading || done) && (
            <div className="space-y-1">
              <div
                role="progressbar"
                aria-label="Upload progress"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={progress}
                aria-valuetext={`${sentCount.sent} of ${sentCount.total} rows`}
                className="h-2 w-full overflow-hidden rounded-full bg-slate-800"
              >
                <div className="h-full bg-violet-500 transition-all" style={{ width: `${progress}%` }} />
              </div>
              <p className="text-xs text-slate-400" data-testid="upload-count">
                {sentCount.sent} of {sentCount.total} rows {uploading ? "checked so far" : "checked"}
              </p>
            </div>
          )}
          <div className="max-h-[28rem] overflow-auto rounded-xl border border-slate-800">
            <DataTable
              columns={columns}
              rows={rows.slice(0, PREVIEW_LIMIT)}
              rowKey={(r) => r.index}
              caption="Parsed rows"
              testId="bulk-preview"
              theadClassName="sticky top-0 bg-slate-900"
              rowProps={(r) => ({ "data-testid": "bulk-row", "data-status": r.status })}
            />
          </div>
          {rows.length > PREVIEW_LIMIT && (
            <p className="text-sm text-slate-400">
              Showing the first {PREVIEW_LIMIT.toLocaleString("en-US")} of {rows.length.toLocaleString("en-US")} rows; every row is uploaded and counted.
            </p>
          )}
        </>
      )}
    </section>
  );
}
