// Which secret seals new records and which secrets may open stored ones, read from the Worker's env.
//
// A rotation without downtime (docs/key-custody.md#rotating-key_encryption_secret): deploy with the new secret as
// KEY_ENCRYPTION_SECRET, the old one as KEY_ENCRYPTION_SECRET_PREVIOUS and KEY_ENCRYPTION_VERSION bumped;
// new records are then sealed under the new secret while old ones still open; `npm run keys:rotate` re-wraps
// the rest; finally the previous secret is deleted.
import { VaultError } from "./errors";
import { assertSecret } from "./keys";
import { INITIAL_KEY_VERSION } from "./vault";

/** The env entries the vault reads (typed structurally: the secrets are not in wrangler.toml). */
export type VaultEnv = {
  KEY_ENCRYPTION_SECRET?: string;
  KEY_ENCRYPTION_SECRET_PREVIOUS?: string;
  KEY_ENCRYPTION_VERSION?: string;
};

/** The secret and version new records are sealed with. */
export function sealingKey(env: VaultEnv): { secret: string; keyVersion: number } {
  const secret = env.KEY_ENCRYPTION_SECRET;
  assertSecret(secret);
  return { secret, keyVersion: parseVersion(env.KEY_ENCRYPTION_VERSION) };
}

/** The secrets a stored record may be sealed under, current first. */
export function openingSecrets(env: VaultEnv): string[] {
  const current = env.KEY_ENCRYPTION_SECRET;
  assertSecret(current);
  const previous = env.KEY_ENCRYPTION_SECRET_PREVIOUS;
  if (previous === undefined || previous === "") return [current];
  assertSecret(previous);
  return [current, previous];
}

function parseVersion(text: string | undefined): number {
  if (text === undefined || text.trim() === "") return INITIAL_KEY_VERSION;
  if (!/^[1-9][0-9]{0,8}$/.test(text.trim())) throw new VaultError("invalid-input");
  return Number(text.trim());
}
