// The deployment's middlewares: the deployment read once per request (c.var.deployment, deployment.ts), and the
// routes that refuse to run while a secret they need is missing (secrets.ts). Apart from deployment.ts, which
// worker/types.ts names, so that the reading itself imports no Hono context type.
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../http/errors";
import { requestHost } from "../http/request-host";
import type { AppEnv } from "../types";
import { readDeployment } from "./deployment";
import { MIN_SECRET_LENGTH, REQUIRED_SECRETS, type RequiredSecret } from "./secrets";

/** Reads the deployment once per request, for every route after it (c.var.deployment). */
export const deployment: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("deployment", readDeployment(c.env, requestHost(c)));
  await next();
};

/** Refuses the route with 503 while any of `names` is missing; `service` says what is disabled. */
export function requireSecretsFor(names: readonly RequiredSecret[], service: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const present = c.var.deployment.secrets;
    const missing = names.filter((name) => !present[name]);
    if (missing.length > 0) {
      console.error(`refusing ${service} route: secret(s) not configured: ${missing.join(", ")}`);
      throw new ApiError(
        503,
        `${service} services are disabled: the server is missing ${missing.join(" and ")} (at least ${MIN_SECRET_LENGTH} characters each). ` +
          "Set them with `wrangler secret put` (or in .dev.vars locally).",
      );
    }
    await next();
  };
}

/** On every route that touches keys or money; public reads beside them (recent transactions, the fee preview) go without. */
export const requireSecrets = requireSecretsFor(REQUIRED_SECRETS, "Key and payment");
/** Sign-in and sessions need only SESSION_SECRET (it keys the session-id hashes). */
export const requireSessionSecret = requireSecretsFor(["SESSION_SECRET"], "Sign-in");
