// The sign-in protections, one attack each. Every test here fails if the protection it names is removed.
import { env } from "cloudflare:test";
import { Hono } from "hono";
import type { Hex } from "viem";
import { createSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import type { SessionResponse } from "../../schema/auth";
import { createApp } from "../app";
import { requireAdmin, requireSession } from "../auth/middleware";
import { NONCE_PATTERN, NONCE_RATE_LIMIT, NONCE_TTL_MS } from "../auth/nonce";
import { startSignIn } from "../auth/sign-in";
import { readDeployment } from "../deployment/deployment";
import { buildSiwsMessage, signInFields } from "../auth/siws";
import { parseSiteOrigin } from "../auth/site";
import type { AppEnv } from "../types";
import { inFreshRateWindow } from "./helpers";
import { adminAccount, buyerAccount, nonceFor, otherAccount, sessionOf, signInEthereum, signInSolana, solanaKey, verify } from "./auth-helpers";
import { type Answer, atOrigin, client, clientOf, refusal } from "./client";

/** The real app plus two probe routes, one for any signed-in wallet and one for admins only (raw paths: the probes
 * are mounted by the test, so the app's type does not know them). */
function probeApp() {
  const probes = new Hono<AppEnv>()
    .get("/me", requireSession, (c) => c.json({ wallet: c.var.session.walletAddress }))
    .get("/admin", requireAdmin, (c) => c.json({ wallet: c.var.session.walletAddress, admin: true }));
  const app = createApp();
  app.route("/api/probe", probes);
  return (path: string, headers: Record<string, string> = {}) => app.request(`http://localhost${path}`, { headers }, env);
}

const errorOf = async (res: Answer) => await refusal(res);

/** A SIWE message for `address` with a live nonce, with any field overridden: never the issued text, so every
 * use here is refused; the tests check which check refuses it first. */
async function siwe(address: Hex, overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}) {
  const { nonce } = await nonceFor({ network: "ethereum", address });
  return createSiweMessage({
    scheme: "http",
    domain: "localhost",
    uri: "http://localhost",
    address,
    version: "1",
    chainId: 31337,
    nonce,
    issuedAt: new Date(),
    expirationTime: new Date(Date.now() + 5 * 60_000),
    ...overrides,
  });
}

/** The SIWE message the server issued for `address` (the only text that can sign in). */
async function issued(address: Hex) {
  return (await nonceFor({ network: "ethereum", address })).message!;
}

async function sessionsFor(wallet: string) {
  const row = await env.DB.prepare("SELECT count(*) n FROM sessions WHERE wallet_address = ?").bind(wallet.toLowerCase()).first<{ n: number }>();
  return row?.n ?? 0;
}

describe("nonce", () => {
  it("a replayed signed message is refused (the nonce was consumed)", async () => {
    const message = await issued(otherAccount.address);
    const signature = await otherAccount.signMessage({ message });
    const first = await verify({ network: "ethereum", message, signature });
    expect(first.status).toBe(200);
    const before = await sessionsFor(otherAccount.address);
    const replay = await verify({ network: "ethereum", message, signature });
    expect(replay.status).toBe(401);
    expect((await errorOf(replay)).message).toMatch(/nonce/);
    expect(await sessionsFor(otherAccount.address)).toBe(before);
  });

  it("two simultaneous sign-ins with one signed message open exactly one session", async () => {
    const message = await issued(otherAccount.address);
    const signature = await otherAccount.signMessage({ message });
    const results = await Promise.all(Array.from({ length: 4 }, () => verify({ network: "ethereum", message, signature })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
  });

  it("an expired nonce is refused, the exact message issued with it too, even in a message still valid itself", async () => {
    // A nonce issued 10 minutes and a second ago, as /nonce issued it then.
    const old = await startSignIn(env, readDeployment(env), { network: "ethereum", address: buyerAccount.address }, Date.now() - NONCE_TTL_MS - 1000);
    const stale = await verify({ network: "ethereum", message: old.message, signature: await buyerAccount.signMessage({ message: old.message! }) });
    expect(stale.status).toBe(401);
    expect((await errorOf(stale)).message).toMatch(/nonce is unknown, used or expired/);
    const message = await siwe(buyerAccount.address, { nonce: old.nonce, expirationTime: new Date(Date.now() + 60 * 60_000) });
    const res = await verify({ network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/nonce is unknown, used or expired/);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("a nonce the server never issued is refused", async () => {
    const message = createSiweMessage({
      scheme: "http",
      domain: "localhost",
      uri: "http://localhost",
      address: buyerAccount.address,
      version: "1",
      chainId: 31337,
      nonce: "0123456789abcdef0123456789abcdef",
    });
    const res = await verify({ network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) });
    expect(res.status).toBe(401);
  });

  it("an expired SIWS nonce is refused", async () => {
    const key = solanaKey();
    const old = await startSignIn(env, readDeployment(env), { network: "solana", address: key.address }, Date.now() - NONCE_TTL_MS - 1000);
    const message = buildSiwsMessage({
      ...signInFields(parseSiteOrigin("http://localhost")!, { nonce: old.nonce, issuedAt: Date.now(), expiresAt: Date.now() + 600_000 }),
      address: key.address,
    });
    for (const text of [old.message!, message]) {
      const res = await verify({ network: "solana", message: text, signature: key.sign(text) });
      expect(res.status).toBe(401);
      expect((await errorOf(res)).message).toMatch(/nonce is unknown, used or expired/);
    }
  });

  it("a replayed SIWS message is refused", async () => {
    const key = solanaKey();
    const { message } = await nonceFor({ network: "solana", address: key.address });
    const body = { network: "solana", message, signature: key.sign(message!) };
    expect((await verify(body)).status).toBe(200);
    expect((await verify(body)).status).toBe(401);
  });
});

describe("message contents", () => {
  it("a SIWE message for another domain is refused", async () => {
    // Only the domain differs: the URI still names this site, so the domain check refuses it (before the
    // byte-for-byte rule would).
    const message = await siwe(buyerAccount.address, { domain: "vanity-market.evil" });
    const res = await verify({ network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/another domain/);
  });

  it("a SIWE message with another scheme is refused", async () => {
    const message = await siwe(buyerAccount.address, { scheme: "https" });
    const res = await verify({ network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/another domain/);
  });

  it("a SIWE message for a different chain id is refused", async () => {
    const message = await siwe(buyerAccount.address, { chainId: 1 });
    const res = await verify({ network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/chain 1/);
  });

  it("an expired SIWE message is refused", async () => {
    const message = await siwe(buyerAccount.address, { issuedAt: new Date(Date.now() - 120_000), expirationTime: new Date(Date.now() - 60_000) });
    const res = await verify({ network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) });
    expect(res.status).toBe(401);
  });

  it("a SIWS message for another domain is refused", async () => {
    const key = solanaKey();
    const { nonce } = await nonceFor({ network: "solana", address: key.address });
    const fields = signInFields(parseSiteOrigin("http://localhost")!, { nonce, issuedAt: Date.now(), expiresAt: Date.now() + 600_000 });
    const message = buildSiwsMessage({ ...fields, domain: "vanity-market.evil", address: key.address });
    const res = await verify({ network: "solana", message, signature: key.sign(message) });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/domain/);
  });

  it("a SIWS message whose expiry has passed is refused", async () => {
    const key = solanaKey();
    const { nonce } = await nonceFor({ network: "solana", address: key.address });
    const message = buildSiwsMessage({
      ...signInFields(parseSiteOrigin("http://localhost")!, { nonce, issuedAt: Date.now() - 120_000, expiresAt: Date.now() - 60_000 }),
      address: key.address,
    });
    const res = await verify({ network: "solana", message, signature: key.sign(message) });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/expired/);
  });

  it("a SIWS message without an expiry is refused", async () => {
    const key = solanaKey();
    const { nonce } = await nonceFor({ network: "solana", address: key.address });
    const message = buildSiwsMessage({
      ...signInFields(parseSiteOrigin("http://localhost")!, { nonce, issuedAt: Date.now(), expiresAt: 0 }),
      expirationTime: undefined,
      address: key.address,
    });
    const res = await verify({ network: "solana", message, signature: key.sign(message) });
    expect(res.status).toBe(401);
  });
});

describe("signatures", () => {
  it("a SIWE message for the admin signed by another key is refused", async () => {
    const message = await siwe(adminAccount.address);
    const res = await verify({ network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("a SIWS message for one key signed by another is refused", async () => {
    const victim = solanaKey();
    const attacker = solanaKey();
    const { message } = await nonceFor({ network: "solana", address: victim.address });
    const res = await verify({ network: "solana", message, signature: attacker.sign(message!) });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/signature/);
  });

  it("a SIWS message altered after signing is refused", async () => {
    const key = solanaKey();
    const { message } = await nonceFor({ network: "solana", address: key.address });
    const signature = key.sign(message!);
    const res = await verify({ network: "solana", message: message!.replace("Sign in", "Sign In"), signature });
    expect(res.status).toBe(401);
  });

  it("a SIWS body claiming another account than the message's is refused", async () => {
    const key = solanaKey();
    const { message } = await nonceFor({ network: "solana", address: key.address });
    const res = await verify({ network: "solana", message, signature: key.sign(message!), address: solanaKey().address });
    expect(res.status).toBe(401);
  });
});

describe("sessions", () => {
  it("the cookie of a logged-out session opens nothing", async () => {
    const probe = probeApp();
    const { cookie } = await signInEthereum(buyerAccount);
    expect((await probe("/api/probe/me", { cookie })).status).toBe(200);
    await clientOf((input, init) => createApp().request(input, init, env), { headers: { cookie } }).auth.logout.$post();
    expect((await probe("/api/probe/me", { cookie })).status).toBe(401);
    expect((await sessionOf(cookie)) satisfies SessionResponse).toEqual({ authenticated: false });
  });

  it("a forged session id opens nothing", async () => {
    const probe = probeApp();
    const forged = `session=${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "")}`;
    for (const cookie of [forged, "session=admin", "session=", `session=${"A".repeat(43)}`]) {
      const res = await probe("/api/probe/me", { cookie });
      expect(res.status, cookie).toBe(401);
      expect(await sessionOf(cookie)).toEqual({ authenticated: false });
    }
  });

  it("the stored hash is not a usable cookie", async () => {
    const probe = probeApp();
    await signInEthereum(buyerAccount);
    const row = await env.DB.prepare("SELECT id_hash FROM sessions WHERE wallet_address = ? LIMIT 1")
      .bind(buyerAccount.address.toLowerCase())
      .first<{ id_hash: string }>();
    expect((await probe("/api/probe/me", { cookie: `session=${row!.id_hash}` })).status).toBe(401);
  });

  it("an expired session opens nothing", async () => {
    const probe = probeApp();
    const key = solanaKey();
    const { cookie } = await signInSolana(key);
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE wallet_address = ?")
      .bind(Date.now() - 1, key.address)
      .run();
    expect((await probe("/api/probe/me", { cookie })).status).toBe(401);
  });
});

describe("x-wallet-address", () => {
  it("an admin's address in the header with no session gets nothing (401)", async () => {
    const probe = probeApp();
    const res = await probe("/api/probe/admin", { "x-wallet-address": adminAccount.address });
    expect(res.status).toBe(401);
    expect((await probe("/api/probe/me", { "x-wallet-address": adminAccount.address })).status).toBe(401);
  });

  it("an admin's address in the header with a non-admin session is refused (403)", async () => {
    const probe = probeApp();
    const { cookie } = await signInEthereum(buyerAccount);
    const res = await probe("/api/probe/admin", { cookie, "x-wallet-address": adminAccount.address });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).message).toMatch(/x-wallet-address/);
    // Even the lower-case form of the admin's address, and on routes that need no admin.
    expect((await probe("/api/probe/admin", { cookie, "x-wallet-address": adminAccount.address.toLowerCase() })).status).toBe(403);
    expect((await probe("/api/probe/me", { cookie, "x-wallet-address": adminAccount.address })).status).toBe(403);
    const session = clientOf((input, init) => createApp().request(input, init, env), undefined, { cookie, "x-wallet-address": adminAccount.address });
    expect((await session.auth.session.$get()).status).toBe(403);
  });

  it("a non-admin session is refused on admin routes whatever the header says", async () => {
    const probe = probeApp();
    const { cookie } = await signInEthereum(buyerAccount);
    expect((await probe("/api/probe/admin", { cookie })).status).toBe(403);
    expect((await probe("/api/probe/admin", { cookie, "x-wallet-address": buyerAccount.address })).status).toBe(403);
  });

  it("a header that agrees with the session is accepted, EVM in any letter case", async () => {
    const probe = probeApp();
    const { cookie } = await signInEthereum(adminAccount);
    expect((await probe("/api/probe/admin", { cookie })).status).toBe(200);
    expect((await probe("/api/probe/admin", { cookie, "x-wallet-address": adminAccount.address.toLowerCase() })).status).toBe(200);
    expect((await probe("/api/probe/me", { cookie, "x-wallet-address": buyerAccount.address })).status).toBe(403);
  });

  it("Solana addresses in the header must match exactly", async () => {
    const probe = probeApp();
    const key = solanaKey();
    const { cookie } = await signInSolana(key);
    expect((await probe("/api/probe/me", { cookie, "x-wallet-address": key.address })).status).toBe(200);
    expect((await probe("/api/probe/me", { cookie, "x-wallet-address": key.address.toLowerCase() })).status).toBe(403);
  });
});

describe("the site a sign-in is for (SITE_ORIGIN, never the Host header)", () => {
  // A deployed site (a public SITE_ORIGIN) reached with another Host. The local SITE_ORIGIN behind a public Host
  // is refused outright (committed-vars.test.ts).
  const SITE = "https://vanity.example";
  const evil = clientOf((input, init) => createApp().request(atOrigin("http://evil.example", input), init, { ...env, SITE_ORIGIN: SITE })).auth;

  it("a nonce asked for through another Host still names the configured site", async () => {
    const res = await evil.nonce.$post({ json: { network: "ethereum", address: buyerAccount.address } });
    expect(res.status).toBe(200);
    const { message, nonce } = (await res.json()) as { message: string; nonce: string };
    expect(message.startsWith(`${SITE} wants you to sign in`)).toBe(true);
    expect(message).toContain(`URI: ${SITE}\n`);
    const solana = (await (await evil.nonce.$post({ json: { network: "solana" } })).json()) as { signInInput: { domain: string; uri: string } };
    expect(solana.signInInput).toMatchObject({ domain: "vanity.example", uri: SITE });
    expect(nonce).toMatch(NONCE_PATTERN);
  });

  it("a SIWE message for evil.example posted with Host: evil.example is refused and opens no session", async () => {
    const { nonce } = await nonceFor({ network: "ethereum", address: buyerAccount.address });
    const message = createSiweMessage({
      scheme: "http",
      domain: "evil.example",
      uri: "http://evil.example",
      address: buyerAccount.address,
      version: "1",
      chainId: 31337,
      nonce,
      issuedAt: new Date(),
      expirationTime: new Date(Date.now() + 5 * 60_000),
    });
    const res = await evil.verify.$post({ json: { network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) } });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("a SIWS message for evil.example posted with Host: evil.example is refused and opens no session", async () => {
    const key = solanaKey();
    const { nonce } = await nonceFor({ network: "solana", address: key.address });
    const message = buildSiwsMessage({
      ...signInFields(parseSiteOrigin("http://evil.example")!, { nonce, issuedAt: Date.now(), expiresAt: Date.now() + 600_000 }),
      address: key.address,
    });
    const res = await evil.verify.$post({ json: { network: "solana", message, signature: key.sign(message), address: key.address } });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await env.DB.prepare("SELECT count(*) n FROM sessions WHERE wallet_address = ?").bind(key.address).first("n")).toBe(0);
  });

  it("without a valid SITE_ORIGIN sign-in answers 503 and names the setting", async () => {
    for (const SITE_ORIGIN of ["", "not a url", "https://vanity.example/app", "ftp://vanity.example"]) {
      const res = await clientOf((input, init) => createApp().request(input, init, { ...env, SITE_ORIGIN })).auth.nonce.$post({ json: { network: "solana" } });
      expect(res.status, SITE_ORIGIN).toBe(503);
      expect((await errorOf(res)).message).toMatch(/SITE_ORIGIN/);
    }
  });
});

describe("Issued At: the same bound for both networks", () => {
  // Only the issued message signs in (auth-message.test.ts), and the server stamps it now; a message stamped
  // ahead is refused for its issue time before anything else is looked at, on both networks alike.
  it("SIWE refuses a message issued a day ahead, and one 4 minutes ahead as not the issued message", async () => {
    const ahead = await siwe(buyerAccount.address, { issuedAt: new Date(Date.now() + 24 * 3600_000), expirationTime: new Date(Date.now() + 25 * 3600_000) });
    const refused = await verify({ network: "ethereum", message: ahead, signature: await buyerAccount.signMessage({ message: ahead }) });
    expect(refused.status).toBe(401);
    expect((await errorOf(refused)).message).toMatch(/issue time/);
    const skewed = await siwe(buyerAccount.address, { issuedAt: new Date(Date.now() + 4 * 60_000), expirationTime: new Date(Date.now() + 10 * 60_000) });
    const notIssued = await verify({ network: "ethereum", message: skewed, signature: await buyerAccount.signMessage({ message: skewed }) });
    expect(notIssued.status).toBe(401);
    expect((await errorOf(notIssued)).message).toMatch(/not the message issued/);
  });

  it("SIWS refuses a message issued a day ahead, and one 4 minutes ahead as not the issued message", async () => {
    const key = solanaKey();
    const signIn = async (issuedAt: number) => {
      const { nonce } = await nonceFor({ network: "solana", address: key.address });
      const message = buildSiwsMessage({
        ...signInFields(parseSiteOrigin("http://localhost")!, { nonce, issuedAt, expiresAt: issuedAt + 3600_000 }),
        address: key.address,
      });
      return verify({ network: "solana", message, signature: key.sign(message) });
    };
    const refused = await signIn(Date.now() + 24 * 3600_000);
    expect(refused.status).toBe(401);
    expect((await errorOf(refused)).message).toMatch(/issue time/);
    const notIssued = await signIn(Date.now() + 4 * 60_000);
    expect(notIssued.status).toBe(401);
    expect((await errorOf(notIssued)).message).toMatch(/not the message issued/);
  });
});

describe("POST /api/auth/nonce is limited", () => {
  const ask = (ip: string) => client(undefined, { "cf-connecting-ip": ip }).auth.nonce.$post({ json: { network: "solana" } });

  it(`one client gets ${NONCE_RATE_LIMIT.limit} nonces a minute, then 429; another client is unaffected`, async () => {
    await inFreshRateWindow();
    const ip = "203.0.113.77";
    const statuses: number[] = [];
    for (let i = 0; i <= NONCE_RATE_LIMIT.limit; i++) statuses.push((await ask(ip)).status);
    expect(statuses.slice(0, NONCE_RATE_LIMIT.limit).every((s) => s === 200)).toBe(true);
    expect(statuses[NONCE_RATE_LIMIT.limit]).toBe(429);
    expect((await ask("203.0.113.78")).status).toBe(200);
  });
});

describe("used nonces", () => {
  it("past their expiry are dropped whenever a nonce is used", async () => {
    await env.DB.prepare("INSERT INTO used_sign_in_nonces (nonce, expires_at) VALUES (?, ?)")
      .bind("e".repeat(32), Date.now() - 1)
      .run();
    await signInSolana();
    expect(await env.DB.prepare("SELECT count(*) n FROM used_sign_in_nonces WHERE nonce = ?").bind("e".repeat(32)).first("n")).toBe(0);
  });
});
