import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pickFault, staleAnswer, startFaultProxy } from "./fault-proxy";
import { Liar } from "./liar";

describe("pickFault", () => {
  const shares = { error: 0.1, timeout: 0.1, stale: 0.1 };
  it("splits the calls by share, and makes a head stale only for a head call", () => {
    expect(pickFault(shares, 0.05, ["eth_call"])).toBe("error");
    expect(pickFault(shares, 0.15, ["eth_call"])).toBe("timeout");
    expect(pickFault(shares, 0.25, ["eth_blockNumber"])).toBe("stale");
    expect(pickFault(shares, 0.25, ["eth_getBlockByNumber"])).toBe("forwarded");
    expect(pickFault(shares, 0.35, ["getSlot"])).toBe("forwarded");
  });
});

describe("staleAnswer", () => {
  it("moves Ethereum blocks and Solana slots back, never below zero, and leaves other answers alone", () => {
    const calls = [
      { id: 1, method: "eth_blockNumber" },
      { id: 2, method: "getSlot" },
      { id: 3, method: "eth_getBalance" },
      { id: 4, method: "eth_blockNumber" },
    ];
    const out = staleAnswer(calls, [
      { jsonrpc: "2.0", id: 1, result: "0x64" },
      { jsonrpc: "2.0", id: 2, result: 500 },
      { jsonrpc: "2.0", id: 3, result: "0x64" },
      { jsonrpc: "2.0", id: 4, result: "0x1" },
    ]);
    expect(out.map((a) => a.result)).toEqual(["0x61", 460, "0x64", "0x0"]);
  });
});

describe("startFaultProxy", () => {
  let node: http.Server;
  let target = "";
  beforeAll(async () => {
    node = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const call = JSON.parse(body);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result: "0x10" }));
      });
    });
    await new Promise<void>((r) => node.listen(0, "127.0.0.1", r));
    target = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => node.close(() => r())));

  const call = (url: string, method: string) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: [] }) }).then(
      (r) => r.json(),
    );

  it("answers with an error, holds past the timeout, or serves a stale head, as rolled; forwards everything when off", async () => {
    const rolls = [0.05, 0.15, 0.25, 0.9];
    const proxy = await startFaultProxy({ target, port: 0, shares: { error: 0.1, timeout: 0.1, stale: 0.1 }, holdMs: 200, random: () => rolls.shift() ?? 0.9 });
    try {
      expect(await call(proxy.url, "eth_blockNumber")).toMatchObject({ id: 7, error: { code: -32603 } });
      await expect(call(proxy.url, "eth_blockNumber")).rejects.toThrow();
      expect(await call(proxy.url, "eth_blockNumber")).toMatchObject({ id: 7, result: "0xd" });
      expect(await call(proxy.url, "eth_blockNumber")).toMatchObject({ id: 7, result: "0x10" });
      proxy.setEnabled(false);
      rolls.push(0.05);
      expect(await call(proxy.url, "eth_blockNumber")).toMatchObject({ result: "0x10" });
      expect(proxy.counts).toEqual({ error: 1, timeout: 1, stale: 1, forwarded: 2 });
    } finally {
      await proxy.stop();
    }
  });
});

describe("the liar (scripts/soak/liar.ts) behind the proxy", () => {
  let node: http.Server;
  let target = "";
  beforeAll(async () => {
    // A node that knows one head and no transaction.
    node = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const call = JSON.parse(body);
        const results: Record<string, unknown> = {
          eth_blockNumber: "0x10",
          getSlot: 500,
          eth_call: "0x",
          getLatestBlockhash: { context: { slot: 500 }, value: { blockhash: "current", lastValidBlockHeight: 650 } },
          isBlockhashValid: { context: { slot: 500 }, value: call.params?.[0] === "current" },
        };
        const result = results[call.method] ?? null;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result }));
      });
    });
    await new Promise<void>((r) => node.listen(0, "127.0.0.1", r));
    target = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => node.close(() => r())));

  const call = (url: string, method: string, params: unknown[] = []) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 3, method, params }) }).then(
      (r) => r.json() as Promise<{ result: unknown }>,
    );

  it("vouches for every eth_call, shows forged payments, moves heads and hands out a stale blockhash on command, and tells the truth once it stops lying", async () => {
    const liar = new Liar();
    const eth = await startFaultProxy({ target, port: 0, shares: { error: 0, timeout: 0, stale: 0 }, holdMs: 100, lie: liar.lie("ethereum") });
    const sol = await startFaultProxy({ target, port: 0, shares: { error: 0, timeout: 0, stale: 0 }, holdMs: 100, lie: liar.lie("solana") });
    try {
      expect((await call(eth.url, "eth_call", [{ data: "0x" }, "latest"])).result).toBe(`0x${"0".repeat(63)}1`);
      liar.forgeEthereum("0xAB", { tx: { hash: "0xab" }, receipt: { status: "0x1" } });
      expect((await call(eth.url, "eth_getTransactionByHash", ["0xab"])).result).toEqual({ hash: "0xab" });
      expect((await call(eth.url, "eth_getTransactionReceipt", ["0xab"])).result).toEqual({ status: "0x1" });
      expect((await call(eth.url, "eth_getTransactionReceipt", ["0xcd"])).result).toBeNull();
      liar.forgeSolana("sig", { slot: 9 });
      expect((await call(sol.url, "getTransaction", ["sig"])).result).toEqual({ slot: 9 });
      expect((await call(eth.url, "eth_blockNumber")).result).toBe("0x10");
      liar.mode = "head";
      expect((await call(eth.url, "eth_blockNumber")).result).toBe("0x3f8");
      expect((await call(sol.url, "getSlot")).result).toBe(1_500);
      // A stale blockhash as its latest, held valid by it alone: every other one denied.
      expect((await call(sol.url, "getLatestBlockhash")).result).toMatchObject({ value: { blockhash: "current" } });
      liar.stale = { blockhash: "stale", lastValidBlockHeight: 400 };
      expect((await call(sol.url, "getLatestBlockhash")).result).toMatchObject({ value: { blockhash: "current" } });
      liar.mode = "blockhash";
      expect((await call(sol.url, "getLatestBlockhash")).result).toEqual({ context: { slot: 500 }, value: { blockhash: "stale", lastValidBlockHeight: 400 } });
      expect((await call(sol.url, "isBlockhashValid", ["stale"])).result).toEqual({ context: { slot: 500 }, value: true });
      expect((await call(sol.url, "isBlockhashValid", ["current"])).result).toEqual({ context: { slot: 500 }, value: false });
      expect((await call(sol.url, "getSlot")).result).toBe(500);
      liar.lying = false;
      expect((await call(sol.url, "isBlockhashValid", ["current"])).result).toMatchObject({ value: true });
      expect((await call(eth.url, "eth_blockNumber")).result).toBe("0x10");
      expect((await call(eth.url, "eth_getTransactionByHash", ["0xab"])).result).toBeNull();
      expect(liar.told).toMatchObject({ "eth_call valid": 1, "payment (Ethereum)": 2, "payment (Solana)": 1, "another head": 2, "stale blockhash": 3 });
    } finally {
      await eth.stop();
      await sol.stop();
    }
  });
});
