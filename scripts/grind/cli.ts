// npm run grind -- --network ethereum|solana --prefix P --suffix S --count N --out file.csv [--gpu[=auto]]
// Searches on worker threads or the GPU, verifies each match independently, appends it to the CSV.
// --orders fills custom orders (orders.ts), --supply stocks the supply targets (supply.ts).
import { gpuUnsupported } from "../../gpu/solana-pattern.ts";
import { parseCli, USAGE, UsageError, type GrindOptions } from "./args.ts";
import { CsvError } from "./csv.ts";
import { gpuFor, gpuSource, solanaGpuSource } from "./gpu-source.ts";
import { SealedLister } from "./list.ts";
import { grinderKey, OrdersApi, OrdersApiError } from "./orders-api.ts";
import type { OrdersOptions } from "./args.ts";
import { ORDERS_USAGE, parseOrdersCli, runOrders } from "./orders.ts";
import { grindToCsv } from "./run.ts";
import { SUPPLY_USAGE, supplyFromCli } from "./supply.ts";
import { cpuSource, type SearchSource } from "./search-source.ts";

/**
 * Where this run searches: the CPU threads, or the GPU for --gpu (exit 4 without one) and --gpu=auto (the
 * CPU without one, said so). Returns an exit code when there is nothing to run.
 */
async function chooseSource(o: GrindOptions): Promise<SearchSource | number> {
  const unsupported = o.gpu === "off" ? null : gpuUnsupported(o.spec);
  if (unsupported) {
    // only --gpu=auto gets here (--gpu with such a pattern is a usage error)
    process.stderr.write(`${unsupported}; grinding on the CPU\n`);
    return cpuSource({ spec: o.spec }, o.threads);
  }
  const gpu = await gpuFor(o.gpu);
  if (typeof gpu === "number") return gpu;
  if (!gpu) return cpuSource({ spec: o.spec }, o.threads);
  // a GPU that fails its self-check hands the run to the CPU threads, with the reason
  const fallback = () => cpuSource({ spec: o.spec }, o.threads);
  return o.spec.network === "solana"
    ? solanaGpuSource(gpu, { pattern: o.spec, invocations: o.gpuInvocations, fallback })
    : gpuSource(gpu, { pattern: o.spec, invocations: o.gpuInvocations, fallback });
}

/** --orders and --supply: loops that claim their work from the marketplace, with the same options. */
async function ordersMain(argv: string[], mode: "--orders" | "--supply" = "--orders"): Promise<void> {
  let options: OrdersOptions | null;
  try {
    options = parseOrdersCli(argv, mode);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`error: ${e.message}\nrun with ${mode} --help for usage\n`);
      process.exit(2);
    }
    throw e;
  }
  if (options === null) {
    process.stdout.write((mode === "--supply" ? SUPPLY_USAGE : ORDERS_USAGE) + "\n");
    return;
  }
  try {
    process.exitCode = await (mode === "--supply" ? supplyFromCli(options) : runOrders(options));
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
  if (process.argv.includes("--supply")) return ordersMain(process.argv.slice(2), "--supply");
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
  let lister: SealedLister | undefined;
  if (options.list) {
    if (options.out !== null) {
      process.stderr.write(`warning: --out ${options.out} writes every found private key in plain text; leave --out out and --list keeps keys off this disk\n`);
    }
    try {
      const api = new OrdersApi(options.api, grinderKey(options.api, process.env), "grind --list");
      await api.signIn();
      lister = await SealedLister.connect(api, (line) => process.stderr.write(`${line}\n`));
      process.stderr.write(`listing sealed on ${options.api} (intake key ${lister.key.keyId})\n`);
    } catch (e) {
      process.stderr.write(`error: --list: ${(e as Error).message}\n`);
      process.exit(1);
    }
  }
  try {
    const source = await chooseSource(options);
    process.exitCode = typeof source === "number" ? source : await grindToCsv(options, source, lister);
  } catch (e) {
    if (e instanceof CsvError) {
      process.stderr.write(`error: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

await main();
