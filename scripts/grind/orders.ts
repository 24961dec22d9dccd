// npm run grind -- --orders [--api URL] [--threads T] [--gpu[=auto]] [--once] [--poll S] [--quiet]
// Fills custom orders: takes the oldest waiting order through the admin API, searches from the buyer's
// public key A on every core (split-key search, ethereum.ts) or on the GPU (gpu/), checks each match with the
// same code the server uses (schema/split-key.ts) and submits the offset k with its variant. The grinder never
// sees a key.
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import type { QueuedOrder } from "../../schema/custom-orders";
import { addressMatchesOrder, describeOrderPattern } from "../../schema/custom-order-pattern";
import { orderAddress, parseScalar } from "../../schema/split-key";
import { fmtInt, SearchProgress } from "./progress.ts";
import { gpuFor, gpuSource, type OpenGpu } from "./gpu-source.ts";
import { grinderKey, OrdersApi, OrdersApiError } from "./orders-api.ts";
import { type GpuMode, normalizeGpuFlag, parseGpuMode, UsageError } from "./args.ts";
import { cpuSource, type SearchSource } from "./search-source.ts";
import type { Found } from "./types.ts";

export const ORDERS_USAGE = `Usage: npm run grind -- --orders [--api URL] [--threads T] [--gpu[=auto]] [--once] [--poll S] [--quiet]

Fills custom (split-key) orders from the marketplace's queue: signs in as an admin with Sign-In with
Ethereum, takes the oldest waiting order, searches offsets k from the buyer's public key on every core,
reports progress every 10 s and submits k; the server re-checks it. The buyer's key never exists here.

  --api URL        the marketplace (default http://127.0.0.1:8787)
  -t, --threads T  worker threads (default: all ${availableParallelism()} cores)
  --gpu            search on the GPU instead (exit 4 when no GPU adapter can be opened)
  --gpu=auto       the GPU when there is one, else the CPU threads
  --once           fill the orders waiting now, then exit (default: keep polling)
  --poll S         seconds between queue checks when idle (default 10)
  -q, --quiet      no progress line

Authentication: GRINDER_ADMIN_KEY=0x<64 hex>, the private key of an admin wallet (ADMIN_WALLETS). Against
a local API (localhost, 127.0.0.1) it defaults to anvil's public dev account 0, the local admin.`;

export type OrdersOptions = { api: string; threads: number; gpu: GpuMode; once: boolean; pollSeconds: number; quiet: boolean };

export function parseOrdersCli(argv: string[]): OrdersOptions | null {
  let values;
  try {
    ({ values } = parseArgs({
      args: normalizeGpuFlag(argv.filter((a) => a !== "--orders")),
      strict: true,
      options: {
        api: { type: "string", default: "http://127.0.0.1:8787" },
        threads: { type: "string", short: "t" },
        gpu: { type: "string" },
        once: { type: "boolean", default: false },
        poll: { type: "string", default: "10" },
        quiet: { type: "boolean", short: "q", default: false },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message} (--orders takes --api, --threads, --gpu, --once, --poll, --quiet)`);
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
    gpu: parseGpuMode(values.gpu),
    once: values.once ?? false,
    pollSeconds: whole("poll", values.poll, 10),
    quiet: values.quiet ?? false,
  };
}

const PROGRESS_EVERY_MS = 10_000;
const log = (line: string) => process.stderr.write(line + "\n");

type Outcome = "found" | "lost";

/** Grinds one taken order until a verified offset is accepted, or the order stops being ours. */
async function grindOrder(api: OrdersApi, order: QueuedOrder, o: OrdersOptions, gpu: OpenGpu | null): Promise<Outcome> {
  const pattern = { prefix: order.prefix, suffix: order.suffix, caseSensitive: order.caseSensitive };
  const source: SearchSource = gpu
    ? gpuSource(gpu, { pattern, publicKey: order.publicKey })
    : cpuSource({ spec: { network: "ethereum", ...pattern }, publicKey: order.publicKey }, o.threads);
  const expected = Number(order.expectedAttempts);
  log(
    `order ${order.id}: ${describeOrderPattern(pattern)}${pattern.caseSensitive ? " (case-sensitive)" : ""}, ~${fmtInt(expected)} attempts expected, ${source.description}`,
  );
  const progress = new SearchProgress();
  const tty = process.stderr.isTTY;

  return await new Promise<Outcome>((resolve, reject) => {
    let done = false;
    let submitting = false;
    const finish = (outcome: Outcome | Error) => {
      if (done) return;
      done = true;
      clearInterval(ticker);
      clearInterval(reporter);
      source.stop();
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

    const onFound = async (found: Found) => {
      if (!("offset" in found) || submitting || done) return;
      // Same check as the server's: never submit an offset that does not give the ordered address.
      const address = orderAddress(order.publicKey, parseScalar(found.offset), found.variant);
      if (address !== found.address || !addressMatchesOrder(pattern, address)) {
        const what = source.kind === "gpu" ? "GPU kernel fault" : "BUG";
        return finish(new Error(`${what}: the search reported ${found.address}, the offset gives ${address}; nothing submitted`));
      }
      submitting = true;
      try {
        await api.submit(order.id, found.offset, found.variant);
        log(`order ${order.id}: found ${address} after ${fmtInt(progress.attempts)} attempts in ${progress.seconds.toFixed(1)}s; submitted`);
        finish("found");
      } catch (e) {
        lost(e);
      }
    };

    source.start({
      ready: () => progress.ready(),
      attempts: (n) => progress.add(n),
      found: (f) => void onFound(f),
      fail: (e) => finish(e),
      notice: (line) => {
        if (!o.quiet) log(`order ${order.id}: ${line}`);
      },
    });

    const ticker = setInterval(() => {
      if (!progress.tick() || o.quiet) return;
      const { attempts, rate } = progress;
      const line = `order ${order.id} | ${fmtInt(rate)} keys/s | attempts ${fmtInt(attempts)} | expected ${fmtInt(expected)} | ETA ~${rate > 0 ? Math.max(0, Math.round((expected - attempts) / rate)) : "∞"}s`;
      process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
    }, 1000);
    const reporter = setInterval(() => {
      if (!submitting) api.progress(order.id, progress.attempts, progress.rate).catch(lost);
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
  const gpu = await gpuFor(o.gpu);
  if (typeof gpu === "number") return gpu;
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
    if ((await grindOrder(api, order, o, gpu)) === "found") filled++;
  }
  log(`done: ${filled} order(s) filled`);
  return 0;
}
