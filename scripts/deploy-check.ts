// What `npm run deploy` refuses before it uploads anything (docs/deploying.md): the production environment of
// wrangler.toml and the names of its secrets in, every problem out. Pure; scripts/deploy.ts gathers the inputs
// (through wrangler itself) and runs the upload only when this returns nothing.
//
// The payment rules are the Worker's own (worker/deployment/payment-rules.ts), applied as they would be with no
// request (the cron job's view: SITE_ORIGIN says where the site is), so a deploy the Worker would refuse to
// take payments on is never uploaded. On top of them, what only a deploy can know: that production is public,
// its secrets exist, no var overwrites a secret, every setting the local [vars] define is set for production
// too (wrangler does not inherit vars into an environment), the database is a real one, the cron job runs, and
// alerts reach the operator (or the operator said --no-alerts).
import { detectAddressType } from "../schema/address";
import { REQUIRED_SECRETS } from "../worker/deployment/secrets";
import { isLoopbackHost } from "../worker/deployment/local-mode";
import { checkDeployment, type NodeFacts } from "../worker/deployment/payment-rules";
import { parseSiteOrigin } from "../worker/deployment/site-origin";

/** The parts of a resolved wrangler configuration (wrangler's own reading of wrangler.toml) the check reads. */
export type DeployConfig = {
  vars: Record<string, unknown>;
  /** `secrets.required` of the environment. */
  requiredSecrets: readonly string[];
  d1: readonly { binding: string; database_id?: string }[];
  crons: readonly string[];
};

export type DeployFacts = {
  /** The top-level [vars] names: every setting the Worker reads locally, which production must set too. */
  localVarNames: readonly string[];
  /** Names of the production Worker's secrets (`wrangler secret list --env production`); a string: why they could not be listed. */
  secrets: readonly string[] | string;
  /** What the nodes said, when their URLs are vars (a secret URL cannot be read here; the Worker asks at start). */
  nodes?: NodeFacts;
  /** `npm run deploy -- --no-alerts`: the operator goes without ALERT_WEBHOOK_URL on purpose. */
  noAlerts?: boolean;
};

/** Stands in for an RPC URL kept as a secret: the rules then read it as a hosted node over https, which it must be. */
export const SECRET_RPC_URL = "https://rpc-url-set-as-a-secret.invalid";
/**
 * Stands in for a node list kept as a secret: two hosted nodes. A deploy cannot read a secret, so the Worker checks
 * the real list when it starts (two hosts or more on mainnet) and refuses payments, naming the setting, until it is.
 */
export const SECRET_RPC_URLS = "https://first-rpc-url-set-as-a-secret.invalid,https://second-rpc-url-set-as-a-secret.invalid";
/** A node list (ETH_RPC_URLS) stands for its single-node setting (ETH_RPC_URL), which production then leaves unset. */
const LIST_OF = { ETH_RPC_URL: "ETH_RPC_URLS", SOL_RPC_URL: "SOL_RPC_URLS" } as Record<string, string>;

/** Settings that must not be empty in production (PRICE_FEED_URL may be: the fallback rates apply). */
const REQUIRED_NON_EMPTY = ["ADMIN_WALLETS", "SUPPORT_CONTACT", "KEY_ENCRYPTION_VERSION"] as const;
const ZERO_DATABASE_ID = /^0{8}-0{4}-0{4}-0{4}-0{12}$/;

const text = (value: unknown) => (typeof value === "string" ? value : value === undefined ? undefined : JSON.stringify(value));

export function deployProblems(config: DeployConfig, facts: DeployFacts): string[] {
  const problems: string[] = [];
  const vars = Object.fromEntries(Object.entries(config.vars).map(([k, v]) => [k, text(v)])) as Record<string, string | undefined>;
  const required = [...new Set([...REQUIRED_SECRETS, ...config.requiredSecrets])];

  // ---- secrets
  if (typeof facts.secrets === "string") {
    problems.push(`The production secrets could not be listed (npx wrangler secret list --env production): ${facts.secrets}`);
  } else {
    for (const name of required) if (!facts.secrets.includes(name)) problems.push(`${name} is not set: npx wrangler secret put ${name} --env production`);
  }
  const secretNames = new Set([...required, ...(typeof facts.secrets === "string" ? [] : facts.secrets)]);
  for (const name of Object.keys(vars))
    if (secretNames.has(name))
      problems.push(
        `${name} is in [env.production.vars] but is a secret: a var is committed, and each deploy would overwrite the secret with it. Remove it from wrangler.toml.`,
      );

  // ---- alerts: a store that cannot tell its operator about a late payment, a refund due or a node down is not
  // ready to take money (docs/operations.md#alerts). The webhook URL carries its token: a secret, never a var.
  if ("ALERT_WEBHOOK_URL" in vars)
    problems.push(
      "ALERT_WEBHOOK_URL is in [env.production.vars]: a webhook URL carries its token, and a var is committed. Remove it from wrangler.toml and set it as a secret: npx wrangler secret put ALERT_WEBHOOK_URL --env production",
    );
  else if (typeof facts.secrets !== "string" && !facts.secrets.includes("ALERT_WEBHOOK_URL") && !facts.noAlerts)
    problems.push(
      "ALERT_WEBHOOK_URL is not set: a store that cannot tell its operator about a late payment, a refund due or a node down is not ready to take money. Set it (npx wrangler secret put ALERT_WEBHOOK_URL --env production; docs/operations.md#alerts), or run npm run deploy -- --no-alerts to go without alerts on purpose.",
    );

  // ---- every setting the Worker reads is set for production
  const isSet = (name: string) => name in vars || secretNames.has(name);
  for (const name of facts.localVarNames)
    if (!isSet(name) && !(LIST_OF[name] && isSet(LIST_OF[name])))
      problems.push(`${name} is set in the local [vars] but not in [env.production.vars] (an environment does not inherit vars): set it for production.`);
  for (const name of REQUIRED_NON_EMPTY) if (!vars[name]?.trim()) problems.push(`${name} must be set in [env.production.vars].`);
  const version = vars.KEY_ENCRYPTION_VERSION?.trim();
  if (version && !/^[1-9]\d{0,8}$/.test(version)) problems.push(`KEY_ENCRYPTION_VERSION must be a positive whole number; it is "${version}".`);
  for (const wallet of (vars.ADMIN_WALLETS ?? "").split(",").map((w) => w.trim()))
    if (wallet && detectAddressType(wallet) === "unknown")
      problems.push(`ADMIN_WALLETS lists "${wallet.slice(0, 66)}", which is not an Ethereum or Solana address.`);

  // ---- the site is public
  const site = parseSiteOrigin(vars.SITE_ORIGIN);
  if (site && isLoopbackHost(site.hostname))
    problems.push(`SITE_ORIGIN is ${site.origin}, on the deploying machine: production must name the public site, such as https://vanity.example.`);

  // ---- the Worker's own payment rules, as the cron job applies them (no request: SITE_ORIGIN is the site)
  // A URL kept as a secret stands in as a hosted node (a list, as two); one kept as a var is read as written.
  const standIn = (one: string, list: string) =>
    vars[list]?.trim()
      ? { [list]: vars[list] }
      : vars[one] !== undefined
        ? { [one]: vars[one] }
        : secretNames.has(list)
          ? { [list]: SECRET_RPC_URLS }
          : { [one]: SECRET_RPC_URL };
  const check = checkDeployment(
    { ...vars, ETH_RPC_URL: undefined, SOL_RPC_URL: undefined, ...standIn("ETH_RPC_URL", "ETH_RPC_URLS"), ...standIn("SOL_RPC_URL", "SOL_RPC_URLS") },
    { ...facts.nodes, requestHost: null },
  );
  if (!check.ok) problems.push(...check.problems);
  else if (!check.settings.production) problems.push("These settings are local ones (the site and both nodes on this machine): production must not be local.");

  // ---- the platform around it
  const db = config.d1.find((d) => d.binding === "DB");
  if (!db) problems.push("[[env.production.d1_databases]] has no binding DB: the Worker's database.");
  else if (!db.database_id || ZERO_DATABASE_ID.test(db.database_id))
    problems.push("The production database_id is not set: put the id printed by `npx wrangler d1 create vanity-market` in [[env.production.d1_databases]].");
  if (config.crons.length === 0) problems.push("No cron trigger: the cron job settles payments and expires reservations ([triggers] crons).");

  return problems;
}
