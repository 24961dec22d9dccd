// Secrets are not in wrangler.toml, so `wrangler types` cannot see them on a fresh clone; declared here, with
// optional settings that have defaults in code.
declare namespace Cloudflare {
  interface Env {
    /** Wraps every listing's private key (envelope encryption, DESIGN §5). At least 32 characters. */
    KEY_ENCRYPTION_SECRET?: string;
    /** Keys the hashing of session ids. At least 32 characters. */
    SESSION_SECRET?: string;
    /** Custom-order quote settings (worker/domain/custom-orders/quote.ts); optional, defaults in QUOTE_DEFAULTS. */
    CUSTOM_ORDER_BASE_PRICE?: string;
    CUSTOM_ORDER_PRICE_PER_BILLION?: string;
    CUSTOM_ORDER_MAX_PRICE?: string;
    CUSTOM_ORDER_MAX_DIFFICULTY_BITS?: string;
    CUSTOM_ORDER_GRIND_RATE?: string;
    /** How long a Worker trusts the listings version it read (edge cache), in ms; default 1000. Tests: 0. */
    LISTINGS_VERSION_TTL_MS?: string;
  }
}
