// The Sign-In With Solana message text, written once: the Worker writes the message it issues with it
// (worker/auth/siws.ts) and the local dev wallet signs what it writes (web/src/wallet/dev/solana-dev-wallet.ts),
// in the layout and field order the Wallet Standard's `solana:signIn` wallets use (EIP-4361's, with "Solana
// account"). The Worker parses what comes back strictly (worker/auth/sign-in-grammar.ts).

/** The fields of a sign-in message (SIWS, and SIWE's too); the domain and address head it, the rest appear only when set. */
export type SiwsMessageFields = {
  domain: string;
  address: string;
  /** Absent when the message has none; "" for SIWE's explicitly empty statement. */
  statement?: string;
  uri?: string;
  version?: string;
  chainId?: string;
  nonce?: string;
  issuedAt?: string;
  expirationTime?: string;
  notBefore?: string;
  requestId?: string;
  resources?: readonly string[];
};

export const SIWS_HEADER_SUFFIX = " wants you to sign in with your Solana account:";

const FIELDS: [label: string, key: Exclude<keyof SiwsMessageFields, "domain" | "address" | "statement" | "resources">][] = [
  ["URI", "uri"],
  ["Version", "version"],
  ["Chain ID", "chainId"],
  ["Nonce", "nonce"],
  ["Issued At", "issuedAt"],
  ["Expiration Time", "expirationTime"],
  ["Not Before", "notBefore"],
  ["Request ID", "requestId"],
];

/** The message text, in the field order `solana:signIn` wallets use. */
export function siwsMessageText(m: SiwsMessageFields): string {
  let text = `${m.domain}${SIWS_HEADER_SUFFIX}\n${m.address}`;
  if (m.statement) text += `\n\n${m.statement}`;
  const lines: string[] = [];
  for (const [label, key] of FIELDS) {
    const value = m[key];
    if (typeof value === "string" && value) lines.push(`${label}: ${value}`);
  }
  if (m.resources?.length) lines.push("Resources:", ...m.resources.map((r) => `- ${r}`));
  if (lines.length) text += `\n\n${lines.join("\n")}`;
  return text;
}
