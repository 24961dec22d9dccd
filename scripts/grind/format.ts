// Numbers and durations for the grinder's progress lines.
export const fmtInt = (n: number) => Math.round(n).toLocaleString("en-US");

export function fmtDuration(s: number): string {
  if (!Number.isFinite(s)) return "∞";
  if (s < 60) return `${s.toFixed(1)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, "0")}s`;
  if (s < 86400 * 2) return `${Math.floor(s / 3600)}h${String(Math.round((s % 3600) / 60)).padStart(2, "0")}m`;
  return `${fmtInt(s / 86400)}d`;
}
