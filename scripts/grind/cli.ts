// npm run grind -- --network ethereum|solana --prefix P --suffix S --count N --out file.csv
// Spawns one searcher per thread, verifies each match independently, appends it to the CSV.
import { Worker } from "node:worker_threads";
import { parseCli, USAGE, UsageError, type GrindOptions } from "./args.ts";
import { CsvError, CsvWriter } from "./csv.ts";
import { OrdersApiError } from "./orders-api.ts";
import { ORDERS_USAGE, type OrdersOptions, parseOrdersCli, runOrders } from "./orders.ts";
import { expectedAttempts, patternType } from "./pattern.ts";
import { VerificationError, verifiedRow } from "./verify.ts";
import type { WorkerInput, WorkerMessage } from "./worker.ts";

const STALL_MS = 30_000; // a worker silent this long is replaced

const fmtInt = (n: number) => Math.round(n).toLocaleString("en-US");

function fmtDuration(s: number): string {
  if (!Number.isFinite(s)) return "∞";
  if (s < 60) return `${s.toFixed(1)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, "0")}s`;
  if (s < 86400 * 2) return `${Math.floor(s / 3600)}h${String(Math.round((s % 3600) / 60)).padStart(2, "0")}m`;
  return `${fmtInt(s / 86400)}d`;
}

function describe(o: GrindOptions): string {
  const { spec } = o;
  const parts = [spec.prefix && `prefix=${spec.prefix}`, spec.suffix && `suffix=${spec.suffix}`, spec.mirror && `mirror=${spec.mirror}`].filter(Boolean);
  return `${spec.network} ${parts.join(" ")}${spec.caseSensitive ? " (case-sensitive)" : ""}`;
}

async function run(o: GrindOptions): Promise<number> {
  const csv = new CsvWriter(o.out, { append: o.append, force: o.force });
  const expected = expectedAttempts(o.spec);
  const started = performance.now();
  const seen = new Set<string>();
  let attempts = 0;
  let written = 0;
  let lastAttempts = 0;
  let lastTick = started;
  let rate = 0;
  const tty = process.stderr.isTTY;
  process.stderr.write(
    `grinding ${describe(o)} (${patternType(o.spec)}): ${o.count} to find, ${o.threads} thread(s), ~${fmtInt(expected)} attempts per match\n`,
  );

  return await new Promise<number>((resolve) => {
    const workers = new Map<Worker, number>(); // worker -> last message time
    let finished = false;

    const finish = (code: number, message?: string) => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      for (const w of workers.keys()) void w.terminate();
      workers.clear();
      csv.close();
      if (tty && !o.quiet) process.stderr.write("\r\x1b[K");
      const secs = (performance.now() - started) / 1000;
      if (message) process.stderr.write(message + "\n");
      process.stderr.write(
        `${code === 0 ? "done" : "stopped"}: ${written}/${o.count} written to ${o.out} in ${fmtDuration(secs)}, ${fmtInt(attempts)} attempts (${fmtInt(attempts / secs)} keys/s)\n`,
      );
      resolve(code);
    };

    const onMessage = (w: Worker, msg: WorkerMessage) => {
      if (workers.has(w)) workers.set(w, performance.now());
      attempts += msg.attempts;
      if (msg.type !== "found" || finished) return;
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
        if (e instanceof VerificationError) {
          finish(3, `BUG: verification failed, nothing written for this key: ${e.message}`);
        } else {
          finish(1, `error: ${(e as Error).stack ?? e}`);
        }
      }
    };

    const spawn = () => {
      const input: WorkerInput = { spec: o.spec, reportMs: 250 };
      const w = new Worker(new URL("./worker-entry.mjs", import.meta.url), { workerData: input });
      workers.set(w, performance.now());
      w.on("message", (m: WorkerMessage) => onMessage(w, m));
      w.on("error", (e) => finish(1, `worker error: ${e.stack ?? e}`));
      w.on("exit", (code) => {
        if (!finished && workers.has(w)) finish(1, `worker exited unexpectedly (code ${code})`);
      });
    };

    const tick = () => {
      const now = performance.now();
      for (const [w, seenAt] of workers) {
        if (now - seenAt > STALL_MS) {
          process.stderr.write(`\nworker silent for ${STALL_MS / 1000}s, replacing it\n`);
          workers.delete(w);
          void w.terminate();
          spawn();
        }
      }
      const dt = (now - lastTick) / 1000;
      const instant = (attempts - lastAttempts) / dt;
      rate = rate === 0 ? instant : 0.7 * rate + 0.3 * instant;
      lastAttempts = attempts;
      lastTick = now;
      if (o.quiet) return;
      const remaining = (o.count - written) * expected;
      const line =
        `${fmtDuration((now - started) / 1000)} | ${fmtInt(rate)} keys/s | attempts ${fmtInt(attempts)} | ` +
        `found ${written}/${o.count} | expected ${fmtInt(expected)}/match | ETA ~${fmtDuration(rate > 0 ? remaining / rate : Infinity)}`;
      process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
    };
    const timer = setInterval(tick, 1000);

    process.once("SIGINT", () => finish(130, "\ninterrupted"));
    for (let i = 0; i < o.threads; i++) spawn();
  });
}

async function ordersMain(argv: string[]): Promise<void> {
  let options: OrdersOptions | null;
  try {
    options = parseOrdersCli(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`error: ${e.message}\nrun with --orders --help for usage\n`);
      process.exit(2);
    }
    throw e;
  }
  if (options === null) {
    process.stdout.write(ORDERS_USAGE + "\n");
    return;
  }
  try {
    process.exitCode = await runOrders(options);
  } catch (e) {
    if (e instanceof OrdersApiError) {
      process.stderr.write(`error: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
}

async function main(): Promise<void> {
  if (process.argv.includes("--orders")) return ordersMain(process.argv.slice(2));
  let options: GrindOptions | null;
  try {
    options = parseCli(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`error: ${e.message}\nrun with --help for usage\n`);
      process.exit(2);
    }
    throw e;
  }
  if (options === null) {
    process.stdout.write(USAGE + "\n");
    return;
  }
  try {
    process.exitCode = await run(options);
  } catch (e) {
    if (e instanceof CsvError) {
      process.stderr.write(`error: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

await main();
