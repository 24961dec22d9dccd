// Time rules shared by Sign-In with Ethereum and with Solana, so both refuse the same messages.

/** How far a wallet's clock may run ahead of ours when it stamps "Issued At". */
export const ISSUED_AT_SKEW_MS = 5 * 60 * 1000;

/** True when an "Issued At" time is readable and not further ahead of `now` than the allowed skew. */
export function issuedAtIsAcceptable(issuedAt: Date | undefined, now: number): boolean {
  if (issuedAt === undefined) return false;
  const t = issuedAt.getTime();
  return !Number.isNaN(t) && t <= now + ISSUED_AT_SKEW_MS;
}
