// The plain grind: a search source (CPU threads or the GPU) to verified rows, with progress on stderr. Each row
// goes to the CSV (--out) and/or, sealed, to the marketplace (--list, list.ts).
import type { GrindOptions } from "./args.ts";
import { CsvWriter } from "./csv.ts";
import { type SealedLister, writeUnsent } from "./list.ts";
import { fmtDuration, fmtInt, SearchProgress } from "./progress.ts";
import { expectedAttempts, patternType } from "../../schema/grind-pattern.ts";
import type { SearchSource } from "./search-source.ts";
import { VerificationError, verifiedRow } from "./verify.ts";

function describe(o: GrindOptions): string {
  const { spec } = o;
  const parts = [spec.prefix && `prefix=${spec.prefix}`, spec.suffix && `suffix=${spec.suffix}`, spec.mirror && `mirror=${spec.mirror}`].filter(Boolean);
  return `${spec.network} ${parts.join(" ")}${spec.caseSensitive ? " (case-sensitive)" : ""}`;
}

/**
 * Runs `source` until `o.count` distinct rows are written: every match is re-derived from its key
 * (verify.ts) before its row is written or sealed; one that does not verify stops the run with exit 3 and is
 * never written (from the GPU: a kernel fault). With a lister each row is sealed and listed; rows it could not
 * send are kept sealed in `unsentPath` (exit 1). Returns the exit code.
 */
export async function grindToCsv(
  o: GrindOptions,
  source: SearchSource,
  lister?: SealedLister,
  unsentPath = `unsent-sealed-${Date.now()}.json`,
): Promise<number> {
  const csv = o.out === null ? null : new CsvWriter(o.out, { append: o.append, force: o.force });
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
      csv?.close();
      if (tty && !o.quiet) process.stderr.write("\r\x1b[K");
      const secs = progress.seconds;
      if (message) process.stderr.write(message + "\n");
      const where = [o.out !== null && `written to ${o.out}`, lister && "sealed for listing"].filter(Boolean).join(" and ");
      process.stderr.write(
        `${code === 0 ? "done" : "stopped"}: ${written}/${o.count} ${where} in ${fmtDuration(secs)}, ${fmtInt(progress.attempts)} attempts (${fmtInt(progress.attempts / secs)} keys/s)\n`,
      );
      if (!lister) return resolve(code);
      void lister.finish().then(
        ({ listed, refused, unsent }) => {
          process.stderr.write(`listed ${listed}, refused ${refused}, unsent ${unsent.length}\n`);
          if (unsent.length === 0) return resolve(code);
          writeUnsent(unsentPath, unsent);
          process.stderr.write(`kept ${unsent.length} sealed row(s) in ${unsentPath}: the body of POST /api/admin/addresses/sealed, to send again later\n`);
          resolve(code === 0 ? 1 : code);
        },
        (e: Error) => {
          process.stderr.write(`error: listing failed: ${e.message}\n`);
          resolve(code === 0 ? 1 : code);
        },
      );
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
          csv?.write(row);
          lister?.add(row);
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
