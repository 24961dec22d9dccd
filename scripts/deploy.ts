// `npm run deploy`: uploads the production environment of wrangler.toml ([env.production]), and refuses before
// uploading anything while a required production setting is missing or is a dev value (docs/deploying.md).
//   1. reads [env.production] through wrangler itself (what `wrangler deploy --env production` would upload),
//      and the names of the production secrets (`wrangler secret list --env production`)
//   2. checks them with the Worker's own rules (scripts/deploy-check.ts); any problem: prints each, exits 1
//   3. builds the SPA and the Worker bundle (a dry run) and refuses if either carries a public dev key
//   4. applies the D1 migrations, then `wrangler deploy --env production`
// `npm run deploy -- --check` stops after step 2; `-- --no-alerts` deploys without ALERT_WEBHOOK_URL on purpose
// (refused otherwise: docs/deploying.md). Each step's I/O is a parameter, so the tests run the steps
// with the upload replaced (scripts/deploy.test.ts): nothing here can reach Cloudflare from a test.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_readConfig } from "wrangler";
import { nodeFacts } from "../worker/deployment/node-identity";
import type { NodeFacts } from "../worker/deployment/payment-rules";
import { type DeployConfig, deployProblems } from "./deploy-check";
import { findDevSecrets } from "./dev-key-scan";
import { buildWeb, ROOT, STACK_ENV } from "./stack";

export const ENVIRONMENT = "production";
const WRANGLER = path.join(ROOT, "node_modules", ".bin", "wrangler");
const CONFIG_PATH = path.join(ROOT, "wrangler.toml");

export type DeployIo = {
  /** wrangler.toml as wrangler resolves it: the production environment, and the names of the local [vars]. */
  readConfig(): { production: DeployConfig; localVarNames: string[] };
  /** The production secrets' names, or why they could not be listed. */
  listSecrets(): string[] | string;
  askNodes(urls: {
    ETH_RPC_URL?: string;
    ETH_RPC_URLS?: string;
    SOL_RPC_URL?: string;
    SOL_RPC_URLS?: string;
    ETH_CHAIN_ID?: string;
    SOL_CLUSTER?: string;
  }): Promise<NodeFacts>;
  /** Builds the SPA into dist/ and the Worker bundle into `outdir` (no upload); the files that carry a public dev key. */
  buildAndScan(outdir: string): string[];
  /** Runs wrangler with these arguments, output shown; its exit status. */
  wrangler(args: string[]): number;
  log(line: string): void;
};

/** wrangler.toml through wrangler's own reader, so environments resolve exactly as `wrangler deploy` resolves them. */
export function readWranglerConfig(configPath = CONFIG_PATH): { production: DeployConfig; localVarNames: string[] } {
  const production = unstable_readConfig({ config: configPath, env: ENVIRONMENT }, { hideWarnings: true });
  const local = unstable_readConfig({ config: configPath }, { hideWarnings: true });
  return {
    production: {
      vars: production.vars,
      requiredSecrets: production.secrets?.required ?? [],
      d1: production.d1_databases,
      crons: production.triggers.crons ?? [],
    },
    localVarNames: Object.keys(local.vars),
  };
}

function listProductionSecrets(): string[] | string {
  const res = spawnSync(WRANGLER, ["secret", "list", "--env", ENVIRONMENT, "--format", "json"], { cwd: ROOT, env: STACK_ENV, encoding: "utf8" });
  if (res.status !== 0) return (res.stderr || res.stdout || `exit status ${res.status}`).trim().split("\n").slice(-3).join(" ");
  try {
    return (JSON.parse(res.stdout) as { name: string }[]).map((s) => s.name);
  } catch {
    return "its answer was not the JSON list expected";
  }
}

const realIo: DeployIo = {
  readConfig: () => readWranglerConfig(),
  listSecrets: listProductionSecrets,
  askNodes: (urls) => nodeFacts(urls),
  buildAndScan(outdir) {
    buildWeb();
    fs.rmSync(outdir, { recursive: true, force: true });
    const dry = spawnSync(WRANGLER, ["deploy", "--env", ENVIRONMENT, "--dry-run", "--outdir", outdir], { cwd: ROOT, env: STACK_ENV, stdio: "inherit" });
    if (dry.status !== 0) return [`wrangler deploy --dry-run exited with ${dry.status}`];
    return [...findDevSecrets(path.join(ROOT, "dist")), ...findDevSecrets(outdir)].map((l) => `${path.relative(ROOT, l.file)} contains ${l.secret}`);
  },
  wrangler: (args) => spawnSync(WRANGLER, args, { cwd: ROOT, env: STACK_ENV, stdio: "inherit" }).status ?? 1,
  log: (line) => console.log(line),
};

export type DeployOptions = { checkOnly: boolean; noAlerts: boolean };

/** The command line's options, or why it is refused: an option misspelt must not deploy (--chek, --no-alert). */
export function deployOptions(args: readonly string[]): DeployOptions | string {
  const known = ["--check", "--no-alerts"];
  const unknown = args.find((a) => !known.includes(a));
  if (unknown !== undefined) return `npm run deploy: unknown option "${unknown}" (the options are ${known.join(" and ")}).`;
  return { checkOnly: args.includes("--check"), noAlerts: args.includes("--no-alerts") };
}

/** The deploy, step by step; 0 when uploaded (or, with `checkOnly`, when the check passed), 1 when refused or failed. */
export async function deploy(io: DeployIo, opts: Partial<DeployOptions> = {}): Promise<number> {
  const { production, localVarNames } = io.readConfig();
  const text = (name: string) => (typeof production.vars[name] === "string" ? (production.vars[name] as string) : undefined);
  const urls = { ETH_RPC_URL: text("ETH_RPC_URL"), ETH_RPC_URLS: text("ETH_RPC_URLS"), SOL_RPC_URL: text("SOL_RPC_URL"), SOL_RPC_URLS: text("SOL_RPC_URLS") };
  // A URL kept as a var can be asked what it serves now; one kept as a secret is asked by the Worker at start.
  const nodes = Object.values(urls).some((u) => u !== undefined)
    ? await io.askNodes({ ...urls, ETH_CHAIN_ID: text("ETH_CHAIN_ID"), SOL_CLUSTER: text("SOL_CLUSTER") })
    : {};
  const secrets = io.listSecrets();
  const problems = deployProblems(production, { localVarNames, secrets, nodes, noAlerts: opts.noAlerts });
  if (problems.length > 0) {
    io.log(`✗ Not deployed: fix these in wrangler.toml [env.production] or the production secrets (docs/production-settings.md):`);
    for (const p of problems) io.log(`  - ${p}`);
    return 1;
  }
  io.log("✓ The production settings pass the Worker's rules.");
  if (opts.noAlerts && !secrets.includes("ALERT_WEBHOOK_URL"))
    io.log("! --no-alerts: ALERT_WEBHOOK_URL is not set, so no alert will be sent (late payments, refunds due, nodes down): watch Admin > Health yourself.");
  if (opts.checkOnly) return 0;

  const leaks = io.buildAndScan(path.join(ROOT, ".wrangler", "deploy"));
  if (leaks.length > 0) {
    io.log("✗ Not deployed: the build is not fit to upload:");
    for (const l of leaks) io.log(`  - ${l}`);
    return 1;
  }
  for (const step of [
    ["d1", "migrations", "apply", "DB", "--remote", "--env", ENVIRONMENT],
    ["deploy", "--env", ENVIRONMENT],
  ]) {
    const status = io.wrangler(step);
    if (status !== 0) {
      io.log(`✗ wrangler ${step.join(" ")} exited with ${status}`);
      return 1;
    }
  }
  io.log("✓ Deployed. Check it: curl https://<your site>/api/health shows payments.ready true and production true.");
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const opts = deployOptions(process.argv.slice(2));
  if (typeof opts === "string") {
    console.error(opts);
    process.exitCode = 1;
  } else process.exitCode = await deploy(realIo, opts);
}
