// Vanity patterns are ASCII: base58 for Solana, hex for Ethereum. A character outside ASCII can look like one
// of those letters (fullwidth 'ａ', Cyrillic 'а') or turn into one under case folding ('ſ' upper-cases to 'S',
// the Kelvin sign 'K' lower-cases to 'k'), so a reader that folds case before checking the alphabet would accept
// it as a letter it is not. Every pattern reader refuses such characters by name, with their code point.

/** A character as a message names it: quoted, with its code point when it is not printable ASCII ("ſ" (U+017F)). */
export function describeChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  const quoted = JSON.stringify(c);
  return code >= 0x20 && code < 0x7f ? quoted : `${quoted} (U+${code.toString(16).toUpperCase().padStart(4, "0")})`;
}

/** Is this one character (one code point) ASCII? */
export function isAsciiChar(c: string): boolean {
  return c.length === 1 && c.charCodeAt(0) < 0x80;
}

/** The distinct characters of `s` outside ASCII, in order of first appearance. */
export function nonAsciiChars(s: string): string[] {
  return [...new Set([...s].filter((c) => !isAsciiChar(c)))];
}
