// checkSiws (siws.ts) in plain Node, so that `npm run test:mutation` can mutate Solana's sign-in: each refusal with
// its own reason and in its order (site, times, the issued text and the nonce, the signing account, then the
// Ed25519 signature), with keys made by Web Crypto. The routes around it run in workerd in worker/test/auth*.test.ts.
import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { ISSUED_AT_SKEW_MS } from "./clock";
import { parseSiws, type SignInMessage } from "./sign-in-grammar";
import { parseSiteOrigin } from "./site";
import { buildSiwsMessage, checkSiws, signInFields, verifyEd25519, withAddressLeftOut } from "./siws";

const site = parseSiteOrigin("https://vanity.example")!;
const NOW = Date.UTC(2026, 11, 7, 12);
const NONCE = "a1b2c3d4e5f6a7b8";

type Signer = { address: string; sign: (data: Uint8Array) => Promise<string> };

async function newSigner(): Promise<Signer> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  return {
    address: base58.encode(raw),
    sign: async (data) => base58.encode(new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, pair.privateKey, data))),
  };
}

const wallet = await newSigner();
const stranger = await newSigner();

function message(over: Partial<{ issuedAt: number; expiresAt: number; address: string }> = {}, at = site): string {
  const fields = signInFields(at, { address: wallet.address, nonce: NONCE, issuedAt: NOW - 1000, expiresAt: NOW + 600_000, ...over });
  return buildSiwsMessage(fields as SignInMessage);
}

type CheckOptions = {
  signer?: Signer;
  signature?: string;
  claim?: string | null;
  claimedAddress?: string;
  now?: number;
  parsed?: (p: SignInMessage) => SignInMessage;
};

async function check(text: string, opts: CheckOptions = {}) {
  const claimed: (readonly string[])[] = [];
  const parsed = parseSiws(text);
  if (!parsed) throw new Error(`the grammar refused the test's own message:\n${text}`);
  const result = await checkSiws(site, {
    text,
    parsed: opts.parsed ? opts.parsed(parsed) : parsed,
    claim: async (texts) => {
      claimed.push(texts);
      return opts.claim ?? null;
    },
    signature: opts.signature ?? (await (opts.signer ?? wallet).sign(new TextEncoder().encode(text))),
    ...(opts.claimedAddress !== undefined ? { claimedAddress: opts.claimedAddress } : {}),
    now: opts.now ?? NOW,
  });
  return { result, claimed };
}

describe("checkSiws", () => {
  it("the wallet's own signature signs in, the nonce claimed once for the signed text and the text with its address left out", async () => {
    const text = message();
    const { result, claimed } = await check(text, { claimedAddress: wallet.address });
    expect(result).toEqual({ ok: true, address: wallet.address });
    expect(claimed).toEqual([[text, withAddressLeftOut(text)]]);
  });

  it("a stranger's signature over the wallet's message is refused after the nonce is used up", async () => {
    const { result, claimed } = await check(message(), { signer: stranger });
    expect(result).toEqual({ ok: false, reason: "signature does not match" });
    expect(claimed).toHaveLength(1);
  });

  it("a signature that is not base58 or has the wrong length is refused, not thrown", async () => {
    for (const signature of ["0OIl", "", base58.encode(new Uint8Array(63))])
      expect((await check(message(), { signature })).result).toEqual({ ok: false, reason: "signature does not match" });
  });

  it("a message for another site or URI is refused before the nonce is claimed", async () => {
    const other = parseSiteOrigin("https://evil.example")!;
    const elsewhere = await check(message({}, other));
    expect(elsewhere).toEqual({ result: { ok: false, reason: "message is for another domain" }, claimed: [] });
    const uri = await check(message(), { parsed: (p) => ({ ...p, uri: "https://evil.example/" }) });
    expect(uri).toEqual({ result: { ok: false, reason: "message URI is for another site" }, claimed: [] });
    const none = await check(message(), { parsed: (p) => ({ ...p, uri: undefined }) });
    expect(none.result).toEqual({ ok: false, reason: "message URI is for another site" });
  });

  it("times: no or a bad expiry, an expiry at or before now, an issue time out of the clock's bounds, a future not-before", async () => {
    expect((await check(message(), { parsed: (p) => ({ ...p, expirationTime: undefined }) })).result.ok).toBe(false);
    expect((await check(message(), { parsed: (p) => ({ ...p, expirationTime: "soon" }) })).result).toEqual({
      ok: false,
      reason: "message has no valid expiration time",
    });
    expect((await check(message({ expiresAt: NOW }))).result).toEqual({ ok: false, reason: "message has expired" });
    expect((await check(message({ expiresAt: NOW + 1 }))).result.ok).toBe(true);
    expect((await check(message({ issuedAt: NOW + ISSUED_AT_SKEW_MS + 60_000 }))).result).toEqual({ ok: false, reason: "message has no valid issue time" });
    expect((await check(message(), { parsed: (p) => ({ ...p, issuedAt: undefined }) })).result).toEqual({
      ok: false,
      reason: "message has no valid issue time",
    });
    const later = new Date(NOW + 60_000).toISOString();
    expect((await check(message(), { parsed: (p) => ({ ...p, notBefore: later }) })).result).toEqual({ ok: false, reason: "message is not valid yet" });
    expect((await check(message(), { parsed: (p) => ({ ...p, notBefore: new Date(NOW).toISOString() }) })).result.ok).toBe(true);
    const earlier = new Date(NOW - 60_000).toISOString();
    expect((await check(message(), { parsed: (p) => ({ ...p, notBefore: earlier }) })).result.ok).toBe(true);
  });

  it("a text the server did not issue for the nonce (or a used nonce) is refused with the claim's reason, before the signature", async () => {
    const { result } = await check(message(), { claim: "nonce is unknown or used", signer: stranger });
    expect(result).toEqual({ ok: false, reason: "nonce is unknown or used" });
  });

  it("a signing account other than the message's address is refused", async () => {
    const { result } = await check(message(), { claimedAddress: stranger.address });
    expect(result).toEqual({ ok: false, reason: "signing account differs from the message's address" });
  });
});

describe("verifyEd25519", () => {
  it("holds a signature to its key and data; a key that is not 32 bytes or not on the curve verifies nothing", async () => {
    const data = new TextEncoder().encode("hello");
    const signature = await wallet.sign(data);
    expect(await verifyEd25519(wallet.address, signature, data)).toBe(true);
    expect(await verifyEd25519(wallet.address, signature, new TextEncoder().encode("hellO"))).toBe(false);
    expect(await verifyEd25519(stranger.address, signature, data)).toBe(false);
    expect(await verifyEd25519(base58.encode(new Uint8Array(31)), signature, data)).toBe(false);
    expect(await verifyEd25519("not base58 0", signature, data)).toBe(false);
    // 32 bytes that are no point of the curve (y = 2 has no x).
    const offCurve = new Uint8Array(32);
    offCurve[0] = 2;
    expect(await verifyEd25519(base58.encode(offCurve), signature, data)).toBe(false);
  });
});

describe("the message's text", () => {
  it("leaves the address line empty for wallets that write their own, and names the site", () => {
    const text = message();
    expect(text.split("\n")[1]).toBe(wallet.address);
    expect(withAddressLeftOut(text).split("\n")[1]).toBe("");
    expect(withAddressLeftOut("one line")).toBe("one line");
    expect(text.split("\n")[0]).toContain("vanity.example");
    expect(signInFields(site, { nonce: NONCE, issuedAt: NOW, expiresAt: NOW + 1 })).toEqual({
      domain: "vanity.example",
      statement: expect.any(String),
      uri: "https://vanity.example",
      version: "1",
      nonce: NONCE,
      issuedAt: new Date(NOW).toISOString(),
      expirationTime: new Date(NOW + 1).toISOString(),
    });
  });
});
