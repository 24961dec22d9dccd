// The admin panel's CSV export: the spec's columns, a file named with
// today's date, and cells that a spreadsheet would run as a formula defused with a leading apostrophe.
import Papa from "papaparse";
import type { AdminListing } from "../../../schema/listings";
import { formatCount } from "./number-format";

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

export function listingsCsv(
  listings: Pick<AdminListing, "address" | "network" | "price" | "currency" | "category" | "pattern" | "status" | "isFeatured" | "createdAt">[],
): string {
  const data = listings.map((l) =>
    [l.address, l.network, l.price, l.currency, l.category || "custom", l.pattern ?? "", l.status, l.isFeatured ? "yes" : "no", l.createdAt].map((v) =>
      escapeFormula(String(v ?? "")),
    ),
  );
  return Papa.unparse({ fields: [...EXPORT_COLUMNS], data }, { newline: "\n", quotes: false });
}

/**
 * The toast after an export: how many listings went into the file, and, when more matched than one export carries
 * (ADMIN_EXPORT_CAP), how many did and that narrower filters export the rest.
 */
export function exportSummary({ exported, total, cap }: { exported: number; total: number; cap: number }, fileName: string): string {
  const noun = (n: number) => `${formatCount(n)} listing${n === 1 ? "" : "s"}`;
  if (total > exported)
    return `${noun(exported)} of the ${formatCount(total)} matching exported to ${fileName}: one export carries at most ${formatCount(cap)}. Narrow the search, network or status to export the rest.`;
  return `${noun(exported)} exported to ${fileName}${exported === 0 ? ": no listing matches these filters" : ""}`;
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

/** Admin > Analytics as CSV: one row per figure shown, in the tab's order (section, what, network, value, unit). */
export const ANALYTICS_COLUMNS = ["section", "item", "network", "value", "unit"] as const;

type AnalyticsShown = {
  period: { days: number; from: string; to: string };
  salesByDay: { day: string; network: string; sales: number; volume: string; currency: string }[];
  averagePrice: { network: string; category: string; patternLength: number; sales: number; averagePrice: string; currency: string }[];
  reservationOutcomes: { outcome: string; reason: string | null; count: number }[];
  depthToRelease: { releases: number; p50Seconds: number | null; p95Seconds: number | null };
  customOrders: { status: string; count: number }[];
  supplyByTier: { tier: string; network: string; listings: number }[];
  gasAccuracy: { network: string; payments: number; averageAccuracy: number | null }[];
  promotions: { promotionType: string; count: number }[];
};

export function analyticsCsv(a: AnalyticsShown): string {
  const rows: (string | number)[][] = [["period", `${a.period.from} to ${a.period.to}`, "", a.period.days, "days"]];
  for (const d of a.salesByDay) {
    rows.push(["sales", d.day, d.network, d.sales, "sales"], ["volume", d.day, d.network, d.volume, d.currency]);
  }
  for (const p of a.averagePrice)
    rows.push(["average price", `${p.category}, length ${p.patternLength} (${p.sales} sales)`, p.network, p.averagePrice, p.currency]);
  for (const o of a.reservationOutcomes) rows.push(["reservation outcome", o.reason ? `${o.outcome}: ${o.reason}` : o.outcome, "", o.count, "reservations"]);
  rows.push(
    ["depth to release", "releases", "", a.depthToRelease.releases, "releases"],
    ["depth to release", "p50", "", a.depthToRelease.p50Seconds ?? "", "seconds"],
    ["depth to release", "p95", "", a.depthToRelease.p95Seconds ?? "", "seconds"],
  );
  for (const c of a.customOrders) rows.push(["custom orders", c.status, "", c.count, "orders"]);
  for (const s of a.supplyByTier) rows.push(["supply", s.tier, s.network, s.listings, "listings"]);
  for (const g of a.gasAccuracy) rows.push(["gas estimate accuracy", `${g.payments} payments`, g.network, g.averageAccuracy ?? "", "estimated / actual"]);
  for (const p of a.promotions) rows.push(["promotions", p.promotionType, "", p.count, "promotions"]);
  return Papa.unparse({ fields: [...ANALYTICS_COLUMNS], data: rows.map((r) => r.map((v) => escapeFormula(String(v)))) }, { newline: "\n" });
}

/** "vanity-analytics-30d-YYYY-MM-DD.csv" for the local date. */
export function analyticsFileName(days: number, now: Date = new Date()): string {
  return exportFileName(now).replace("vanity-listings-", `vanity-analytics-${days}d-`);
}
