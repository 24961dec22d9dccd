// Payment routes refuse to run on unsafe payment settings (issue 26 §8, docs/production-settings.md), the way
// config.ts refuses key routes without their secrets: 503 with a message naming each setting. The rules are
// domain/payment-settings.ts; here they meet what the nodes say about themselves (the Ethereum node's chain
// id, the Solana node's genesis hash), asked once and remembered per isolate.
import type { MiddlewareHandler } from "hono";
import { checkPaymentSettings, type NodeFacts, type PaymentSettingsCheck, type PaymentSettingsText } from "./domain/payment-settings";
import { ApiError } from "./http/errors";
import type { AppEnv } from "./types";

const NODE_TIMEOUT_MS = 3_000;
/** A node's identity does not change; it is asked again now and then in case its URL was repointed. */
const KNOWN_FOR_MS = 10 * 60_000;
/** A node that did not answer is asked again after this long (it proves nothing either way meanwhile). */
const UNKNOWN_FOR_MS = 30_000;

const remembered = new Map<string, { value: number | string | null; until: number }>();

/** Forgets what the nodes said (tests). */
export function forgetNodeFacts() {
  remembered.clear();
}

async function ask<T extends number | string>(key: string, url: string, method: string, read: (result: unknown) => T | null, now: number): Promise<T | null> {
  const known = remembered.get(key);
  if (known && known.until > now) return known.value as T | null;
  let value: T | null = null;
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }),
      signal: AbortSignal.timeout(NODE_TIMEOUT_MS),
    });
    if (res.ok) value = read(((await res.json()) as { result?: unknown }).result);
  } catch {
    // Unreachable or not JSON-RPC: unknown.
  }
  remembered.set(key, { value, until: now + (value === null ? UNKNOWN_FOR_MS : KNOWN_FOR_MS) });
  return value;
}

/** What the configured nodes say they are; null for a node that did not answer. */
export async function nodeFacts(env: PaymentSettingsText, now = Date.now()): Promise<NodeFacts> {
  const [ethChainId, solGenesisHash] = await Promise.all([
    ask(
      `eth ${env.ETH_RPC_URL}`,
      env.ETH_RPC_URL ?? "",
      "eth_chainId",
      (r) => (typeof r === "string" && /^0x[0-9a-f]{1,15}$/i.test(r) ? Number.parseInt(r, 16) : null),
      now,
    ),
    ask(
      `sol ${env.SOL_RPC_URL}`,
      env.SOL_RPC_URL ?? "",
      "getGenesisHash",
      (r) => (typeof r === "string" && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(r) ? r : null),
      now,
    ),
  ]);
  return { ethChainId, solGenesisHash };
}

/** The payment settings, checked as configured and then against what the nodes say. */
export async function paymentReadiness(env: PaymentSettingsText, now = Date.now()): Promise<PaymentSettingsCheck> {
  const configured = checkPaymentSettings(env);
  // Settings wrong as written are refused without asking a node (which might be the wrong one).
  if (!configured.ok) return configured;
  return checkPaymentSettings(env, await nodeFacts(env, now));
}

/** The 503 of a payment call while the settings are unsafe; each problem names its setting, none holds a secret. */
export function paymentsDisabled(problems: string[]): ApiError {
  return new ApiError(503, `Payments are disabled until the server's payment settings are fixed: ${problems.join(" ")}`, { problems });
}

/** On every route that takes, reports or builds a payment. */
export const requirePaymentSettings: MiddlewareHandler<AppEnv> = async (c, next) => {
  const check = await paymentReadiness(c.env);
  if (!check.ok) {
    console.error(`refusing payment route ${c.req.method} ${c.req.path}: unsafe payment settings: ${check.problems.join(" | ")}`);
    throw paymentsDisabled(check.problems);
  }
  await next();
};
