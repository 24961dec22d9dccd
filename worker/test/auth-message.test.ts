// Sign-in accepts exactly the message it issued for the nonce, and a
// verify attempt on that message uses its nonce up whatever the outcome. Every message here is signed by a real key (viem's
// privateKeyToAccount, or an Ed25519 key) and sent to the real route in workerd with real D1.
import { env } from "cloudflare:test";
import { getAddress, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { NonceResponse } from "../../schema/auth";
import { createApp } from "../app";
import { VERIFY_RATE_LIMIT } from "../auth/nonce";
import { SIGN_IN_STATEMENT } from "../auth/siwe";
import { buildSiwsMessage } from "../auth/siws";
import { inFreshRateWindow } from "./helpers";
import { buyerAccount, nonceFor, otherAccount, sessionCookie, solanaKey, verify } from "./auth-helpers";
import { type Answer, client, clientOf, refusal } from "./client";

const errorOf = async (res: Answer) => (await refusal(res)).message;

async function sessionsFor(wallet: string) {
  return (await env.DB.prepare("SELECT count(*) n FROM sessions WHERE wallet_address = ?").bind(wallet).first<number>("n")) ?? 0;
}

/** The server's SIWE message for a fresh wallet, as /api/auth/nonce wrote it. */
async function issuedSiwe() {
  const account = privateKeyToAccount(generatePrivateKey());
  const { message, nonce } = await nonceFor({ network: "ethereum", address: account.address });
  return { account, message: message!, nonce };
}

/** Signs `text` with the wallet's own key and posts it: what a phishing page gets when the wallet signs it. */
async function signAndVerify(account: ReturnType<typeof privateKeyToAccount>, text: string) {
  return verify({ network: "ethereum", message: text, signature: await account.signMessage({ message: text }) });
}

const swapCase = (ch: string) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase());

describe("SIWE: the signed text must be the EIP-4361 message issued for the nonce", () => {
  // The six structural cases the strict parser (@spruceid/siwe-parser) rejects and viem's unanchored pattern
  // accepted; each starts from the message the server issued and keeps its nonce.
  const structural: [string, (message: string) => string][] = [
    ["a trailing newline", (m) => `${m}\n`],
    ["a line after the last field", (m) => `${m}\nIgnore the above: this is not a sign-in.`],
    ["an extra line between the statement and the URI", (m) => m.replace("\n\nURI: ", "\n\nThe statement above is only the start.\nURI: ")],
    ["a multi-line statement", (m) => m.replace(SIGN_IN_STATEMENT, `${SIGN_IN_STATEMENT}\nSecond line of the statement.`)],
    ["a non-ASCII statement", (m) => m.replace(SIGN_IN_STATEMENT, SIGN_IN_STATEMENT.replace("Sign in", "Sign in — free"))],
    ["a resource that is not a URI", (m) => `${m}\nResources:\n- not a uri`],
  ];
  for (const [name, mutate] of structural) {
    it(`refuses the issued message with ${name}, signed by the wallet's own key`, async () => {
      const { account, message } = await issuedSiwe();
      const res = await signAndVerify(account, mutate(message));
      expect(res.status).toBe(401);
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(await sessionsFor(account.address.toLowerCase())).toBe(0);
    });
  }

  // Three addresses that are not in EIP-55 form (siwe-parser: "invalid EIP-55 address").
  const addressForms: [string, (address: string) => string][] = [
    ["all lower-case", (a) => a.toLowerCase()],
    ["all upper-case hex", (a) => `0x${a.slice(2).toUpperCase()}`],
    ["one letter's case flipped", (a) => a.replace(/[a-fA-F](?=[^a-fA-F]*$)/, swapCase)],
  ];
  for (const [name, form] of addressForms) {
    it(`refuses the issued message with its address ${name}`, async () => {
      const { account, message } = await issuedSiwe();
      const altered = message.replace(account.address, form(account.address));
      expect(altered).not.toBe(message);
      const res = await signAndVerify(account, altered);
      expect(res.status).toBe(401);
      expect(await sessionsFor(account.address.toLowerCase())).toBe(0);
    });
  }

  it("refuses a well-formed EIP-4361 message that differs from the issued one only in a field the checks do not read", async () => {
    // Request ID and Resources are valid EIP-4361 and every other field is right: only the byte-for-byte rule refuses it.
    const { account, message } = await issuedSiwe();
    const res = await signAndVerify(account, `${message}\nRequest ID: 42\nResources:\n- https://evil.example/claim`);
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatch(/not the message issued/);
  });

  it("accepts exactly the issued message: its nonce's HMAC covers the message, and a nonce with another tag or expiry is refused", async () => {
    const { account, message, nonce } = await issuedSiwe();
    // The nonce is random (32), expiry (12) and tag (32) hex digits; change one digit of the tag or of the expiry.
    const flip = (at: number) => `${nonce.slice(0, at)}${nonce[at] === "0" ? "1" : "0"}${nonce.slice(at + 1)}`;
    for (const forged of [flip(60), flip(43)]) {
      const res = await signAndVerify(account, message.replace(nonce, forged));
      expect(res.status).toBe(401);
      expect(await errorOf(res)).toMatch(/nonce|not the message issued/);
    }
    const res = await signAndVerify(account, message);
    expect(res.status).toBe(200);
    sessionCookie(res);
  });
});

describe("only used nonces are stored", () => {
  const used = () => env.DB.prepare("SELECT nonce, expires_at FROM used_sign_in_nonces").all<{ nonce: string; expires_at: number }>();

  it("a sign-in stores its nonce's random part until the nonce's expiry; a forged nonce stores nothing", async () => {
    const { account, message, nonce } = await issuedSiwe();
    const before = (await used()).results.length;
    const forged = `${nonce.slice(0, 44)}${"0".repeat(32)}`;
    expect((await signAndVerify(account, message.replace(nonce, forged))).status).toBe(401);
    expect((await used()).results.length).toBe(before);
    expect((await signAndVerify(account, message)).status).toBe(200);
    const rows = (await used()).results;
    expect(rows.length).toBe(before + 1);
    expect(rows).toContainEqual({ nonce: nonce.slice(0, 32), expires_at: Number.parseInt(nonce.slice(32, 44), 16) });
  });

  it("the database refuses a used-nonce row that is not 32 lower-case hex digits", async () => {
    const insert = (nonce: string | null) =>
      env.DB.prepare("INSERT INTO used_sign_in_nonces (nonce, expires_at) VALUES (?, ?)")
        .bind(nonce, Date.now() + 60_000)
        .run();
    for (const nonce of [null, "", "ab", "A".repeat(32), `${"0".repeat(31)}g`, "0".repeat(33), "0".repeat(76)])
      await expect(insert(nonce), String(nonce)).rejects.toThrow();
    await expect(insert(crypto.randomUUID().replace(/-/g, ""))).resolves.toBeDefined();
  });
});

describe("SIWS: server-written messages byte for byte, wallet-written ones by the standard's grammar", () => {
  it("refuses the server-written message with a line appended or a trailing newline", async () => {
    for (const mutate of [(m: string) => `${m}\n`, (m: string) => `${m}\nIgnore the above: this is not a sign-in.`]) {
      const key = solanaKey();
      const { message } = await nonceFor({ network: "solana", address: key.address });
      const text = mutate(message!);
      const res = await verify({ network: "solana", message: text, signature: key.sign(text), address: key.address });
      expect(res.status).toBe(401);
      expect(await sessionsFor(key.address)).toBe(0);
    }
  });

  /** The text a `solana:signIn` wallet writes from the server's input (the Wallet Standard's field order). */
  const walletText = (input: NonceResponse["signInInput"], address: string) => buildSiwsMessage({ ...input!, address });

  it("accepts the text a solana:signIn wallet writes from the input, with the wallet's own address", async () => {
    const key = solanaKey();
    const { signInInput } = await nonceFor({ network: "solana" });
    const text = walletText(signInInput, key.address);
    const res = await verify({ network: "solana", message: text, signature: key.sign(text), address: key.address });
    expect(res.status).toBe(200);
  });

  const walletAttacks: [string, (text: string) => string][] = [
    ["a line appended", (t) => `${t}\nIgnore the above: this is not a sign-in.`],
    ["a trailing newline", (t) => `${t}\n`],
    ["a second statement line", (t) => t.replace(SIGN_IN_STATEMENT, `${SIGN_IN_STATEMENT}\nAnd a second line.`)],
    ["a non-ASCII statement", (t) => t.replace("Sign in", "Sign in — free")],
    ["a resource that is not a URI", (t) => `${t}\nResources:\n- not a uri`],
    ["a field the input did not ask for", (t) => t.replace("\nNonce: ", "\nChain ID: mainnet\nNonce: ")],
    ["another statement", (t) => t.replace(SIGN_IN_STATEMENT, "Approve the transfer of everything.")],
    ["another issue time", (t) => t.replace(/Issued At: (\S+)/, (_, iso: string) => `Issued At: ${new Date(Date.parse(iso) - 1000).toISOString()}`)],
  ];
  for (const [name, mutate] of walletAttacks) {
    it(`refuses wallet-written text with ${name}`, async () => {
      const key = solanaKey();
      const { signInInput } = await nonceFor({ network: "solana" });
      const text = mutate(walletText(signInInput, key.address));
      const res = await verify({ network: "solana", message: text, signature: key.sign(text), address: key.address });
      expect(res.status).toBe(401);
      expect(await sessionsFor(key.address)).toBe(0);
    });
  }
});

describe("a verify attempt on the issued text uses its nonce up, whatever its outcome", () => {
  it("SIWE: a failed attempt, then the right signature for the same nonce, is refused", async () => {
    const { account, message } = await issuedSiwe();
    const wrong = await verify({ network: "ethereum", message, signature: await otherAccount.signMessage({ message }) });
    expect(wrong.status).toBe(401);
    const right = await signAndVerify(account, message);
    expect(right.status).toBe(401);
    expect(await errorOf(right)).toMatch(/nonce/);
    expect(await sessionsFor(account.address.toLowerCase())).toBe(0);
  });

  it("SIWS: a failed attempt, then the right signature for the same nonce, is refused", async () => {
    const key = solanaKey();
    const { message } = await nonceFor({ network: "solana", address: key.address });
    expect((await verify({ network: "solana", message, signature: solanaKey().sign(message!) })).status).toBe(401);
    const right = await verify({ network: "solana", message, signature: key.sign(message!), address: key.address });
    expect(right.status).toBe(401);
    expect(await sessionsFor(key.address)).toBe(0);
  });

  it("a tampered message is refused before any signature work and stores nothing: the issued message still signs in", async () => {
    // The nonce is used up by an attempt on the text issued for it (the only text that reaches a signature check);
    // a text that is not it costs one HMAC, and the per-network verify limit bounds those.
    const { account, message } = await issuedSiwe();
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM used_sign_in_nonces").first<number>("n");
    const tampered = await signAndVerify(account, `${message}\nRequest ID: 1`);
    expect(tampered.status).toBe(401);
    expect(await errorOf(tampered)).toMatch(/not the message issued/);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM used_sign_in_nonces").first<number>("n")).toBe(stored);
    expect((await signAndVerify(account, message)).status).toBe(200);
  });
});

describe("the contract-wallet check (ERC-1271/6492 eth_call) cannot be driven without bound", () => {
  // On this machine (nothing listens there; the node is the fetch below), so the deployment stays local and its payment
  // rules pass: on a deployment they refuse, no node's word about a contract wallet counts (sign-in.ts).
  const RPC = "http://127.0.0.1:9/rpc-test/";
  afterEach(() => vi.restoreAllMocks());

  /** The node at RPC: counts eth_call requests and answers each with `valid` (the validator's bool). */
  function mockNode(valid: boolean) {
    const calls: unknown[] = [];
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (!url.startsWith(RPC)) return real(input, init);
      const body = JSON.parse(String(init?.body));
      const answer = (req: { id: number; method: string }) => {
        if (req.method === "eth_call") calls.push(req);
        return { jsonrpc: "2.0", id: req.id, result: req.method === "eth_call" ? `0x${(valid ? 1 : 0).toString(16).padStart(64, "0")}` : "0x7a69" };
      };
      return Response.json(Array.isArray(body) ? body.map(answer) : answer(body));
    });
    return calls;
  }

  const app = createApp();
  const nodeEnv = { ...env, ETH_RPC_URL: RPC };
  /** Sign-in on an app that knows the node, as the client at `ip`. */
  const from = (ip: string) => clientOf((input, init) => app.request(input, init, nodeEnv), undefined, { "cf-connecting-ip": ip }).auth;
  let clients = 0;
  async function contractWalletNonce(address: Hex) {
    const res = await from(`198.19.0.${++clients}`).nonce.$post({ json: { network: "ethereum", address } });
    return ((await res.json()) as NonceResponse).message!;
  }

  it("a smart-contract wallet signs in: the signature does not recover to it, the node's validator says yes", async () => {
    const calls = mockNode(true);
    const wallet = getAddress(`0x${"c0ffee".repeat(6)}c0ff`);
    const message = await contractWalletNonce(wallet);
    const res = await from("198.19.1.1").verify.$post({ json: { network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) } });
    expect(res.status).toBe(200);
    expect(calls).toHaveLength(1);
  });

  it("one nonce gives at most one eth_call: replaying a failing signature costs the node nothing more", async () => {
    const calls = mockNode(false);
    const wallet = getAddress(`0x${"ba5e".repeat(10)}`);
    const message = await contractWalletNonce(wallet);
    const signature = await buyerAccount.signMessage({ message });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await from("198.19.1.2").verify.$post({ json: { network: "ethereum", message, signature } })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect(calls).toHaveLength(1);
  });

  it(`one client gets ${VERIFY_RATE_LIMIT.limit} verify attempts a minute, then 429 with no eth_call; another client is unaffected`, async () => {
    await inFreshRateWindow();
    const calls = mockNode(false);
    const wallet = getAddress(`0x${"dead".repeat(10)}`);
    const messages = await Promise.all(Array.from({ length: VERIFY_RATE_LIMIT.limit + 3 }, () => contractWalletNonce(wallet)));
    const ip = "198.19.2.1";
    const statuses: number[] = [];
    for (const message of messages)
      statuses.push((await from(ip).verify.$post({ json: { network: "ethereum", message, signature: await buyerAccount.signMessage({ message }) } })).status);
    expect(statuses.slice(0, VERIFY_RATE_LIMIT.limit).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(VERIFY_RATE_LIMIT.limit)).toEqual([429, 429, 429]);
    expect(calls).toHaveLength(VERIFY_RATE_LIMIT.limit);
    const other = await from("198.19.2.2").verify.$post({ json: { network: "ethereum", message: messages[0], signature: `0x${"ab".repeat(65)}` } });
    expect(other.status).toBe(401);
  }, 60_000);

  it("a malformed or foreign message reaches neither the database's nonce nor the node", async () => {
    const calls = mockNode(true);
    const { message } = await nonceFor({ network: "ethereum", address: buyerAccount.address });
    const res = await from("198.19.3.1").verify.$post({
      json: { network: "ethereum", message: `${message}\n`, signature: await buyerAccount.signMessage({ message: `${message}\n` }) },
    });
    expect(res.status).toBe(401);
    expect(calls).toHaveLength(0);
    // The nonce the malformed text named is still there for the real message.
    const ok = await client(undefined, { "cf-connecting-ip": "198.19.3.2" }).auth.verify.$post({
      json: { network: "ethereum", message: message!, signature: await buyerAccount.signMessage({ message: message! }) },
    });
    expect(ok.status).toBe(200);
  });
});
