// Payment routes refuse to run on unsafe payment settings (docs/production-settings.md), the way config.ts
// refuses key routes without their secrets: 503 with a message naming each setting. The rules are
// domain/payment-settings.ts; here they meet where the request came (local mode needs the site on this
// machine, domain/local-mode.ts) and what the nodes say about themselves (chain/node-identity.ts).
import type { MiddlewareHandler } from "hono";
import { forgetNodeFacts, nodeFacts } from "./chain/node-identity";
import type { RequestHost } from "./domain/local-mode";
import { checkPaymentSettings, type PaymentSettingsCheck, type PaymentSettingsText } from "./domain/payment-settings";
import { ApiError } from "./http/errors";
import { requestHost } from "./http/request-host";
import type { AppEnv } from "./types";

export { forgetNodeFacts, nodeFacts };

/**
 * The payment settings, checked as configured and then against what the nodes say. `host`: the host the request
 * came to, or null outside a request (the cron job), where SITE_ORIGIN alone says where the site is.
 */
export async function paymentReadiness(env: PaymentSettingsText, host: RequestHost, now = Date.now()): Promise<PaymentSettingsCheck> {
  const configured = checkPaymentSettings(env, { requestHost: host });
  // Settings wrong as written are refused without asking a node (which might be the wrong one).
  if (!configured.ok) return configured;
  return checkPaymentSettings(env, { ...(await nodeFacts(env, now)), requestHost: host });
}

/** The 503 of a payment call while the settings are unsafe; each problem names its setting, none holds a secret. */
export function paymentsDisabled(problems: string[]): ApiError {
  return new ApiError(503, `Payments are disabled until the server's payment settings are fixed: ${problems.join(" ")}`, { problems });
}

/** On every route that takes, reports or builds a payment. */
export const requirePaymentSettings: MiddlewareHandler<AppEnv> = async (c, next) => {
  const check = await paymentReadiness(c.env, requestHost(c));
  if (!check.ok) {
    console.error(`refusing payment route ${c.req.method} ${c.req.path}: unsafe payment settings: ${check.problems.join(" | ")}`);
    throw paymentsDisabled(check.problems);
  }
  await next();
};
