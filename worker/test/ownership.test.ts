// POST /api/addresses/verify-ownership: the answer for every key format, the refusals, the rate limit, and
// that the key never comes back or reaches a log.
import { afterEach, describe, expect, it, vi } from "vitest";
import { OWNERSHIP_MESSAGES, OWNERSHIP_RATE_LIMIT } from "../../schema/listings";
import { ethKey, solKey } from "./listing-fixtures";
import { call } from "./purchase-fixtures";
import { inFreshRateWindow, testRateWindowMs } from "./helpers";
import { client, unchecked, refusal } from "./client";

let ipCounter = 0;
/** Each test its own client address, so the rate limit of one test never leaks into another. */
const freshIp = () => `203.0.113.${++ipCounter}`;

async function verify(body: unknown, ip = freshIp()) {
  const res = await client(undefined, { "cf-connecting-ip": ip }).addresses["verify-ownership"].$post({ json: unchecked(body) });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

afterEach(() => vi.restoreAllMocks());

describe("verify-ownership", () => {
  it("a matching Ethereum key, with or without 0x: verified, no sign-in needed", async () => {
    const k = ethKey();
    for (const privateKey of [k.privateKey, k.privateKey.slice(2).toUpperCase()]) {
      const r = await verify({ address: k.address, privateKey, network: "ethereum" });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ verified: true, error: null });
    }
  });

  it("Solana keys in the formats wallets export", async () => {
    const k = solKey();
    const hex = Array.from(k.seed, (b) => b.toString(16).padStart(2, "0")).join("");
    for (const privateKey of [k.privateKey, JSON.stringify(Array.from(k.seed)), hex]) {
      expect((await verify({ address: k.address, privateKey, network: "solana" })).body).toEqual({ verified: true, error: null });
    }
  });

  it("guesses the network from the address when none is sent", async () => {
    const k = solKey();
    expect((await verify({ address: k.address, privateKey: k.privateKey })).body).toEqual({ verified: true, error: null });
  });

  it("a key for another address: not verified, with the spec's message", async () => {
    const r = await verify({ address: ethKey().address, privateKey: ethKey().privateKey, network: "ethereum" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ verified: false, error: OWNERSHIP_MESSAGES.mismatch });
  });

  it("unreadable keys and invalid addresses are answers that never echo the key", async () => {
    const k = ethKey();
    const secretish = "5f3c9a1e7b2d4c6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a";
    const answers = [
      await verify({ address: k.address, privateKey: secretish, network: "ethereum" }),
      await verify({ address: solKey().address, privateKey: secretish + "zz", network: "solana" }),
      await verify({ address: "0x1234", privateKey: secretish, network: "ethereum" }),
    ];
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body.verified).toBe(false);
      expect(typeof a.body.error).toBe("string");
      expect(a.text).not.toContain(secretish.slice(0, 16));
    }
    expect(answers[0].body.error).toMatch(/^Unrecognised private key format for ethereum/);
    expect(answers[1].body.error).toMatch(/^Unrecognised private key format for solana/);
  });

  const malformed: [string, unknown, number, RegExp][] = [
    ["missing key", { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", network: "ethereum" }, 400, /^Please enter both address and private key$/],
    ["missing address", { privateKey: "0x" + "1".repeat(64), network: "ethereum" }, 400, /^Please enter both address and private key$/],
    ["blank key", { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", privateKey: "   " }, 400, /^Please enter both address and private key$/],
    ["numeric key", { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", privateKey: 12345 }, 400, /privateKey must be a string/],
    ["array address", { address: ["0x00"], privateKey: "0x" + "1".repeat(64) }, 400, /address must be a string/],
    ["huge key", { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", privateKey: "a".repeat(5000) }, 400, /at most 1024/],
    ["huge address", { address: "0x" + "a".repeat(5000), privateKey: "0x" + "1".repeat(64) }, 400, /at most 256/],
    ["control characters", { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\u0000", privateKey: "0x" + "1".repeat(64) }, 400, /control characters/],
    [
      "unknown network",
      { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", privateKey: "0x" + "1".repeat(64), network: "bitcoin" },
      400,
      /network must be ethereum or solana/,
    ],
    ["not JSON", "address=1&privateKey=2", 400, /./],
    ["JSON array body", [], 400, /./],
  ];
  it.each(malformed)("%s: %i with a clear message", async (_name, body, status, message) => {
    const r = await verify(body);
    expect(r.status).toBe(status);
    expect(r.body.error).toBe("Validation Error");
    expect(String(r.body.message)).toMatch(message);
  });

  it("a body that is not declared JSON: 415", async () => {
    const res = await call("POST", "/api/addresses/verify-ownership", undefined, "{}", { "content-type": "text/plain", "cf-connecting-ip": freshIp() });
    expect(res.status).toBe(415);
  });

  it("the key never reaches a log", async () => {
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m));
    const k = solKey();
    await verify({ address: k.address, privateKey: k.privateKey, network: "solana" });
    await verify({ address: ethKey().address, privateKey: k.privateKey, network: "ethereum" });
    await verify({ address: k.address, privateKey: k.privateKey + "!", network: "solana" });
    const logged = spies.flatMap((s) => s.mock.calls.map((call) => call.map(String).join(" "))).join("\n");
    expect(logged).not.toContain(k.privateKey.slice(0, 20));
  });
});

describe("rate limit", () => {
  it(`${OWNERSHIP_RATE_LIMIT.limit} calls a minute per client, then 429 in the standard shape`, async () => {
    await inFreshRateWindow();
    const ip = freshIp();
    const k = ethKey();
    const body = { address: k.address, privateKey: k.privateKey, network: "ethereum" };
    for (let i = 0; i < OWNERSHIP_RATE_LIMIT.limit; i++) expect((await verify(body, ip)).status).toBe(200);
    const res = await client(undefined, { "cf-connecting-ip": ip }).addresses["verify-ownership"].$post({ json: unchecked(body) });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe(String(testRateWindowMs() / 1000));
    const refused = await refusal(res);
    expect(refused.error).toBe("Too Many Requests");
    expect(refused.message).toMatch(/at most 30 per 86400 seconds\. Wait 86400 seconds/);
    // Malformed calls count too, and stay refused; another client is unaffected.
    expect((await verify({}, ip)).status).toBe(429);
    expect((await verify(body, freshIp())).status).toBe(200);
  }, 60_000);

  it("concurrent calls are all counted (the upsert is atomic)", async () => {
    await inFreshRateWindow();
    const ip = freshIp();
    const k = ethKey();
    const body = { address: k.address, privateKey: k.privateKey, network: "ethereum" };
    const statuses = await Promise.all(Array.from({ length: OWNERSHIP_RATE_LIMIT.limit + 5 }, () => verify(body, ip).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(OWNERSHIP_RATE_LIMIT.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  }, 60_000);
});
