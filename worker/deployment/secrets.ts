// The secrets a deployment must have (docs/configuration.md#secrets). Key and payment routes refuse to run without their secrets, so a misconfigured
// deployment fails loudly instead of encrypting keys under an empty secret.
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../http/errors";
import type { AppEnv } from "../types";

export const REQUIRED_SECRETS = ["KEY_ENCRYPTION_SECRET", "SESSION_SECRET"] as const;
export type RequiredSecret = (typeof REQUIRED_SECRETS)[number];
const MIN_SECRET_LENGTH = 32;

/** Names of required secrets that are missing or too short to be real. */
export function missingSecrets(env: Partial<Record<RequiredSecret, string | undefined>>): RequiredSecret[] {
  return REQUIRED_SECRETS.filter((name) => (env[name]?.length ?? 0) < MIN_SECRET_LENGTH);
}

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
