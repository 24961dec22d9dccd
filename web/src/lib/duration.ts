// Human durations for "how long would a grinder need": seconds to the largest sensible unit.
const UNITS: [limit: number, seconds: number, name: string][] = [
  [60, 1, "second"],
  [3600, 60, "minute"],
  [86400, 3600, "hour"],
  [86400 * 365.25, 86400, "day"],
  [Infinity, 86400 * 365.25, "year"],
];

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "—";
  if (seconds < 1) return "under a second";
  for (const [limit, size, name] of UNITS) {
    if (seconds < limit) {
      const n = seconds / size;
      const shown = n < 10 ? Number(n.toFixed(1)) : Math.round(n);
      if (name === "year" && shown >= 1e6) return `${compactNumber(shown)} years`;
      return `${shown} ${name}${shown === 1 ? "" : "s"}`;
    }
  }
  return "—";
}

/** 1234567 -> "1.2 million"; plain below ten thousand. */
export function compactNumber(n: number): string {
  if (n < 10_000) return Math.round(n).toLocaleString("en-US");
  return new Intl.NumberFormat("en-US", { notation: "compact", compactDisplay: "long", maximumFractionDigits: 1 }).format(n);
}
