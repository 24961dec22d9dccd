// Sign-in, sessions and admin status: the working paths. Real SIWE messages signed with anvil's dev keys,
// real SIWS messages signed with Ed25519 keys.
import { env } from "cloudflare:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { describe, expect, it, vi } from "vitest";
import type { AdminStatusResponse, NonceResponse, SessionResponse } from "../../schema/auth";
import { createApp } from "../app";
import { NONCE_PATTERN, NONCE_TTL_MS, newNonce } from "../auth/nonce";
import { hashSessionId } from "../auth/session";
import { parseSiws } from "../auth/sign-in-grammar";
import { buildSiwsMessage } from "../auth/siws";
import { deriveUsername } from "../domain/users";
import { api, postJson } from "./helpers";
import { adminAccount, buyerAccount, nonceFor, sessionCookie, sessionOf, signInEthereum, signInSolana, solanaKey, verify } from "./auth-helpers";
import { atOrigin, client, clientOf, refusal, unchecked } from "./client";

const adminStatus = async (walletAddress: string, e: Env = env) =>
  await clientOf((input, init) => createApp().request(input, init, e)).users["admin-status"].$get({ query: { walletAddress } });

describe("nonces", () => {
  it("come from crypto.getRandomValues with 128 bits, as 32 hex characters", () => {
    const spy = vi.spyOn(crypto, "getRandomValues");
    const nonce = newNonce();
    expect(spy).toHaveBeenCalledTimes(1);
    expect((spy.mock.calls[0][0] as Uint8Array).byteLength * 8).toBeGreaterThanOrEqual(96);
    spy.mockRestore();
    expect(nonce).toMatch(/^[0-9a-f]{32}$/);
  });

  it("do not repeat", () => {
    const seen = new Set(Array.from({ length: 2000 }, newNonce));
    expect(seen.size).toBe(2000);
  });

  it("POST /api/auth/nonce gives a nonce good for 10 minutes, stores nothing, and writes the SIWE message for this site and chain", async () => {
    const before = Date.now();
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM used_sign_in_nonces").first<number>("n");
    const body = await nonceFor({ network: "ethereum", address: adminAccount.address });
    // 128 random bits, the expiry and the HMAC tag (worker/auth/nonce.ts), all hex.
    expect(body.nonce).toMatch(NONCE_PATTERN);
    const expires = Date.parse(body.expiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(NONCE_TTL_MS - 1000);
    expect(expires - before).toBeLessThanOrEqual(NONCE_TTL_MS + 1000);
    expect(Number.parseInt(body.nonce.slice(32, 44), 16)).toBe(expires);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM used_sign_in_nonces").first<number>("n")).toBe(stored);
    expect(body.message).toContain("http://localhost wants you to sign in with your Ethereum account:");
    expect(body.message).toContain(`\n${adminAccount.address}\n`);
    expect(body.message).toContain("Chain ID: 31337");
    expect(body.message).toContain(`Nonce: ${body.nonce}`);
    expect(body.message).toContain("URI: http://localhost");
  });

  it("for Solana gives the solana:signIn input, and the message too when the address is known", async () => {
    const key = solanaKey(7);
    const withAddress = await nonceFor({ network: "solana", address: key.address });
    expect(withAddress.signInInput).toMatchObject({
      domain: "localhost",
      uri: "http://localhost",
      version: "1",
      nonce: withAddress.nonce,
      address: key.address,
    });
    expect(withAddress.message).toBe(buildSiwsMessage({ ...withAddress.signInInput!, address: key.address }));
    const without: NonceResponse = await nonceFor({ network: "solana" });
    expect(without.signInInput?.address).toBeUndefined();
    expect(without.message).toBeUndefined();
  });
});

describe("Sign-In with Ethereum", () => {
  it("signs the admin in: HttpOnly SameSite=Lax cookie (not Secure on localhost), users row, session", async () => {
    const { res, cookie, body } = await signInEthereum(adminAccount);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith("session="))!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/);
    expect(cookie).toMatch(/^session=[A-Za-z0-9_-]{43}$/);
    expect(body).toMatchObject({
      authenticated: true,
      user: { walletAddress: adminAccount.address.toLowerCase(), network: "ethereum", isAdmin: true, username: "eth_0xf39fd6b92266" },
    });
    expect(await sessionOf(cookie)).toEqual(body);
  });

  it("stores only the HMAC of the session id, bound to the wallet", async () => {
    const { cookie } = await signInEthereum(buyerAccount);
    const id = cookie.slice("session=".length);
    const idHash = await hashSessionId(env.SESSION_SECRET!, id);
    const row = await env.DB.prepare("SELECT id_hash, network, wallet_address FROM sessions WHERE id_hash = ?").bind(idHash).first();
    expect(row).toEqual({ id_hash: idHash, network: "ethereum", wallet_address: buyerAccount.address.toLowerCase() });
    const leak = await env.DB.prepare("SELECT count(*) n FROM sessions WHERE id_hash = ?").bind(id).first<{ n: number }>();
    expect(leak?.n).toBe(0);
  });

  it("a non-admin wallet is signed in without the admin role; signing in again keeps one users row", async () => {
    const first = await signInEthereum(buyerAccount);
    const second = await signInEthereum(buyerAccount);
    expect(first.body).toMatchObject({ authenticated: true, user: { isAdmin: false } });
    const rows = await env.DB.prepare("SELECT id, is_verified FROM users WHERE wallet_address = ?").bind(buyerAccount.address.toLowerCase()).all();
    expect(rows.results).toHaveLength(1);
    expect(rows.results[0]).toMatchObject({ is_verified: 1 });
    expect(second.body.authenticated && second.body.user.id).toBe(first.body.authenticated && first.body.user.id);
  });

  it("rotates the session at sign-in: the cookie the browser had stops working", async () => {
    const first = await signInEthereum(buyerAccount);
    const second = await signInEthereum(buyerAccount, first.cookie);
    expect(second.cookie).not.toBe(first.cookie);
    expect(await sessionOf(first.cookie)).toEqual({ authenticated: false });
    expect(await sessionOf(second.cookie)).toMatchObject({ authenticated: true });
  });

  it("usernames stay unique when two vanity wallets share the derived short name", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const shortName = deriveUsername("ethereum", account.address);
    // Another wallet with the same first and last characters already holds the short name.
    const lookalike = `${account.address.slice(0, 8)}${"0".repeat(26)}${account.address.slice(-6)}`.toLowerCase();
    await env.DB.prepare("INSERT INTO users (username, wallet_address, network) VALUES (?, ?, 'ethereum')").bind(shortName, lookalike).run();
    const { body } = await signInEthereum(account);
    expect(body.authenticated && body.user.username).toBe(`eth_${account.address.toLowerCase()}`);
  });

  it("outside localhost the cookie is Secure with the __Host- prefix", async () => {
    const app = createApp();
    const origin = "https://vanity.example";
    const siteEnv = { ...env, SITE_ORIGIN: origin };
    // The requests arrive at the site's own https origin, as deployed.
    const atSite = clientOf((input, init) => app.request(atOrigin(origin, input), init, siteEnv));
    const nonceRes = await atSite.auth.nonce.$post({ json: { network: "ethereum", address: buyerAccount.address } });
    const { message } = (await nonceRes.json()) as NonceResponse;
    expect(message).toContain("https://vanity.example wants you to sign in");
    const signature = await buyerAccount.signMessage({ message: message! });
    const res = await atSite.auth.verify.$post({ json: { network: "ethereum", message: message!, signature } });
    expect(res.status).toBe(200);
    const setCookie = res.headers.getSetCookie()[0];
    expect(setCookie).toMatch(/^__Host-session=/);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const cookie = setCookie.split(";")[0];
    const session = (await (await atSite.auth.session.$get({}, { headers: { cookie } })).json()) as SessionResponse;
    expect(session).toMatchObject({ authenticated: true });
  });
});

describe("Sign-In with Solana", () => {
  it("signs in through the server-built message (solana:signMessage)", async () => {
    const key = solanaKey();
    const { body, cookie } = await signInSolana(key);
    expect(body).toMatchObject({ authenticated: true, user: { walletAddress: key.address, network: "solana", isAdmin: false } });
    expect(body.authenticated && body.user.username).toBe(`sol_${key.address.slice(0, 6)}${key.address.slice(-6)}`);
    expect(await sessionOf(cookie)).toMatchObject({ authenticated: true });
  });

  it("signs in with the message a solana:signIn wallet builds from the input", async () => {
    const key = solanaKey();
    const { signInInput } = await nonceFor({ network: "solana" });
    // What a Wallet Standard wallet produces: the input's fields (and no others), its own address, the SIWS layout.
    const text = [
      `${signInInput!.domain} wants you to sign in with your Solana account:`,
      key.address,
      "",
      signInInput!.statement,
      "",
      `URI: ${signInInput!.uri}`,
      `Version: ${signInInput!.version}`,
      `Nonce: ${signInInput!.nonce}`,
      `Issued At: ${signInInput!.issuedAt}`,
      `Expiration Time: ${signInInput!.expirationTime}`,
    ].join("\n");
    const res = await verify({ network: "solana", message: text, signature: key.sign(text), address: key.address });
    expect(res.status).toBe(200);
    sessionCookie(res);
  });

  it("the message layout round-trips through the parser", () => {
    const m = {
      domain: "localhost:8787",
      address: solanaKey(1).address,
      statement: "Sign in.",
      uri: "http://localhost:8787",
      version: "1",
      nonce: "abcdef0123456789",
      issuedAt: "2026-01-01T00:00:00.000Z",
      expirationTime: "2026-01-01T00:10:00.000Z",
      resources: ["https://a.example/1", "https://a.example/2"],
    };
    const text = buildSiwsMessage(m);
    expect(text.split("\n").slice(0, 4)).toEqual(["localhost:8787 wants you to sign in with your Solana account:", m.address, "", "Sign in."]);
    expect(parseSiws(text)).toEqual(m);
    expect(parseSiws(`${text}\nSurprise: field`)).toBeNull();
    expect(parseSiws(text.replace("Nonce:", "Nonce: x\nNonce:"))).toBeNull();
  });
});

describe("logout", () => {
  it("ends the session and clears the cookie", async () => {
    const { cookie } = await signInEthereum(buyerAccount);
    const res = await client(undefined, { cookie }).auth.logout.$post();
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().join()).toMatch(/session=;.*Max-Age=0/);
    expect(await sessionOf(cookie)).toEqual({ authenticated: false });
  });

  it("without a session is harmless", async () => {
    expect((await client().auth.logout.$post()).status).toBe(200);
  });

  it("GET /api/auth/session for a visitor is 200 {authenticated:false}", async () => {
    const res = await client().auth.session.$get();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ authenticated: false });
  });
});

describe("admin status", () => {
  it("ADMIN_WALLETS entries are admins, EVM in any letter case; userExists follows the users table", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const e = { ...env, ADMIN_WALLETS: `${adminAccount.address}, ${account.address}` };
    expect(await (await adminStatus(account.address.toLowerCase(), e)).json()).toEqual({ isAdmin: true, userExists: false } satisfies AdminStatusResponse);
    expect(await (await adminStatus(account.address.toLowerCase())).json()).toEqual({ isAdmin: false, userExists: false });
    await signInEthereum(account);
    expect(await (await adminStatus(account.address, e)).json()).toEqual({ isAdmin: true, userExists: true });
    expect(await (await adminStatus(account.address)).json()).toEqual({ isAdmin: false, userExists: true });
  });

  it("users.isAdmin makes an admin too", async () => {
    const key = solanaKey();
    await env.DB.prepare("INSERT INTO users (username, wallet_address, network, is_admin) VALUES ('sol_x', ?, 'solana', 1)").bind(key.address).run();
    expect(await (await adminStatus(key.address)).json()).toEqual({ isAdmin: true, userExists: true });
  });

  it("Solana entries of ADMIN_WALLETS match exactly", async () => {
    const key = solanaKey();
    const e = { ...env, ADMIN_WALLETS: `${adminAccount.address},${key.address}` };
    expect(await (await adminStatus(key.address, e)).json()).toMatchObject({ isAdmin: true });
    // Swap the case of one letter whose other case is still base58 ('i' and 'o' have none: I and O are not digits).
    const swapped = key.address.replace(/[a-hj-km-np-z]/, (ch) => ch.toUpperCase());
    if (swapped !== key.address) expect(await (await adminStatus(swapped, e)).json()).toMatchObject({ isAdmin: false });
  });

  it("an admin's Solana session carries the role", async () => {
    const key = solanaKey();
    const e = { ...env, ADMIN_WALLETS: key.address };
    const app = createApp();
    const api = clientOf((input, init) => app.request(input, init, e));
    const nonce = (await (await api.auth.nonce.$post({ json: { network: "solana", address: key.address } })).json()) as NonceResponse;
    const res = await api.auth.verify.$post({ json: { network: "solana", message: nonce.message!, signature: key.sign(nonce.message!) } });
    expect(await res.json()).toMatchObject({ authenticated: true, user: { isAdmin: true } });
  });

  it("refuses a missing or malformed walletAddress with 400", async () => {
    for (const query of [{}, { walletAddress: "" }, { walletAddress: "hello" }, { walletAddress: "0x123" }]) {
      const res = await client().users["admin-status"].$get({ query: unchecked(query) });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(await res.json()).toMatchObject({ error: "Validation Error" });
    }
  });
});

describe("malformed requests", () => {
  const cases: [string, unknown][] = [
    ["no network", { address: adminAccount.address }],
    ["unknown network", { network: "bitcoin", address: adminAccount.address }],
    ["ethereum without address", { network: "ethereum" }],
    ["not an address", { network: "ethereum", address: "0xnothex" }],
    ["bad checksum", { network: "ethereum", address: "0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266" }],
    ["solana address that is not a key", { network: "solana", address: "1111111111111111111111111111111O" }],
    ["array", [1, 2]],
  ];
  for (const [name, body] of cases) {
    it(`nonce: ${name} -> 400`, async () => {
      const res = await client().auth.nonce.$post({ json: unchecked(body) });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "Validation Error" });
    });
  }

  const verifyCases: [string, unknown][] = [
    ["empty object", {}],
    ["no signature", { network: "ethereum", message: "x" }],
    ["signature not hex", { network: "ethereum", message: "x", signature: "0xzz" }],
    ["short signature", { network: "ethereum", message: "x", signature: "0x1234" }],
    ["message too long", { network: "ethereum", message: "x".repeat(5000), signature: `0x${"ab".repeat(65)}` }],
    ["solana signature not base58", { network: "solana", message: "x", signature: "0OIl".repeat(22) }],
    ["message not a string", { network: "solana", message: 42, signature: "1".repeat(88) }],
  ];
  for (const [name, body] of verifyCases) {
    it(`verify: ${name} -> 400`, async () => {
      const res = await client().auth.verify.$post({ json: unchecked(body) });
      expect(res.status).toBe(400);
    });
  }

  it("verify: malformed JSON -> 400, wrong content type -> 415", async () => {
    expect((await postJson("/api/auth/verify", '{"network":')).status).toBe(400);
    expect((await api("/api/auth/verify", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" })).status).toBe(415);
  });

  it("verify: a well-formed body that is not a sign-in message -> 401", async () => {
    const res = await client().auth.verify.$post({ json: { network: "ethereum", message: "hello", signature: `0x${"ab".repeat(65)}` } });
    expect(res.status).toBe(401);
    const sol = await client().auth.verify.$post({ json: { network: "solana", message: "hello", signature: "1".repeat(88) } });
    expect(sol.status).toBe(401);
  });

  it("verify: a SIWE message with a malformed date is refused, not a 500", async () => {
    const { nonce } = await nonceFor({ network: "ethereum", address: buyerAccount.address });
    const message = createSiweMessage({
      domain: "localhost",
      address: buyerAccount.address,
      uri: "http://localhost",
      version: "1",
      chainId: 31337,
      nonce,
      scheme: "http",
    }).replace(/Issued At: .*/, "Issued At: yesterday");
    const res = await verify({ network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) });
    expect(res.status).toBe(401);
  });
});

describe("configuration", () => {
  it("sign-in refuses with 503 when SESSION_SECRET is missing", async () => {
    const api = clientOf((input, init) => createApp().request(input, init, { ...env, SESSION_SECRET: undefined }));
    for (const call of [() => api.auth.nonce.$post({ json: { network: "solana" } }), () => api.auth.session.$get()]) {
      const res = await call();
      expect(res.status).toBe(503);
      expect((await refusal(res)).message).toMatch(/SESSION_SECRET/);
    }
  });

  it("Sign-In with Ethereum refuses with 503 naming ETH_CHAIN_ID while it is not a chain id; Solana's goes on", async () => {
    for (const chainId of ["one", "", "0"]) {
      const api = clientOf((input, init) => createApp().request(input, init, { ...env, ETH_CHAIN_ID: chainId }));
      const res = await api.auth.nonce.$post({ json: { network: "ethereum", address: buyerAccount.address } });
      expect(res.status).toBe(503);
      expect((await refusal(res)).message).toMatch(/ETH_CHAIN_ID/);
      expect((await api.auth.nonce.$post({ json: { network: "solana" } })).status).toBe(200);
    }
  });

  it("public routes keep working without SESSION_SECRET", async () => {
    const res = await adminStatus(adminAccount.address, { ...env, SESSION_SECRET: undefined });
    expect(res.status).toBe(200);
  });
});
