// Payment routes refuse to run on unsafe payment settings (docs/production-settings.md), the way secrets.ts
// refuses key routes without their secrets: 503 with a message naming each setting. The rules are
// payment-rules.ts; here they meet where the request came (local mode needs the site on this
// machine, local-mode.ts) and what the nodes say about themselves (node-identity.ts).
import type { MiddlewareHandler } from "hono";
import { forgetNodeFacts, nodeFacts } from "./node-identity";
import type { Deployment } from "./deployment";
import { checkDeployment, type DeploymentCheck } from "./payment-rules";
import { ApiError } from "../http/errors";
import type { AppEnv } from "../types";

export { forgetNodeFacts, nodeFacts };

/**
 * The payment settings, checked as configured (read with the deployment) and then against what the nodes say.
 * The deployment's request host is null outside a request (the cron job), where SITE_ORIGIN alone says where the
 * site is.
 */
export async function paymentReadiness(deployment: Deployment, now = Date.now()): Promise<DeploymentCheck> {
  // Settings wrong as written are refused without asking a node (which might be the wrong one).
  if (!deployment.payments.ok) return deployment.payments;
  return checkDeployment(deployment.text, { ...(await nodeFacts(deployment.text, now)), requestHost: deployment.requestHost });
}

/** The 503 of a payment call while the settings are unsafe; each problem names its setting, none holds a secret. */
export function paymentsDisabled(problems: string[]): ApiError {
  return new ApiError(503, `Payments are disabled until the server's payment settings are fixed: ${problems.join(" ")}`, { problems });
}

/** On every route that takes, reports or builds a payment. */
export const requirePaymentSettings: MiddlewareHandler<AppEnv> = async (c, next) => {
  const check = await paymentReadiness(c.var.deployment);
  if (!check.ok) {
    console.error(`refusing payment route ${c.req.method} ${c.req.path}: unsafe payment settings: ${check.problems.join(" | ")}`);
    throw paymentsDisabled(check.problems);
  }
  await next();
};
