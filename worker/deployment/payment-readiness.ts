// Payment routes refuse to run on unsafe payment settings (docs/production-settings.md), the way secrets.ts
// refuses key routes without their secrets: 503 with a message naming each setting. The rules are
// payment-rules.ts; here they meet where the request came (local mode needs the site on this
// machine, local-mode.ts) and what the nodes say about themselves (node-identity.ts).
import type { MiddlewareHandler } from "hono";
import { forgetNodeFacts, nodeFacts } from "./node-identity";
import type { RequestHost } from "./local-mode";
import { checkPaymentSetup, type PaymentSetupCheck, type PaymentSetupText } from "./payment-rules";
import { ApiError } from "../http/errors";
import { requestHost } from "../http/request-host";
import type { AppEnv } from "../types";

export { forgetNodeFacts, nodeFacts };

/**
 * The payment settings, checked as configured and then against what the nodes say. `host`: the host the request
 * came to, or null outside a request (the cron job), where SITE_ORIGIN alone says where the site is.
 */
export async function paymentReadiness(env: PaymentSetupText, host: RequestHost, now = Date.now()): Promise<PaymentSetupCheck> {
  const configured = checkPaymentSetup(env, { requestHost: host });
  // Settings wrong as written are refused without asking a node (which might be the wrong one).
  if (!configured.ok) return configured;
  return checkPaymentSetup(env, { ...(await nodeFacts(env, now)), requestHost: host });
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
