// Secrets are not in wrangler.toml, so `wrangler types` cannot see them on a fresh clone; declared here, with
// optional settings that have defaults in code.
declare namespace Cloudflare {
  interface Env {
    /** Wraps every listing's private key (envelope encryption, docs/key-custody.md). At least 32 characters. */
    KEY_ENCRYPTION_SECRET?: string;
    /** Keys the hashing of session ids. At least 32 characters. */
    SESSION_SECRET?: string;
    /**
     * Optional: where alerts are POSTed (JSON with a Slack-compatible `text` field; worker/operations/alerts.ts).
     * Unset: no alerts are sent (incidents are still recorded). A secret: a Slack webhook URL carries its token.
     */
    ALERT_WEBHOOK_URL?: string;
    /**
     * Optional: contract wallets (ERC-1271 / ERC-6492) that may be admins, comma-separated, each also in ADMIN_WALLETS or
     * marked admin. Unset: an admin signs in only with a signature that recovers to its address (docs/sign-in.md#contract-wallets).
     */
    ADMIN_CONTRACT_WALLETS?: string;
    /** How long a Worker trusts the listings version it read (edge cache), in ms; default 1000. Tests: 0. */
    LISTINGS_VERSION_TTL_MS?: string;
  }
}
