// npm run grind -- --orders [--api URL] [--threads T] [--once] [--poll S] [--quiet]
// Fills custom orders: takes the oldest waiting order through the admin API, searches from the buyer's
// public key A on every core (split-key search, ethereum.ts), checks each match with the same code the server
// uses (schema/split-key.ts) and submits the offset k with its variant. The grinder never sees a key.
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import type { QueuedOrder } from "../../schema/custom-orders";
import { addressMatchesOrder, describeOrderPattern } from "../../schema/custom-order-pattern";
import { orderAddress, parseScalar } from "../../schema/split-key";
import { grinderKey, OrdersApi, OrdersApiError } from "./orders-api.ts";
import { UsageError } from "./args.ts";
import type { WorkerInput, WorkerMessage } from "./worker.ts";

export const ORDERS_USAGE = `Usage: npm run grind -- --orders [--api URL] [--threads T] [--once] [--poll S] [--quiet]

Fills custom (split-key) orders from the marketplace's queue: signs in as an admin with Sign-In with
Ethereum, takes the oldest waiting order, searches offsets k from the buyer's public key on every core,
reports progress every 10 s and submits k; the server re-checks it. The buyer's key never exists here.

  --api URL        the marketplace (default http://127.0.0.1:8787)
  -t, --threads T  worker threads (default: all ${availableParallelism()} cores)
  --once           fill the orders waiting now, then exit (default: keep polling)
  --poll S         seconds between queue checks when idle (default 10)
  -q, --quiet      no progress line

Authentication: GRINDER_ADMIN_KEY=0x<64 hex>, the private key of an admin wallet (ADMIN_WALLETS). Against
a local API (localhost, 127.0.0.1) it defaults to anvil's public dev account 0, the local admin.`;

export type OrdersOptions = { api: string; threads: number; once: boolean; pollSeconds: number; quiet: boolean };

export function parseOrdersCli(argv: string[]): OrdersOptions | null {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv.filter((a) => a !== "--orders"),
      strict: true,
      options: {
        api: { type: "string", default: "http://127.0.0.1:8787" },
        threads: { type: "string", short: "t" },
        once: { type: "boolean", default: false },
        poll: { type: "string", default: "10" },
        quiet: { type: "boolean", short: "q", default: false },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message} (--orders takes --api, --threads, --once, --poll, --quiet)`);
  }
  if (values.help) return null;
  let api: URL;
  try {
    api = new URL(values.api);
  } catch {
    throw new UsageError(`--api must be a URL, got ${JSON.stringify(values.api)}`);
  }
  if (api.protocol !== "http:" && api.protocol !== "https:") throw new UsageError("--api must be an http(s) URL");
  const whole = (name: string, raw: string | undefined, fallback: number) => {
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError(`--${name} must be a whole number from 1, got ${JSON.stringify(raw)}`);
    return Number(raw);
  };
  return {
    api: api.origin,
    threads: whole("threads", values.threads, availableParallelism()),
    once: values.once ?? false,
    pollSeconds: whole("poll", values.poll, 10),
    quiet: values.quiet ?? false,
  };
}

const PROGRESS_EVERY_MS = 10_000;
const fmtInt = (n: number) => Math.round(n).toLocaleString("en-US");
const log = (line: string) => process.stderr.write(line + "\n");

type Outcome = "found" | "lost";

/** Grinds one taken order until a verified offset is accepted, or the order stops being ours. */
async function grindOrder(api: OrdersApi, order: QueuedOrder, o: OrdersOptions): Promise<Outcome> {
  const pattern = { prefix: order.prefix, suffix: order.suffix, caseSensitive: order.caseSensitive };
  const expected = Number(order.expectedAttempts);
  log(`order ${order.id}: ${describeOrderPattern(pattern)}${pattern.caseSensitive ? " (case-sensitive)" : ""}, ~${fmtInt(expected)} attempts expected, ${o.threads} thread(s)`);
  const started = performance.now();
  let attempts = 0;
  let rate = 0;
  let lastAttempts = 0;
  let lastTick = started;
  const workers: Worker[] = [];
  const tty = process.stderr.isTTY;

  return await new Promise<Outcome>((resolve, reject) => {
    let done = false;
    let submitting = false;
    const finish = (outcome: Outcome | Error) => {
      if (done) return;
      done = true;
      clearInterval(ticker);
      clearInterval(reporter);
      for (const w of workers) void w.terminate();
      if (tty && !o.quiet) process.stderr.write("\r\x1b[K");
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const lost = (e: unknown) => {
      if (e instanceof OrdersApiError && (e.status === 409 || e.status === 404)) {
        log(`order ${order.id}: no longer ours (${e.message}); moving on`);
        finish("lost");
      } else finish(e as Error);
    };

    const onFound = async (msg: Extract<WorkerMessage, { type: "found" }>) => {
      if (!("offset" in msg) || submitting || done) return;
      // Same check as the server's: never submit an offset that does not give the ordered address.
      const address = orderAddress(order.publicKey, parseScalar(msg.offset), msg.variant);
      if (address !== msg.address || !addressMatchesOrder(pattern, address)) return finish(new Error(`BUG: searcher reported ${msg.address}, the offset gives ${address}`));
      submitting = true;
      try {
        await api.submit(order.id, msg.offset, msg.variant);
        log(`order ${order.id}: found ${address} after ${fmtInt(attempts)} attempts in ${((performance.now() - started) / 1000).toFixed(1)}s; submitted`);
        finish("found");
      } catch (e) {
        lost(e);
      }
    };

    const input: WorkerInput = { spec: { network: "ethereum", ...pattern }, reportMs: 250, publicKey: order.publicKey };
    for (let i = 0; i < o.threads; i++) {
      const w = new Worker(new URL("./worker-entry.mjs", import.meta.url), { workerData: input });
      workers.push(w);
      w.on("message", (m: WorkerMessage) => {
        attempts += m.attempts;
        if (m.type === "found") void onFound(m);
      });
      w.on("error", (e) => finish(e));
      w.on("exit", (code) => {
        if (!done) finish(new Error(`worker exited unexpectedly (code ${code})`));
      });
    }

    const ticker = setInterval(() => {
      const now = performance.now();
      const instant = (attempts - lastAttempts) / ((now - lastTick) / 1000);
      rate = rate === 0 ? instant : 0.7 * rate + 0.3 * instant;
      lastAttempts = attempts;
      lastTick = now;
      if (o.quiet) return;
      const line = `order ${order.id} | ${fmtInt(rate)} keys/s | attempts ${fmtInt(attempts)} | expected ${fmtInt(expected)} | ETA ~${rate > 0 ? Math.max(0, Math.round((expected - attempts) / rate)) : "∞"}s`;
      process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
    }, 1000);
    const reporter = setInterval(() => {
      if (!submitting) api.progress(order.id, attempts, rate).catch(lost);
    }, PROGRESS_EVERY_MS);
  });
}

/** Takes the first waiting order the server lets us take, or null. */
async function takeNext(api: OrdersApi): Promise<QueuedOrder | null> {
  const { orders } = await api.queue();
  for (const candidate of orders) {
    try {
      return await api.take(candidate.id);
    } catch (e) {
      if (e instanceof OrdersApiError && (e.status === 409 || e.status === 404)) continue;
      throw e;
    }
  }
  return null;
}

export async function runOrders(o: OrdersOptions): Promise<number> {
  const api = new OrdersApi(o.api, grinderKey(o.api, process.env));
  await api.signIn();
  log(`grinding custom orders from ${o.api} as ${api.wallet}`);
  let filled = 0;
  let stop = false;
  process.once("SIGINT", () => {
    stop = true;
    log("\ninterrupted; the order in progress is left for the next grinder (it can take it after 10 minutes of silence)");
    process.exit(130);
  });
  while (!stop) {
    const order = await takeNext(api);
    if (order === null) {
      if (o.once) break;
      await new Promise((r) => setTimeout(r, o.pollSeconds * 1000));
      continue;
    }
    if ((await grindOrder(api, order, o)) === "found") filled++;
  }
  log(`done: ${filled} order(s) filled`);
  return 0;
}
