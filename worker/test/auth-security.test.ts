// The sign-in protections, one attack each. Every test here fails if the protection it names is removed.
import { env } from "cloudflare:test";
import { Hono } from "hono";
import type { Hex } from "viem";
import { createSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import type { SessionResponse } from "../../schema/auth";
import { createApp } from "../app";
import { requireAdmin, requireSession } from "../auth/middleware";
import { buildSiwsMessage, signInFields } from "../auth/siws";
import { siteOf } from "../auth/site";
import type { AppEnv } from "../types";
import { adminAccount, buyerAccount, nonceFor, otherAccount, sessionOf, signInEthereum, signInSolana, solanaKey, verify } from "./auth-helpers";

/** The real app plus two probe routes, one for any signed-in wallet and one for admins only. */
function probeApp() {
  const probes = new Hono<AppEnv>()
    .get("/me", requireSession, (c) => c.json({ wallet: c.var.session.walletAddress }))
    .get("/admin", requireAdmin, (c) => c.json({ wallet: c.var.session.walletAddress, admin: true }));
  const app = createApp();
  app.route("/api/probe", probes);
  return (path: string, headers: Record<string, string> = {}) => app.request(`http://localhost${path}`, { headers }, env);
}

const errorOf = async (res: Response) => ((await res.json()) as { error: string; message: string });

/** A SIWE message for `address` with a live nonce, with any field overridden. */
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

async function sessionsFor(wallet: string) {
  const row = await env.DB.prepare("SELECT count(*) n FROM sessions WHERE wallet_address = ?").bind(wallet.toLowerCase()).first<{ n: number }>();
  return row?.n ?? 0;
}

describe("nonce", () => {
  it("a replayed signed message is refused (the nonce was consumed)", async () => {
    const message = await siwe(otherAccount.address);
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
    const message = await siwe(otherAccount.address);
    const signature = await otherAccount.signMessage({ message });
    const results = await Promise.all(Array.from({ length: 4 }, () => verify({ network: "ethereum", message, signature })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
  });

  it("an expired nonce is refused even inside the message's own validity", async () => {
    const message = await siwe(buyerAccount.address, { expirationTime: new Date(Date.now() + 60 * 60_000) });
    const nonce = /Nonce: (\w+)/.exec(message)![1];
    await env.DB.prepare("UPDATE auth_nonces SET expires_at = ? WHERE nonce = ?").bind(Date.now() - 1, nonce).run();
    const res = await verify({ network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("a nonce the server never issued is refused", async () => {
    const message = createSiweMessage({ scheme: "http", domain: "localhost", uri: "http://localhost", address: buyerAccount.address, version: "1", chainId: 31337, nonce: "0123456789abcdef0123456789abcdef" });
    const res = await verify({ network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) });
    expect(res.status).toBe(401);
  });

  it("an expired SIWS nonce is refused", async () => {
    const key = solanaKey();
    const { nonce } = await nonceFor({ network: "solana", address: key.address });
    await env.DB.prepare("UPDATE auth_nonces SET expires_at = ? WHERE nonce = ?").bind(Date.now() - 1, nonce).run();
    const message = buildSiwsMessage({ ...signInFields(siteOf("http://localhost/"), { nonce, issuedAt: Date.now(), expiresAt: Date.now() + 600_000 }), address: key.address });
    const res = await verify({ network: "solana", message, signature: key.sign(message) });
    expect(res.status).toBe(401);
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
    // Only the domain differs: the URI still names this site, so nothing but the domain check can refuse it.
    const message = await siwe(buyerAccount.address, { domain: "vanity-market.evil" });
    const res = await verify({ network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) });
    expect(res.status).toBe(401);
  });

  it("a SIWE message with another scheme is refused", async () => {
    const message = await siwe(buyerAccount.address, { scheme: "https" });
    const res = await verify({ network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) });
    expect(res.status).toBe(401);
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
    const fields = signInFields(siteOf("http://localhost/"), { nonce, issuedAt: Date.now(), expiresAt: Date.now() + 600_000 });
    const message = buildSiwsMessage({ ...fields, domain: "vanity-market.evil", address: key.address });
    const res = await verify({ network: "solana", message, signature: key.sign(message) });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/domain/);
  });

  it("a SIWS message whose expiry has passed is refused", async () => {
    const key = solanaKey();
    const { nonce } = await nonceFor({ network: "solana", address: key.address });
    const message = buildSiwsMessage({
      ...signInFields(siteOf("http://localhost/"), { nonce, issuedAt: Date.now() - 120_000, expiresAt: Date.now() - 60_000 }),
      address: key.address,
    });
    const res = await verify({ network: "solana", message, signature: key.sign(message) });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/expired/);
  });

  it("a SIWS message without an expiry is refused", async () => {
    const key = solanaKey();
    const { nonce } = await nonceFor({ network: "solana", address: key.address });
    const message = buildSiwsMessage({ ...signInFields(siteOf("http://localhost/"), { nonce, issuedAt: Date.now(), expiresAt: 0 }), expirationTime: undefined, address: key.address });
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
    const app = createApp();
    await app.request("http://localhost/api/auth/logout", { method: "POST", headers: { cookie } }, env);
    expect((await probe("/api/probe/me", { cookie })).status).toBe(401);
    expect((await sessionOf(cookie)) satisfies SessionResponse).toEqual({ authenticated: false });
  });

  it("a forged session id opens nothing", async () => {
    const probe = probeApp();
    const forged = `session=${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
    for (const cookie of [forged, "session=admin", "session=", `session=${"A".repeat(43)}`]) {
      const res = await probe("/api/probe/me", { cookie });
      expect(res.status, cookie).toBe(401);
      expect(await sessionOf(cookie)).toEqual({ authenticated: false });
    }
  });

  it("the stored hash is not a usable cookie", async () => {
    const probe = probeApp();
    await signInEthereum(buyerAccount);
    const row = await env.DB.prepare("SELECT id_hash FROM sessions WHERE wallet_address = ? LIMIT 1").bind(buyerAccount.address.toLowerCase()).first<{ id_hash: string }>();
    expect((await probe("/api/probe/me", { cookie: `session=${row!.id_hash}` })).status).toBe(401);
  });

  it("an expired session opens nothing", async () => {
    const probe = probeApp();
    const key = solanaKey();
    const { cookie } = await signInSolana(key);
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE wallet_address = ?").bind(Date.now() - 1, key.address).run();
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
    expect((await probe("/api/auth/session", { cookie, "x-wallet-address": adminAccount.address })).status).toBe(403);
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
