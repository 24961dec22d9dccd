// The project's EIP-4361 parser against @spruceid/siwe-parser 3.0 (the strict ABNF parser behind siwe, which
// wallets use to recognise a sign-in request): one corpus of messages, and for every message both must agree
// on accept or reject, and on every field when they accept. Then the SIWS grammar, case by case against the
// Solana Wallet Standard's ABNF, and round trips through every SIWS writer in the project.
import { ParsedMessage } from "@spruceid/siwe-parser";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import { signInText as devWalletSignInText } from "../../web/src/wallet/dev/solana-dev-wallet";
import { isDateTime, isUri, parseSiwe, parseSiws, type SignInMessage } from "./sign-in-grammar";
import { buildSiwsMessage } from "./siws";

const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const ADDRESS = account.address;
const STATEMENT = "Sign in to Vanity Addresses. This request costs nothing and sends no transaction.";
const NONCE = "0123456789abcdef0123456789abcdef";

const base = {
  scheme: "https",
  domain: "vanity.example",
  address: ADDRESS,
  statement: STATEMENT,
  uri: "https://vanity.example",
  version: "1" as const,
  chainId: 1,
  nonce: NONCE,
  issuedAt: new Date("2026-11-23T10:00:00.000Z"),
  expirationTime: new Date("2026-11-23T10:10:00.000Z"),
};
const message = (over: Partial<Parameters<typeof createSiweMessage>[0]> = {}) => createSiweMessage({ ...base, ...over });
const server = message();

/** Messages both parsers must accept: the server's and the valid variations EIP-4361 allows. */
const VALID: [string, string][] = [
  ["the server's message", server],
  ["no statement", message({ statement: undefined })],
  ["an explicitly empty statement", server.replace(`\n${STATEMENT}\n`, "\n\n")],
  ["no expiration time", message({ expirationTime: undefined })],
  ["not before", message({ notBefore: new Date("2026-11-23T10:01:00.000Z") })],
  ["a request id", message({ requestId: "req-42_~!$&'()*+,;=:@%20" })],
  ["an empty request id", `${server}\nRequest ID: `],
  [
    "resources",
    message({
      resources: [
        "https://vanity.example/terms",
        "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
        "urn:uuid:0b6b6c5a-6a4c-4d5a-8b0e-5b3f0b1c2d3e",
      ],
    }),
  ],
  ["an empty resource list", `${server}\nResources:`],
  ["every optional field", message({ notBefore: new Date("2026-11-23T10:01:00.000Z"), requestId: "abc", resources: ["https://a.example/x?y=1#z"] })],
  ["no scheme", message({ scheme: undefined })],
  ["an http scheme and a port", message({ scheme: "http", domain: "localhost:8787", uri: "http://localhost:8787" })],
  ["an IPv4 domain", message({ domain: "127.0.0.1:8787", uri: "http://127.0.0.1:8787/" })],
  ["an IPv6 URI", message({ uri: "http://[::1]:8787/sign-in" })],
  ["a full IPv6 URI", message({ uri: "http://[2001:db8:0:0:0:0:2:1]/" })],
  ["an IPv4-in-IPv6 URI", message({ uri: "http://[::ffff:192.0.2.128]/" })],
  ["a URI with userinfo, path, query and fragment", message({ uri: "https://user:pw@vanity.example/a/b%20c?x=1&y=/?#frag" })],
  ["a URN as the URI", message({ uri: "urn:isbn:0451450523" })],
  ["a chain id with many digits", message({ chainId: 11155111 })],
  ["a long nonce", message({ nonce: "A1b2C3d4E5f6G7h8I9j0".repeat(5) })],
  ["a time with an offset and fractional seconds", server.replace("Issued At: 2026-11-23T10:00:00.000Z", "Issued At: 2026-11-23T12:00:00.123456+02:00")],
  ["lower-case t and z", server.replace("Issued At: 2026-11-23T10:00:00.000Z", "Issued At: 2026-11-23t10:00:00z")],
  ["a leap day", server.replace("Issued At: 2026-11-23T10:00:00.000Z", "Issued At: 2028-02-29T10:00:00Z")],
  ["a statement of every allowed punctuation", message({ statement: "A-z 0.9 _~:/?#[]@!$&'()*+,;=" })],
  ["an address with no letters", message({ address: "0x1234567890123456789012345678901234567890" })],
];

const swapCase = (ch: string) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase());

/** Messages both must reject: the nine first, then the rest of the grammar's edges. */
const INVALID: [string, string][] = [
  ["a trailing newline", `${server}\n`],
  ["a line after the last field", `${server}\nIgnore the above: this is not a sign-in.`],
  ["an extra line between the statement and the URI", server.replace("\n\nURI: ", "\n\nThe statement above is only the start.\nURI: ")],
  ["a multi-line statement", server.replace(STATEMENT, `${STATEMENT}\nSecond line.`)],
  ["a non-ASCII statement", server.replace(STATEMENT, "Sign in — free")],
  ["a resource that is not a URI", `${server}\nResources:\n- not a uri`],
  ["a lower-case address", server.replace(ADDRESS, ADDRESS.toLowerCase())],
  ["an upper-case address", server.replace(ADDRESS, `0x${ADDRESS.slice(2).toUpperCase()}`)],
  ["an address with one letter's case flipped", server.replace(ADDRESS, ADDRESS.replace(/[a-fA-F]/, swapCase))],
  // The rest of the grammar.
  ["an empty message", ""],
  ["text before the header", `Hello\n${server}`],
  ["CRLF line ends", server.replace(/\n/g, "\r\n")],
  ["a Solana header", server.replace("Ethereum account", "Solana account")],
  ["a space in the domain", server.replace("vanity.example wants", "vanity .example wants")],
  ["no empty line after the address", server.replace(`${ADDRESS}\n\n`, `${ADDRESS}\n`)],
  ["three empty lines around the statement", server.replace(`\n\n${STATEMENT}\n\n`, `\n\n\n${STATEMENT}\n\n`)],
  ["a statement with a double quote", message({ statement: 'Say "yes"' })],
  ["a statement with a percent sign", message({ statement: "100% free" })],
  ["a statement with angle brackets", message({ statement: "<b>Sign in</b>" })],
  ["a missing Version", server.replace("Version: 1\n", "")],
  ["Version 2", server.replace("Version: 1", "Version: 2")],
  ["a short nonce", server.replace(`Nonce: ${NONCE}`, "Nonce: abc123")],
  ["a nonce with a dash", server.replace(`Nonce: ${NONCE}`, "Nonce: 0123-4567-89ab")],
  ["a chain id that is not a number", server.replace("Chain ID: 1", "Chain ID: one")],
  ["an impossible date", server.replace("2026-11-23T10:00:00.000Z", "2026-02-30T10:00:00.000Z")],
  ["month 13", server.replace("2026-11-23T10:00:00.000Z", "2026-13-01T10:00:00.000Z")],
  ["hour 24", server.replace("2026-11-23T10:00:00.000Z", "2026-11-23T24:00:00.000Z")],
  ["a date without a time zone", server.replace("2026-11-23T10:00:00.000Z", "2026-11-23T10:00:00")],
  ["a date, not a date-time", server.replace("2026-11-23T10:00:00.000Z", "2026-11-23")],
  ["fields out of order", server.replace(`Version: 1\nChain ID: 1`, `Chain ID: 1\nVersion: 1`)],
  ["a repeated field", server.replace(`Nonce: ${NONCE}`, `Nonce: ${NONCE}\nNonce: ${NONCE}`)],
  ["optional fields out of order", message({ notBefore: new Date("2026-11-23T10:01:00.000Z") }).replace(/(Expiration Time: .*)\n(Not Before: .*)/, "$2\n$1")],
  ["an unknown field", server.replace("Chain ID: 1\n", "Chain ID: 1\nColour: blue\n")],
  ["a URI without a scheme", server.replace("URI: https://vanity.example", "URI: vanity.example/path")],
  ["a URI with a space", server.replace("URI: https://vanity.example", "URI: https://vanity.example/a b")],
  ["a URI with a bad percent escape", server.replace("URI: https://vanity.example", "URI: https://vanity.example/%zz")],
  ["a URI with a bad IPv6 literal", server.replace("URI: https://vanity.example", "URI: http://[1:2:3]/")],
  ["a resource without its dash", `${server}\nResources:\nhttps://vanity.example/terms`],
  ["a resource then something else", `${server}\nResources:\n- https://vanity.example/terms\nIgnore the above.`],
  ["a request id with a space", `${server}\nRequest ID: two words`],
  ["a short address", server.replace(ADDRESS, ADDRESS.slice(0, 41))],
  ["a label with no space after it", server.replace("Version: 1", "Version:1")],
  // Each required field missing (Version above).
  ["a missing URI", server.replace("URI: https://vanity.example\n", "")],
  ["a missing Chain ID", server.replace("Chain ID: 1\n", "")],
  ["a missing Nonce", server.replace(`Nonce: ${NONCE}\n`, "")],
  ["a missing Issued At", server.replace(/Issued At: .*\n/, "")],
  // Every field's pattern holds the whole value: junk before or after it is refused.
  ["a line in place of the empty line after the statement", server.replace(`${STATEMENT}\n\n`, `${STATEMENT}\nAnd more.\n`)],
  ["junk before the address", server.replace(ADDRESS, `x${ADDRESS}`)],
  ["junk after the address", server.replace(ADDRESS, `${ADDRESS}0`)],
  ["junk before the nonce", server.replace(`Nonce: ${NONCE}`, `Nonce: -${NONCE}`)],
  ["junk after the nonce", server.replace(`Nonce: ${NONCE}`, `Nonce: ${NONCE}-`)],
  ["junk before the chain id", server.replace("Chain ID: 1", "Chain ID: x1")],
  ["junk after the chain id", server.replace("Chain ID: 1", "Chain ID: 1x")],
];

/** What siwe-parser reads, in this parser's shape, or null when it throws. */
function spruce(text: string): SignInMessage | null {
  let p: ParsedMessage;
  try {
    p = new ParsedMessage(text);
  } catch {
    return null;
  }
  const out: SignInMessage = { domain: p.domain, address: p.address };
  if (p.scheme !== undefined) out.scheme = p.scheme;
  if (p.statement !== undefined) out.statement = p.statement;
  const fields = {
    uri: p.uri,
    version: p.version,
    nonce: p.nonce,
    issuedAt: p.issuedAt,
    expirationTime: p.expirationTime,
    notBefore: p.notBefore,
    requestId: p.requestId,
  };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  out.chainId = String(p.chainId);
  if (p.resources !== undefined) out.resources = p.resources;
  return out;
}

describe("EIP-4361: this parser and @spruceid/siwe-parser agree on every message", () => {
  for (const [name, text] of VALID) {
    it(`both accept ${name}, with the same fields`, () => {
      const theirs = spruce(text);
      expect(theirs, "siwe-parser").not.toBeNull();
      const ours = parseSiwe(text);
      expect(ours).not.toBeNull();
      // Strictly: a field the message leaves out (the scheme, say) is absent, not present as undefined.
      expect({ ...ours, chainId: String(Number(ours!.chainId)) }).toStrictEqual(theirs);
    });
  }
  for (const [name, text] of INVALID) {
    it(`both reject ${name}`, () => {
      expect(spruce(text), "siwe-parser").toBeNull();
      expect(parseSiwe(text)).toBeNull();
    });
  }

  it("agrees with siwe-parser's URI rule on resources", () => {
    const uris = [
      "https://a.example",
      "https://a.example:/",
      "mailto:someone@a.example",
      "did:pkh:eip155:1:0xabc",
      "a+b-c.d://x",
      "x:",
      "https://[v1.fe80::a+en1]/",
      "http://[::]/",
      "http://[1:2:3:4:5:6:7:8]/",
      "http://[1:2:3:4:5:6:7:8:9]/",
      "http://[::1::2]/",
      "http://[1::2:3:4:5:6:7]/",
      "http://[::1.2.3.256]/",
      "1https://a.example",
      "https://a.example/é",
      "https://a.example/{x}",
      "https://a.example/|",
      "https://a.example/\\",
      "https://a.example/^",
      "https://a.example#a#b",
      "",
      // An absolute path with no authority.
      "x:/a",
      "x:/a/b",
      // IPv6: each group one to four hex digits, at most one "::", eight groups without it and at most seven with.
      "http://[g1::1]/",
      "http://[1g::1]/",
      "http://[1:2:3:4::5:6:7:8::9]/",
      "http://[1:2:3:4:5:6:7:8::1::2]/",
      "http://[1:2:3:4:5:6:7:zzzz]/",
      "http://[1::2:3:4:5:6:7:8]/",
      // An IPv4 tail counts as two groups, has four decimal octets of at most 255, and nothing else.
      "http://[1:2:3:4:5:6:1.2.3.4]/",
      "http://[1:2:3:4:5:6:7:1.2.3.4]/",
      "http://[::ffff:255.255.255.255]/",
      "http://[::ffff:256.255.255.255]/",
      "http://[::ffff:1.2.3.4.5]/",
      "http://[::ffff:0x1.2.3.4]/",
      "http://[::ffff:1e2.2.3.4]/",
      // IPvFuture: "v", hex digits, ".", then unreserved, sub-delims or ":" only, and only at the start.
      "https://[v12.x]/",
      "https://[V1F.a:b]/",
      "https://[v1.a b]/",
      "https://[v.x]/",
      "https://[v1.]/",
      "http://[1:v1.x]/",
    ];
    for (const uri of uris) {
      const text = `${server}\nResources:\n- ${uri}`;
      expect(parseSiwe(text) !== null, uri).toBe(spruce(text) !== null);
      expect(isUri(uri), uri).toBe(spruce(text) !== null);
    }
  });

  it("agrees on dates across the calendar", () => {
    const dates = [
      "2024-02-29T00:00:00Z",
      "2023-02-29T00:00:00Z",
      "1900-02-29T00:00:00Z",
      "2000-02-29T00:00:00Z",
      "2026-04-31T00:00:00Z",
      "2026-12-31T23:59:60Z",
      "2026-12-31T23:60:00Z",
      "2026-01-01T00:00:00+24:00",
      "2026-01-01T00:00:00-23:59",
      "2026-01-01T00:00:00.Z",
      "2026-00-10T00:00:00Z",
      "2026-11-00T00:00:00Z",
      "2026-11-23T10:00:61Z",
      "2026-11-23T10:00:00+01:60",
      "2026-11-23T10:00:00+23:59",
      "2026-11-23T23:59:59-00:00",
      "x2026-11-23T10:00:00Z",
      "2026-11-23T10:00:00Zx",
    ];
    for (const date of dates) {
      const text = server.replace("2026-11-23T10:00:00.000Z", date);
      expect(parseSiwe(text) !== null, date).toBe(spruce(text) !== null);
      expect(isDateTime(date), date).toBe(spruce(text) !== null);
    }
  });
});

describe("Sign-In With Solana: the Wallet Standard's ABNF", () => {
  const address = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";
  const fields: SignInMessage = {
    domain: "vanity.example",
    address,
    statement: STATEMENT,
    uri: "https://vanity.example",
    version: "1",
    nonce: NONCE,
    issuedAt: "2026-11-23T10:00:00.000Z",
    expirationTime: "2026-11-23T10:10:00.000Z",
  };
  const text = buildSiwsMessage(fields);

  it("reads back what every SIWS writer in the project writes: the server, the dev wallet, all fields", () => {
    expect(parseSiws(text)).toEqual(fields);
    expect(devWalletSignInText(fields, address, "ignored.example")).toBe(text);
    const full = {
      ...fields,
      chainId: "solana:devnet",
      notBefore: "2026-11-23T10:00:30.000Z",
      requestId: "r1",
      resources: ["https://vanity.example/terms", "ipfs://bafy"],
    };
    expect(parseSiws(buildSiwsMessage(full))).toEqual(full);
    expect(parseSiws(devWalletSignInText(full, address, "x"))).toEqual(full);
  });

  it("accepts the minimal message, a statement alone, and fields without a statement", () => {
    expect(parseSiws(`vanity.example wants you to sign in with your Solana account:\n${address}`)).toEqual({ domain: "vanity.example", address });
    expect(parseSiws(buildSiwsMessage({ domain: "vanity.example", address, statement: "Hi." }))).toEqual({
      domain: "vanity.example",
      address,
      statement: "Hi.",
    });
    const { statement: _, ...noStatement } = fields;
    expect(parseSiws(buildSiwsMessage(noStatement))).toEqual(noStatement);
  });

  it("accepts each chain id the standard names, and a fields section that opens with Chain ID or Resources", () => {
    const head = `vanity.example wants you to sign in with your Solana account:\n${address}`;
    for (const chainId of ["mainnet", "testnet", "devnet", "localnet", "solana:mainnet", "solana:testnet", "solana:devnet"])
      expect(parseSiws(`${head}\n\nChain ID: ${chainId}`), chainId).toStrictEqual({ domain: "vanity.example", address, chainId });
    expect(parseSiws(`${head}\n\nResources:\n- https://vanity.example/terms`)).toStrictEqual({
      domain: "vanity.example",
      address,
      resources: ["https://vanity.example/terms"],
    });
  });

  const refused: [string, string][] = [
    ["a trailing newline", `${text}\n`],
    ["a line appended", `${text}\nIgnore the above: this is not a sign-in.`],
    ["a second statement line", text.replace(STATEMENT, `${STATEMENT}\nAnd more.`)],
    ["a non-ASCII statement", text.replace("Sign in", "Sign in — free")],
    ["a resource that is not a URI", `${text}\nResources:\n- not a uri`],
    ["an address that is not base58", text.replace(address, `${address.slice(0, -1)}0`)],
    ["a short address", text.replace(address, address.slice(0, 31))],
    ["an Ethereum header", text.replace("Solana account", "Ethereum account")],
    ["a scheme before the domain", `https://${text}`],
    ["a chain id the standard does not name", text.replace("\nNonce:", "\nChain ID: 1\nNonce:")],
    ["a short nonce", text.replace(`Nonce: ${NONCE}`, "Nonce: abc")],
    ["Version 2", text.replace("Version: 1", "Version: 2")],
    ["fields out of order", text.replace(/(Version: 1)\n(Nonce: .*)/, "$2\n$1")],
    ["a repeated field", text.replace(`Nonce: ${NONCE}`, `Nonce: ${NONCE}\nNonce: ${NONCE}`)],
    ["an unknown field", text.replace("\nNonce:", "\nColour: blue\nNonce:")],
    ["an impossible date", text.replace("2026-11-23T10:00:00.000Z", "2026-02-30T10:00:00.000Z")],
    ["an empty line after the address and nothing else", `vanity.example wants you to sign in with your Solana account:\n${address}\n`],
    ["an empty fields section after the statement", `vanity.example wants you to sign in with your Solana account:\n${address}\n\nHi.\n`],
    ["no empty line before the fields", text.replace(`${STATEMENT}\n\n`, `${STATEMENT}\n`)],
    ["CRLF line ends", text.replace(/\n/g, "\r\n")],
    ["a chain id the standard does not name (solana:localnet)", text.replace("\nNonce:", "\nChain ID: solana:localnet\nNonce:")],
    ["a header with its colon changed", text.replace("Solana account:", "Solana account.")],
    ["a header and no address", "vanity.example wants you to sign in with your Solana account:"],
    ["a character before the address", text.replace(address, `1${address}`)],
    ["no empty line after the address", `vanity.example wants you to sign in with your Solana account:\n${address}\nHi.`],
    ["a line in place of the empty line after the address", `vanity.example wants you to sign in with your Solana account:\n${address}\nJunk.\nHi.`],
  ];
  for (const [name, t] of refused) {
    it(`refuses ${name}`, () => {
      expect(parseSiws(t)).toBeNull();
    });
  }
});
