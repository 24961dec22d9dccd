// The plain grind: a search source (CPU threads or the GPU) to verified CSV rows, with progress on stderr.
import type { GrindOptions } from "./args.ts";
import { CsvWriter } from "./csv.ts";
import { fmtDuration, fmtInt, SearchProgress } from "./progress.ts";
import { expectedAttempts, patternType } from "./pattern.ts";
import type { SearchSource } from "./search-source.ts";
import { VerificationError, verifiedRow } from "./verify.ts";

function describe(o: GrindOptions): string {
  const { spec } = o;
  const parts = [spec.prefix && `prefix=${spec.prefix}`, spec.suffix && `suffix=${spec.suffix}`, spec.mirror && `mirror=${spec.mirror}`].filter(Boolean);
  return `${spec.network} ${parts.join(" ")}${spec.caseSensitive ? " (case-sensitive)" : ""}`;
}

/**
 * Runs `source` until `o.count` distinct rows are written: every match is re-derived from its key
 * (verify.ts) before its row is written; one that does not verify stops the run with exit 3 and is never
 * written (from the GPU: a kernel fault). Returns the exit code.
 */
export async function grindToCsv(o: GrindOptions, source: SearchSource): Promise<number> {
  const csv = new CsvWriter(o.out, { append: o.append, force: o.force });
  const expected = expectedAttempts(o.spec);
  const progress = new SearchProgress();
  const seen = new Set<string>();
  let written = 0;
  const tty = process.stderr.isTTY;
  process.stderr.write(
    `grinding ${describe(o)} (${patternType(o.spec)}): ${o.count} to find, ${source.description}, ~${fmtInt(expected)} attempts per match\n`,
  );

  return await new Promise<number>((resolve) => {
    let finished = false;

    const finish = (code: number, message?: string) => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      source.stop();
      csv.close();
      if (tty && !o.quiet) process.stderr.write("\r\x1b[K");
      const secs = progress.seconds;
      if (message) process.stderr.write(message + "\n");
      process.stderr.write(
        `${code === 0 ? "done" : "stopped"}: ${written}/${o.count} written to ${o.out} in ${fmtDuration(secs)}, ${fmtInt(progress.attempts)} attempts (${fmtInt(progress.attempts / secs)} keys/s)\n`,
      );
      resolve(code);
    };

    const tick = () => {
      if (!progress.tick() || o.quiet) return;
      const { rate } = progress;
      const remaining = (o.count - written) * expected;
      const line =
        `${fmtDuration(progress.seconds)} | ${fmtInt(rate)} keys/s | attempts ${fmtInt(progress.attempts)} | ` +
        `found ${written}/${o.count} | expected ${fmtInt(expected)}/match | ETA ~${fmtDuration(rate > 0 ? remaining / rate : Infinity)}`;
      process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
    };
    const timer = setInterval(tick, 1000);

    process.once("SIGINT", () => finish(130, "\ninterrupted"));
    source.start({
      ready: () => progress.ready(),
      attempts: (n) => progress.add(n),
      found: (msg) => {
        if (finished) return;
        if (!("privateKey" in msg)) return finish(3, "BUG: a split-key result in a plain search");
        try {
          const row = verifiedRow(o.spec, msg.address, msg.privateKey);
          if (seen.has(row.address)) return;
          seen.add(row.address);
          csv.write(row);
          written++;
          if (!o.quiet) {
            if (tty) process.stderr.write("\r\x1b[K");
            process.stderr.write(`found ${row.address} (${row.pattern_matched})\n`);
          }
          if (written >= o.count) finish(0);
        } catch (e) {
          if (!(e instanceof VerificationError)) return finish(1, `error: ${(e as Error).stack ?? e}`);
          const what = source.kind === "gpu" ? "GPU kernel fault: a reported hit does not verify" : "verification failed";
          finish(3, `BUG: ${what}, nothing written for this key: ${e.message}`);
        }
      },
      fail: (e) => finish(1, `${source.kind === "gpu" ? "GPU" : "worker"} error: ${e.stack ?? e}`),
      notice: (line) => {
        if (!o.quiet) process.stderr.write(`${tty ? "\r\x1b[K" : ""}${line}\n`);
      },
    });
  });
}
