// Progress of a running search (attempts, a smoothed rate) and how the grinder prints numbers and durations.
export const fmtInt = (n: number) => Math.round(n).toLocaleString("en-US");

export function fmtDuration(s: number): string {
  if (!Number.isFinite(s)) return "∞";
  if (s < 60) return `${s.toFixed(1)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, "0")}s`;
  if (s < 86400 * 2) return `${Math.floor(s / 3600)}h${String(Math.round((s % 3600) / 60)).padStart(2, "0")}m`;
  return `${fmtInt(s / 86400)}d`;
}

/** A running search's attempts and smoothed rate; the rate counts from ready() (for the GPU: once compiled). */
export class SearchProgress {
  attempts = 0;
  rate = 0;
  running = false;
  started = performance.now();
  private lastAttempts = 0;
  private lastTick = this.started;

  ready(): void {
    this.running = true;
    this.started = this.lastTick = performance.now();
  }

  add(n: number): void {
    this.attempts += n;
  }

  /** Once a second: blends the last second's rate into the rate (30%). False until ready(). */
  tick(): boolean {
    if (!this.running) return false;
    const now = performance.now();
    const instant = (this.attempts - this.lastAttempts) / ((now - this.lastTick) / 1000);
    this.rate = this.rate === 0 ? instant : 0.7 * this.rate + 0.3 * instant;
    this.lastAttempts = this.attempts;
    this.lastTick = now;
    return true;
  }

  get seconds(): number {
    return (performance.now() - this.started) / 1000;
  }
}
