// The vault's only error. Its message is one of a few fixed sentences, so nothing a caller logs or returns
// can ever carry key material, a secret, or the text of an underlying Web Crypto failure.

export type VaultErrorCode =
  /** A caller passed something unusable (short secret, bad listing id, empty or oversized key). */
  | "invalid-input"
  /** The stored record is not well-formed (bad base64, wrong field lengths). */
  | "malformed-record"
  /** The MAC does not verify: tampered, moved to another listing, or sealed under another secret. */
  | "authentication-failed"
  /** A Web Crypto step failed after authentication (should not happen for an authentic record). */
  | "crypto-failure";

const MESSAGES: Record<VaultErrorCode, string> = {
  "invalid-input": "The key vault was called with invalid input",
  "malformed-record": "The encrypted key record is malformed",
  "authentication-failed": "The encrypted key record failed authentication",
  "crypto-failure": "The key vault could not complete the operation",
};

export class VaultError extends Error {
  override readonly name = "VaultError";
  constructor(readonly code: VaultErrorCode) {
    // No `cause`: an underlying error is dropped on purpose so it cannot travel into logs.
    super(MESSAGES[code]);
  }
}
