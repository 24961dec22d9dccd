// Command-line parsing and validation for the grinder (pure: no I/O, easy to test).
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { gpuUnsupported } from "../../gpu/solana-pattern.ts";
import { BASE58_ALPHABET, normalizePrefix, validatePattern, type Network, type PatternSpec } from "../../schema/grind-pattern.ts";

/** Exit code when --gpu was given and no GPU adapter could be opened. */
export const EXIT_NO_GPU = 4;

/** on: the GPU or nothing (exit 4); auto: the GPU if there is one, else the CPU threads. */
export type GpuMode = "off" | "on" | "auto";

/** The options of a loop that claims work from the marketplace: --orders (orders.ts) and --supply (supply.ts). */
export type OrdersOptions = { api: string; threads: number; gpu: GpuMode; once: boolean; pollSeconds: number; quiet: boolean; supply: boolean };

export interface GrindOptions {
  spec: PatternSpec;
  count: number;
  threads: number;
  gpu: GpuMode;
  /** GPU work items in flight (default: by adapter) */
  gpuInvocations?: number;
  /** the plain CSV; null with --list and no --out (no key on this disk) */
  out: string | null;
  /** --list: seal each row to the marketplace's intake key and list it there (list.ts) */
  list: boolean;
  /** the marketplace --list sends to */
  api: string;
  append: boolean;
  force: boolean;
  quiet: boolean;
}

export class UsageError extends Error {
  override name = "UsageError";
}

export const USAGE = `Usage: npm run grind -- --network ethereum|solana [--prefix P] [--suffix S] --out FILE.csv [options]

Searches random keys for vanity addresses and writes them as CSV
(address,private_key,platform,pattern_type,pattern_matched). Every row is re-derived from its
private key with @noble/curves before it is written.

  -n, --network NET      ethereum or solana (required)
  -p, --prefix P         start of the address (Ethereum: after 0x; a leading 0x is ignored)
  -s, --suffix S         end of the address          (at least one of --prefix/--suffix)
  -m, --mirror K         instead: any address whose last K characters are its first K reversed
                         (palindrome shape, e.g. 0xab12…21ba for K=4; odds 16^-K, base58 58^-K)
  -c, --count N          how many addresses to find (default 1)
      --case-sensitive   match letter case exactly (see below)
  -t, --threads T        worker threads (default: all ${availableParallelism()} cores)
      --gpu              grind on the GPU instead (WebGPU through Dawn; Ethereum, and Solana without
                         --mirror); exit 4 when no GPU adapter can be opened
      --gpu=auto         the GPU when there is one, else the CPU threads (says which)
      --gpu-invocations N  GPU work items in flight (default: Ethereum 131,072; Solana: chosen with the
                         comb window by a short sweep at start on a GPU; far fewer on a software
                         adapter)
  -o, --out FILE         CSV file to write, "-" for stdout (required without --list)
      --list             seal each verified key to the marketplace's intake key and list it there
                         (Admin > Listings); nothing is written to disk unless --out is also given,
                         which keeps a plain CSV and says so. Signs in with GRINDER_ADMIN_KEY, as --orders
      --api URL          the marketplace for --list (default http://127.0.0.1:8787)
      --append           add rows to an existing CSV (same header) instead of creating it
      --force            overwrite an existing non-empty FILE
  -q, --quiet            no progress line
  -h, --help             this text

Patterns
  Ethereum: hex digits 0-9 a-f, at most 40 characters for prefix + suffix. Without
    --case-sensitive letters match in any case; with it the address's EIP-55 checksum case must
    equal the pattern's (each letter halves the odds). private_key is 0x + 64 hex, the address is
    EIP-55 checksummed.
  Solana: base58 characters (${BASE58_ALPHABET}), at most
    44 for prefix + suffix. Without --case-sensitive letters match in either case that exists in
    base58 (so "sol" matches "SoL"; o, i and L have no other case in base58); with it exactly.
    A leading "1" means a leading zero byte (1 in 256). private_key is base58 of the 64-byte
    secret key (seed || public key), the format Phantom and solana-keygen use.

Progress (stderr, once a second): keys/s, attempts, expected attempts per match and the
expected time remaining. Exit codes: 0 done, 2 bad usage, 3 verification failure (a bug; from the GPU:
a kernel fault), 4 --gpu and no GPU adapter. docs/gpu-grinder.md has the GPU setup (NVIDIA, SwiftShader).

Custom orders: npm run grind -- --orders (see npm run grind -- --orders --help).

Examples
  npm run grind -- --network ethereum --prefix dead --suffix beef --count 2 --out dead.csv
  npm run grind -- -n solana -p Sol -c 5 --threads 1 -o sol.csv --append
  npm run grind -- -n ethereum --mirror 4 -c 3 -o palindromes.csv
  npm run grind -- -n ethereum -p 0000000 -c 10 --gpu -o zeros.csv
  npm run grind -- -n solana -p Sol -c 3 --gpu -o sol.csv
  npm run grind -- -n ethereum -p dead -c 5 --list --api https://market.example`;

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new UsageError(`--${name} must be a whole number, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < 1) throw new UsageError(`--${name} must be at least 1, got ${n}`);
  return n;
}

const NUMERIC = new Set(["--count", "-c", "--threads", "-t", "--mirror", "-m", "--gpu-invocations"]);

/** `--gpu` alone means "on"; `--gpu auto` and `--gpu=auto` mean auto (parseArgs has no optional values). */
export function normalizeGpuFlag(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== "--gpu") out.push(argv[i]);
    else if (argv[i + 1] === "auto" || argv[i + 1] === "on") out.push(`--gpu=${argv[++i]}`);
    else out.push("--gpu=on");
  }
  return out;
}

export function parseGpuMode(raw: string | undefined): GpuMode {
  if (raw === undefined) return "off";
  if (raw === "on" || raw === "auto") return raw;
  throw new UsageError(`--gpu takes no value or "auto", got ${JSON.stringify(raw)}`);
}

/** Parses argv (without node and script). Returns null for --help. Throws UsageError. */
export function parseCli(argv: string[]): GrindOptions | null {
  // "--count -1" would read as a missing value; join it so the message can say what is wrong
  const args: string[] = [];
  argv = normalizeGpuFlag(argv);
  for (let i = 0; i < argv.length; i++) {
    if (NUMERIC.has(argv[i]) && /^-\d/.test(argv[i + 1] ?? "")) args.push(argv[i].startsWith("--") ? `${argv[i]}=${argv[++i]}` : `${argv[i]}${argv[++i]}`);
    else args.push(argv[i]);
  }
  let values;
  try {
    ({ values } = parseArgs({
      args,
      allowPositionals: false,
      strict: true,
      options: {
        network: { type: "string", short: "n" },
        prefix: { type: "string", short: "p" },
        suffix: { type: "string", short: "s" },
        mirror: { type: "string", short: "m" },
        count: { type: "string", short: "c" },
        "case-sensitive": { type: "boolean" },
        threads: { type: "string", short: "t" },
        gpu: { type: "string" },
        "gpu-invocations": { type: "string" },
        out: { type: "string", short: "o" },
        list: { type: "boolean" },
        api: { type: "string", default: "http://127.0.0.1:8787" },
        append: { type: "boolean" },
        force: { type: "boolean" },
        quiet: { type: "boolean", short: "q" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.help) return null;
  const network = values.network as Network | undefined;
  if (!network) throw new UsageError("--network is required (ethereum or solana)");
  if (network !== "ethereum" && network !== "solana") throw new UsageError(`unknown network ${JSON.stringify(network)} (expected ethereum or solana)`);
  const spec: PatternSpec = {
    network,
    prefix: normalizePrefix(network, values.prefix ?? ""),
    suffix: values.suffix ?? "",
    caseSensitive: values["case-sensitive"] ?? false,
  };
  if (values.mirror !== undefined) spec.mirror = positiveInt("mirror", values.mirror, 0);
  const errors = validatePattern(spec);
  if (errors.length) throw new UsageError(errors.join("\n"));
  const count = positiveInt("count", values.count, 1);
  const threads = positiveInt("threads", values.threads, availableParallelism());
  const gpu = parseGpuMode(values.gpu);
  const gpuProblem = gpuUnsupported(spec);
  if (gpu === "on" && gpuProblem) throw new UsageError(`--gpu: ${gpuProblem}; use --gpu=auto to grind it on the CPU`);
  const gpuInvocations = values["gpu-invocations"] === undefined ? undefined : positiveInt("gpu-invocations", values["gpu-invocations"], 0);
  const list = values.list ?? false;
  if (!values.out && !list) throw new UsageError("--out FILE.csv is required (use - for stdout), or --list to list the keys sealed");
  let api: URL;
  try {
    api = new URL(values.api!);
  } catch {
    throw new UsageError(`--api must be a URL, got ${JSON.stringify(values.api)}`);
  }
  if (values.append && values.force) throw new UsageError("--append and --force contradict each other");
  return {
    spec,
    count,
    threads,
    gpu,
    gpuInvocations,
    out: values.out ?? null,
    list,
    api: api.href,
    append: values.append ?? false,
    force: values.force ?? false,
    quiet: values.quiet ?? false,
  };
}
