// npm run grind -- --orders [--api URL] [--threads T] [--gpu[=auto]] [--once] [--poll S] [--supply] [--quiet]
// Fills custom orders: claims the oldest waiting order through the admin API, searches from the buyer's
// public key A on every core (split-key search, ethereum.ts) or on the GPU (gpu/), checks each match with the
// same code the server uses (schema/split-key.ts) and submits the offset k with its variant. The grinder never
// sees a key. Its progress reports renew its claim; stopped by a signal it gives the order back
// (docs/custom-orders.md#several-grinders). `npm start` runs one (scripts/stack.ts startOrderGrinder).
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import type { QueuedOrder } from "../../schema/custom-orders";
import type { IntakeKeyResponse } from "../../schema/sealed-intake";
import { addressMatchesOrder, describeOrderPattern } from "../../schema/custom-order-pattern";
import { orderAddress, parseScalar } from "../../schema/split-key";
import { fmtInt, SearchProgress } from "./progress.ts";
import { grindClaim } from "./supply.ts";
import { gpuSource, type OpenGpu, ordersGpu } from "./gpu-source.ts";
import { grinderName } from "../../schema/health";
import { grinderKey, OrdersApi, OrdersApiError } from "./orders-api.ts";
import { normalizeGpuFlag, type OrdersOptions, parseGpuMode, UsageError } from "./args.ts";
import { cpuSource, type SearchSource } from "./search-source.ts";
import type { Found } from "./types.ts";

export const ORDERS_USAGE = `Usage: npm run grind -- --orders [--api URL] [--threads T] [--gpu[=auto]] [--once] [--poll S] [--supply] [--quiet]

Fills custom (split-key) orders from the marketplace's queue: signs in as an admin with Sign-In with
Ethereum, claims the oldest waiting order, searches offsets k from the buyer's public key on every core,
reports progress every 10 s (which keeps the claim) and submits k; the server re-checks it. The buyer's key
never exists here. Several grinders may share one queue: each claims a different order.

  --api URL        the marketplace (default http://127.0.0.1:8787)
  -t, --threads T  worker threads (default: all ${availableParallelism()} cores)
  --gpu            search on the GPU instead, a software adapter too (exit 4 when no GPU adapter can be opened)
  --gpu=auto       a hardware GPU when there is one, else the CPU threads (a software adapter such as
                   SwiftShader is slower than the CPU threads it runs on, so auto does not use it)
  --once           fill the orders waiting now, then exit (default: keep polling)
  --poll S         seconds between queue checks when idle, 1 to 60 (default 10; each check also tells the
                   marketplace this grinder is alive)
  --supply         while no order waits, stock the supply targets (Admin > Supply); an order interrupts it
  -q, --quiet      no progress line

Authentication: GRINDER_ADMIN_KEY=0x<64 hex>, the private key of an admin wallet (ADMIN_WALLETS). Against
a local API (localhost, 127.0.0.1) it defaults to anvil's public dev account 0, the local admin.`;

const MAX_POLL_SECONDS = 60;

/** `supply`: --orders --supply, stock the supply targets while no order waits (docs/supply.md#the-grinder). */

/** The options of a loop that claims work from the marketplace: --orders, and --supply (supply.ts) with the same ones. */
export function parseOrdersCli(argv: string[], mode: "--orders" | "--supply" = "--orders"): OrdersOptions | null {
  let values;
  try {
    ({ values } = parseArgs({
      args: normalizeGpuFlag(argv.filter((a) => a !== mode)),
      strict: true,
      options: {
        api: { type: "string", default: "http://127.0.0.1:8787" },
        threads: { type: "string", short: "t" },
        gpu: { type: "string" },
        once: { type: "boolean", default: false },
        poll: { type: "string", default: "10" },
        quiet: { type: "boolean", short: "q", default: false },
        ...(mode === "--orders" ? { supply: { type: "boolean" as const, default: false } } : {}),
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message} (${mode} takes --api, --threads, --gpu, --once, --poll, --quiet)`);
  }
  if (values.help) return null;
  let api: URL;
  try {
    api = new URL(values.api);
  } catch {
    throw new UsageError(`--api must be a URL, got ${JSON.stringify(values.api)}`);
  }
  if (api.protocol !== "http:" && api.protocol !== "https:") throw new UsageError("--api must be an http(s) URL");
  const whole = (name: string, raw: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER) => {
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
      throw new UsageError(`--${name} must be a whole number from 1${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ""}, got ${JSON.stringify(raw)}`);
    return Number(raw);
  };
  return {
    api: api.origin,
    threads: whole("threads", values.threads, availableParallelism()),
    gpu: parseGpuMode(values.gpu),
    once: values.once ?? false,
    // An idle grinder's poll is its sign of life: past the claim lease (2 minutes) pages would call it gone.
    pollSeconds: whole("poll", values.poll, 10, MAX_POLL_SECONDS),
    quiet: values.quiet ?? false,
    supply: mode === "--orders" && (values as { supply?: boolean }).supply === true,
  };
}

const PROGRESS_EVERY_MS = 10_000;
const log = (line: string) => process.stderr.write(line + "\n");

type Outcome = "found" | "lost";

/** Grinds one taken order until a verified offset is accepted, or the order stops being ours. */
async function grindOrder(api: OrdersApi, order: QueuedOrder, o: OrdersOptions, gpu: OpenGpu | null): Promise<Outcome> {
  const pattern = { prefix: order.prefix, suffix: order.suffix, caseSensitive: order.caseSensitive };
  const cpu = () => cpuSource({ spec: { network: "ethereum", ...pattern }, publicKey: order.publicKey }, o.threads);
  // a GPU that fails its self-check hands the order to the CPU threads, with the reason
  const source: SearchSource = gpu ? gpuSource(gpu, { pattern, publicKey: order.publicKey, fallback: cpu }) : cpu();
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

const threadsLabel = (n: number) => `CPU, ${n} thread${n === 1 ? "" : "s"}`;

export async function runOrders(o: OrdersOptions): Promise<number> {
  const gpu = await ordersGpu(o.gpu);
  if (typeof gpu === "number") return gpu;
  const api = new OrdersApi(o.api, grinderKey(o.api, process.env), gpu ? `GPU ${gpu.name}`.slice(0, 80) : threadsLabel(o.threads));
  await api.signIn();
  // The name Admin > Health shows for this process (schema/health.ts), with the id it stands for.
  log(`grinding custom orders from ${o.api} as ${api.wallet} (${api.label}; grinder ${grinderName(api.grinder)}, ${api.grinder})`);
  let filled = 0;
  let current: number | null = null;
  /** the supply claim being ground while no order waits (--supply) */
  let currentSupply: number | null = null;
  let supplyOn = o.supply;
  let intakeKey: IntakeKeyResponse | null = null;
  /**
   * --supply: one supply claim ground while no order waits; after each progress report the queue is asked (that
   * claims a waiting order, which the loop's next claim answers again) and an order interrupts the supply claim,
   * which is given up. A marketplace that refuses supply work turns it off for this run: orders never wait on it.
   */
  const supplyWhileIdle = async (): Promise<boolean> => {
    try {
      const { claim } = await api.supplyClaim();
      if (!claim) return false;
      intakeKey ??= await api.intakeKey();
      currentSupply = claim.id;
      const interrupt = async () => (await api.claim()).order !== null;
      const outcome = await grindClaim({ options: { ...o, quiet: true }, api, gpu, log, interrupt }, claim, intakeKey);
      if (outcome === "interrupted") {
        log(`claim ${claim.id}: a custom order waits; giving the supply claim up`);
        await api.supplyRelease(claim.id).catch(() => undefined);
      }
      return true;
    } catch (e) {
      log(`supply work stopped for this run: ${(e as Error).message}`);
      supplyOn = false;
      return false;
    } finally {
      currentSupply = null;
    }
  };
  // Stopped by Ctrl-C or by npm start's shutdown: give the order back so another grinder need not wait for the
  // lease to lapse (bounded: a marketplace that is itself stopping may not answer).
  const stopOn = (signal: NodeJS.Signals, code: number) =>
    process.once(signal, () => {
      const id = current;
      const supplyId = currentSupply;
      log(
        `\n${signal}: stopping${id === null ? "" : `; order ${id} goes back to the queue`}${supplyId === null ? "" : `; supply claim ${supplyId} is given up`}`,
      );
      const release = Promise.all([
        id === null ? undefined : api.release(id).catch(() => undefined),
        supplyId === null ? undefined : api.supplyRelease(supplyId).catch(() => undefined),
      ]);
      void Promise.race([release, new Promise((r) => setTimeout(r, 3000))]).then(() => process.exit(code));
    });
  stopOn("SIGINT", 130);
  stopOn("SIGTERM", 143);
  for (;;) {
    const { order } = await api.claim();
    if (order === null) {
      if (supplyOn && (await supplyWhileIdle())) continue;
      if (o.once) break;
      await new Promise((r) => setTimeout(r, o.pollSeconds * 1000));
      continue;
    }
    current = order.id;
    if ((await grindOrder(api, order, o, gpu)) === "found") filled++;
    current = null;
  }
  log(`done: ${filled} order(s) filled`);
  return 0;
}
