// The key vault's public surface. See vault.ts for the record format and docs/key-custody.md for the rules.
export { VaultError, type VaultErrorCode } from "./errors";
export { openingSecrets, sealingKey, type VaultEnv } from "./keyring";
export { MIN_SECRET_LENGTH } from "./keys";
export {
  type EncryptedKeyRecord,
  isSealedUnder,
  openKey,
  rewrapKey,
  sealKey,
} from "./vault";
