// `npm run keys:rotate`: re-wraps every stored private key under a new KEY_ENCRYPTION_SECRET.
//
//   OLD_KEY_ENCRYPTION_SECRET=… NEW_KEY_ENCRYPTION_SECRET=… npm run keys:rotate [-- options]
//
// Secrets come from the environment only (never argv, which other users can read in `ps`). The work is
// worker/vault/rotate.ts over the D1 that wrangler's platform proxy exposes: the local database by default,
// or the remote one with --remote and a config whose DB binding says `remote = true` (README, "Rotating
// KEY_ENCRYPTION_SECRET"). Safe to stop and re-run: finished records are skipped.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { getPlatformProxy, unstable_readConfig } from "wrangler";
import { createDb } from "../worker/db/database";
import { MIN_SECRET_LENGTH } from "../worker/vault";
import { DEFAULT_ROTATION_BATCH, MAX_ROTATION_BATCH, type RotationReport, rotateKeys } from "../worker/vault/rotate";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const USAGE = `Usage: OLD_KEY_ENCRYPTION_SECRET=… NEW_KEY_ENCRYPTION_SECRET=… npm run keys:rotate -- [options]

Options:
  --persist-to <dir>   local D1 state directory (as wrangler's --persist-to; default .wrangler/state)
  --config <file>      wrangler config to read the DB binding from (default wrangler.toml)
  --remote             rotate the remote D1: the config's DB binding must have remote = true
  --batch-size <n>     records per atomic batch, 1-${MAX_ROTATION_BATCH} (default ${DEFAULT_ROTATION_BATCH})
  --limit <n>          stop after rotating n records (run again to continue)
  --to-version <n>     keyVersion to stamp (default: the version of an unfinished run, else highest + 1)`;

export class UsageError extends Error {}

export type RotateCli = {
  oldSecret: string;
  newSecret: string;
  configPath: string;
  persistTo?: string;
  remote: boolean;
  batchSize?: number;
  limit?: number;
  targetVersion?: number;
};

function positiveInt(flag: string, value: string | undefined, min: number): number {
  if (value === undefined || !/^[0-9]+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} needs an integer of at least ${min}`);
  }
  return Number(value);
}

/** Reads options and secrets; every problem is a UsageError whose message never includes a secret. */
export function parseRotateArgs(argv: string[], env: Partial<Record<string, string>>): RotateCli | "help" {
  const cli: Partial<RotateCli> = { configPath: path.join(root, "wrangler.toml"), remote: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === "--help" || flag === "-h") return "help";
    else if (flag === "--persist-to") cli.persistTo = path.resolve(value());
    else if (flag === "--config") cli.configPath = path.resolve(value());
    else if (flag === "--remote") cli.remote = true;
    else if (flag === "--batch-size") cli.batchSize = positiveInt(flag, value(), 1);
    else if (flag === "--limit") cli.limit = positiveInt(flag, value(), 0);
    else if (flag === "--to-version") cli.targetVersion = positiveInt(flag, value(), 2);
    else throw new UsageError(`Unknown option ${flag}`);
  }
  if (cli.remote && cli.persistTo) throw new UsageError("--persist-to is for the local database; it cannot be combined with --remote");
  if (cli.batchSize !== undefined && cli.batchSize > MAX_ROTATION_BATCH) throw new UsageError(`--batch-size can be at most ${MAX_ROTATION_BATCH}`);
  for (const name of ["OLD_KEY_ENCRYPTION_SECRET", "NEW_KEY_ENCRYPTION_SECRET"]) {
    if ((env[name]?.length ?? 0) < MIN_SECRET_LENGTH) throw new UsageError(`${name} must be set to at least ${MIN_SECRET_LENGTH} characters`);
  }
  cli.oldSecret = env.OLD_KEY_ENCRYPTION_SECRET;
  cli.newSecret = env.NEW_KEY_ENCRYPTION_SECRET;
  if (cli.oldSecret === cli.newSecret) throw new UsageError("OLD_KEY_ENCRYPTION_SECRET and NEW_KEY_ENCRYPTION_SECRET are the same");
  return cli as RotateCli;
}

/** With --remote the DB binding must really be remote; otherwise the local copy would be rotated instead. */
function describeTarget(cli: RotateCli): string {
  const config = unstable_readConfig({ config: cli.configPath }, { hideWarnings: true });
  const databases: { binding: string; database_name?: string; database_id?: string; remote?: boolean }[] = config.d1_databases;
  const db = databases.find((d) => d.binding === "DB");
  if (!db) throw new UsageError(`${cli.configPath} has no D1 binding named DB`);
  if (cli.remote && db.remote !== true) throw new UsageError(`--remote needs \`remote = true\` on the DB binding in ${cli.configPath}`);
  if (!cli.remote && db.remote === true) throw new UsageError(`the DB binding in ${cli.configPath} is remote; pass --remote to confirm`);
  return cli.remote
    ? `remote D1 "${db.database_name}" (${db.database_id})`
    : `local D1 in ${cli.persistTo ?? path.join(path.dirname(cli.configPath), ".wrangler/state")}`;
}

const summary = (r: RotationReport) => `rotated ${r.rotated}, skipped ${r.skipped}, failed ${r.failed}`;

export async function runRotation(cli: RotateCli, log: (line: string) => void = console.log): Promise<RotationReport> {
  const target = describeTarget(cli);
  const proxy = await getPlatformProxy<Env>({
    configPath: cli.configPath,
    persist: cli.persistTo ? { path: path.join(cli.persistTo, "v3") } : true,
    remoteBindings: cli.remote,
  });
  try {
    log(`keys:rotate: re-wrapping encrypted keys in the ${target}`);
    let lastLog = Date.now();
    const report = await rotateKeys(createDb(proxy.env.DB), {
      oldSecret: cli.oldSecret,
      newSecret: cli.newSecret,
      batchSize: cli.batchSize,
      limit: cli.limit,
      targetVersion: cli.targetVersion,
      onProgress: (r) => {
        if (Date.now() - lastLog < 1000) return;
        lastLog = Date.now();
        log(`  … ${summary(r)}`);
      },
    });
    log(`keys:rotate: key version ${report.targetVersion}: ${summary(report)}`);
    if (report.failed > 0) log(`  failed encrypted_keys ids (open under neither secret, left unchanged): ${report.failedIds.join(", ")}`);
    if (!report.complete) log("  stopped at --limit; run the same command again to continue");
    else if (report.failed === 0) {
      log(`  done: every key is now under the new secret. Set KEY_ENCRYPTION_SECRET to it and KEY_ENCRYPTION_VERSION = "${report.targetVersion}",`);
      log("  then remove KEY_ENCRYPTION_SECRET_PREVIOUS if you set it for the rotation.");
    }
    return report;
  } finally {
    await proxy.dispose();
  }
}

async function main() {
  let cli: RotateCli | "help";
  try {
    cli = parseRotateArgs(process.argv.slice(2), process.env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`keys:rotate: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (cli === "help") return console.log(USAGE);
  try {
    const report = await runRotation(cli);
    process.exitCode = report.failed > 0 ? 1 : 0;
  } catch (err) {
    // Vault and rotation errors carry fixed messages; nothing here can contain a key or a secret.
    console.error(`keys:rotate: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
