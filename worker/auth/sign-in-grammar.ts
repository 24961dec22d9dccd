// The sign-in message grammars, parsed strictly: EIP-4361 (Sign-In with Ethereum) and Sign-In With Solana
// (the ABNF of github.com/phantom/sign-in-with-solana, which `solana:signIn` wallets write), which follows
// EIP-4361's with a base58 address and every field after the address optional. Every line is accounted for, nothing may come before or after, the statement is one
// line of the characters the ABNF allows, URIs are RFC 3986 URIs, dates RFC 3339 date-times and an Ethereum
// address is in its EIP-55 form. Anything else is null.
//
// Why not viem's parseSiweMessage: its pattern is not anchored, so a message with a line appended (or a
// trailing newline, or a second statement line) parsed as the message before it, while the strict parser
// wallets use (siwe / @spruceid/siwe-parser) rejects it, and so shows no domain warning for it.
// sign-in-grammar.test.ts runs one corpus through both and asserts they agree on every message.
import { getAddress } from "viem";
import { SIWS_HEADER_SUFFIX, type SiwsMessageFields } from "../../schema/siws-message";

export type SignInMessage = Omit<SiwsMessageFields, "resources"> & {
  /** SIWE only: the optional "scheme://" before the domain. */
  scheme?: string;
  resources?: string[];
};

// ---- RFC 3986 (the rules EIP-4361 imports) -------------------------------------------------------------

const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCT_ENCODED = "%[0-9A-Fa-f]{2}";
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT_ENCODED})`;
const SEGMENT = `${PCHAR}*`;
const SEGMENT_NZ = `${PCHAR}+`;
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT_ENCODED})*`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT_ENCODED})*`;
// An IP literal's inside is checked by ipLiteralIsValid; the pattern only finds its brackets.
const HOST = `(?:\\[(?<ip>[^\\]]*)\\]|${REG_NAME})`;
const AUTHORITY = `(?:${USERINFO}@)?${HOST}(?::[0-9]*)?`;
const PATH_ABEMPTY = `(?:/${SEGMENT})*`;
const PATH_ABSOLUTE = `/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?`;
const PATH_ROOTLESS = `${SEGMENT_NZ}(?:/${SEGMENT})*`;
const HIER_PART = `(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PATH_ROOTLESS}|)`;
const QUERY = `(?:${PCHAR}|[/?])*`;
const SCHEME = "[A-Za-z][A-Za-z0-9+\\-.]*";

const URI_RE = new RegExp(`^${SCHEME}:${HIER_PART}(?:\\?${QUERY})?(?:#${QUERY})?$`);
const AUTHORITY_RE = new RegExp(`^${AUTHORITY}$`);
const PCHARS_RE = new RegExp(`^${PCHAR}*$`);

const H16 = /^[0-9A-Fa-f]{1,4}$/;
const DEC_OCTET = /^[0-9]{1,3}$/;

function ipv4IsValid(text: string): boolean {
  const parts = text.split(".");
  return parts.length === 4 && parts.every((p) => DEC_OCTET.test(p) && Number(p) <= 255);
}

/** RFC 3986 IPv6address: eight 16-bit groups, or fewer around one "::", the last two may be an IPv4 address. */
function ipv6IsValid(text: string): boolean {
  const halves = text.split("::");
  if (halves.length > 2) return false;
  const groups = (half: string) => (half === "" ? [] : half.split(":"));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const all = [...head, ...tail];
  let count = all.length;
  const last = all[all.length - 1];
  if (last?.includes(".")) {
    if (!ipv4IsValid(last)) return false;
    all.pop();
    count += 1;
  }
  if (!all.every((g) => H16.test(g))) return false;
  return halves.length === 2 ? count <= 7 : count === 8;
}

const IPV_FUTURE = new RegExp(`^[vV][0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+$`);

/** IPv6address / IPvFuture. No IPv6 address holds a "v", so whatever starts like IPvFuture is judged as one. */
function ipLiteralIsValid(inside: string): boolean {
  return IPV_FUTURE.test(inside) || ipv6IsValid(inside);
}

function matchesWithIp(re: RegExp, text: string): boolean {
  const m = re.exec(text);
  if (!m) return false;
  // Stryker disable next-line OptionalChaining: both patterns name a group, so a match always has groups (the ?. is for the type)
  const ip = m.groups?.ip;
  return ip === undefined || ipLiteralIsValid(ip);
}

/** An RFC 3986 URI (absolute: a scheme, then the rest). */
export const isUri = (text: string) => matchesWithIp(URI_RE, text);
/** An RFC 3986 authority: [userinfo "@"] host [":" port]. */
export const isAuthority = (text: string) => matchesWithIp(AUTHORITY_RE, text);

// ---- RFC 3339 date-time -----------------------------------------------------------------------------------

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** An RFC 3339 date-time whose fields are in range (second 60 allowed, as the RFC allows a leap second). */
export function isDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  // "Z" has no offset: read as +00:00.
  const offsetHour = Number(m[7] ?? 0);
  const offsetMinute = Number(m[8] ?? 0);
  return hour <= 23 && minute <= 59 && second <= 60 && offsetHour <= 23 && offsetMinute <= 59;
}

// ---- the fields -------------------------------------------------------------------------------------------

// EIP-4361: statement = *( reserved / unreserved / " " ), one line.
const STATEMENT = /^[A-Za-z0-9 \-._~:/?#[\]@!$&'()*+,;=]+$/;
const NONCE = /^[A-Za-z0-9]{8,}$/;
const ETHEREUM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const SOLANA_CHAIN_IDS = new Set(["mainnet", "testnet", "devnet", "localnet", "solana:mainnet", "solana:testnet", "solana:devnet"]);

type Key = Exclude<keyof SignInMessage, "scheme" | "domain" | "address" | "statement" | "resources">;
type Field = { label: string; key: Key; valid: (value: string) => boolean };

const URI_FIELD: Field = { label: "URI", key: "uri", valid: isUri };
const VERSION_FIELD: Field = { label: "Version", key: "version", valid: (v) => v === "1" };
const NONCE_FIELD: Field = { label: "Nonce", key: "nonce", valid: (v) => NONCE.test(v) };
const ISSUED_AT_FIELD: Field = { label: "Issued At", key: "issuedAt", valid: isDateTime };
const TAIL_FIELDS: Field[] = [
  { label: "Expiration Time", key: "expirationTime", valid: isDateTime },
  { label: "Not Before", key: "notBefore", valid: isDateTime },
  { label: "Request ID", key: "requestId", valid: (v) => PCHARS_RE.test(v) },
];

/**
 * Reads `lines[i...]` as fields in the given order, each optional or required, then an optional resource
 * list; true only when every line was consumed.
 */
function readFields(lines: string[], i: number, fields: { field: Field; required: boolean }[], out: SignInMessage): boolean {
  for (const { field, required } of fields) {
    const prefix = `${field.label}: `;
    const line = lines[i];
    if (line?.startsWith(prefix)) {
      const value = line.slice(prefix.length);
      if (!field.valid(value)) return false;
      out[field.key] = value;
      i++;
    } else if (required) return false;
  }
  if (lines[i] === "Resources:") {
    out.resources = [];
    for (i++; i < lines.length; i++) {
      const line = lines[i];
      if (!line.startsWith("- ") || !isUri(line.slice(2))) return false;
      out.resources.push(line.slice(2));
    }
  }
  return i === lines.length;
}

const SIWE_HEADER = new RegExp(`^(?:(?<scheme>${SCHEME})://)?(?<domain>[^ ]*) wants you to sign in with your Ethereum account:$`);

/**
 * EIP-4361, strictly. The header, the EIP-55 address, an empty line, an optional statement line (or an empty
 * one) and an empty line, then URI, Version, Chain ID, Nonce, Issued At in that order, then Expiration Time,
 * Not Before, Request ID and Resources where present, and nothing after.
 */
export function parseSiwe(text: string): SignInMessage | null {
  const lines = text.split("\n");
  const header = SIWE_HEADER.exec(lines[0])?.groups;
  if (!header) return null;
  const { scheme, domain } = header;
  // Stryker disable next-line StringLiteral: a missing address line fails the address pattern whatever it stands for
  const address = lines[1] ?? "";
  if (!isAuthority(domain) || !ETHEREUM_ADDRESS.test(address) || getAddress(address) !== address) return null;
  const out: SignInMessage = { domain, address };
  if (scheme !== undefined) out.scheme = scheme;
  if (lines[2] !== "") return null;
  let i: number;
  if (lines[3] === "") {
    // "\n\n\n" before URI: no statement; "\n\n\n\n": an empty one.
    if (lines[4] === "") {
      out.statement = "";
      i = 5;
    } else i = 4;
  } else {
    // Stryker disable next-line ConditionalExpression: with no line 3 there is no line 4 either, which the next check refuses
    if (lines[3] === undefined) return null;
    if (!STATEMENT.test(lines[3]) || lines[4] !== "") return null;
    out.statement = lines[3];
    i = 5;
  }
  const ok = readFields(
    lines,
    i,
    [
      { field: URI_FIELD, required: true },
      { field: VERSION_FIELD, required: true },
      { field: { label: "Chain ID", key: "chainId", valid: (v) => /^[0-9]+$/.test(v) }, required: true },
      { field: NONCE_FIELD, required: true },
      { field: ISSUED_AT_FIELD, required: true },
      ...TAIL_FIELDS.map((field) => ({ field, required: false })),
    ],
    out,
  );
  return ok ? out : null;
}

/** Does this line open the advanced fields rather than hold a statement? (The SIWS ABNF leaves it open.) */
const isFieldLine = (line: string) =>
  line === "Resources:" ||
  [URI_FIELD, VERSION_FIELD, NONCE_FIELD, ISSUED_AT_FIELD, ...TAIL_FIELDS].some((f) => line.startsWith(`${f.label}: `)) ||
  line.startsWith("Chain ID: ");

/**
 * Sign-In With Solana, strictly (the Wallet Standard's ABNF): the header, the base58 address, then an optional
 * statement after an empty line, then after an empty line the fields in their order (each optional), and
 * nothing after. A field line cannot be a statement: "URI: ..." right after the empty line is the URI.
 */
export function parseSiws(text: string): SignInMessage | null {
  const lines = text.split("\n");
  const header = lines[0];
  if (!header.endsWith(SIWS_HEADER_SUFFIX)) return null;
  const domain = header.slice(0, -SIWS_HEADER_SUFFIX.length);
  // Stryker disable next-line StringLiteral: a missing address line fails the address pattern whatever it stands for
  const address = lines[1] ?? "";
  if (!domain || !isAuthority(domain) || !SOLANA_ADDRESS.test(address)) return null;
  const out: SignInMessage = { domain, address };
  let i = 2;
  if (i === lines.length) return out;
  if (lines[i] !== "" || i + 1 === lines.length) return null;
  i++;
  if (!isFieldLine(lines[i])) {
    if (!STATEMENT.test(lines[i])) return null;
    out.statement = lines[i];
    i++;
    if (i === lines.length) return out;
    // Fields after a statement need their own empty line (and at least one field: the check at the end).
    if (lines[i] !== "") return null;
    i++;
  }
  const ok = readFields(
    lines,
    i,
    [
      URI_FIELD,
      VERSION_FIELD,
      { label: "Chain ID", key: "chainId", valid: (v: string) => SOLANA_CHAIN_IDS.has(v) } satisfies Field,
      NONCE_FIELD,
      ISSUED_AT_FIELD,
      ...TAIL_FIELDS,
    ].map((field) => ({ field, required: false })),
    out,
  );
  // The fields section, once opened, holds at least one field.
  return ok && lines.length > i ? out : null;
}
