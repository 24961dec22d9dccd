// The secrets a deployment must have (docs/configuration.md#secrets), and which are missing. Key and payment routes
// refuse to run without theirs (deployment/middleware.ts), so a misconfigured deployment fails loudly instead of
// encrypting keys under an empty secret.

export const REQUIRED_SECRETS = ["KEY_ENCRYPTION_SECRET", "SESSION_SECRET"] as const;
export type RequiredSecret = (typeof REQUIRED_SECRETS)[number];
export const MIN_SECRET_LENGTH = 32;

/** Names of required secrets that are missing or too short to be real. */
export function missingSecrets(env: Partial<Record<RequiredSecret, string | undefined>>): RequiredSecret[] {
  return REQUIRED_SECRETS.filter((name) => (env[name]?.length ?? 0) < MIN_SECRET_LENGTH);
}
