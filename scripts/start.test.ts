import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { verifyMessage } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueuedOrder } from "../schema/custom-orders";
import { publicKeyOf, randomSecret } from "../schema/split-key";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { GRINDER_NICENESS, orderGrinderCommand, startOrderGrinder } from "./stack";

const root = path.resolve(import.meta.dirname, "..");

describe("npm start", () => {
  let server: net.Server;
  let port = 0;
  beforeAll(async () => {
    server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("a busy port gives a clear message and stops before doing anything", () => {
    const res = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts", "start.ts")], {
      cwd: root,
      env: { ...process.env, PORT: String(port) },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`Port ${port} is already in use`);
    expect(res.stdout).not.toContain("Building the web app");
  });
});

/**
 * The marketplace's grinder calls as the order grinder child makes them (sign-in, claim, progress, release), on
 * loopback; the real routes answer them in worker/test/custom-order-claims.test.ts and the e2e journeys. The
 * first claim gets one order too hard to finish (16 hex digits), so the child is grinding when it is stopped.
 */
function fakeMarketplace() {
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  let claims = 0;
  const order: Partial<QueuedOrder> = {
    id: 7,
    status: "grinding",
    prefix: "0123456789abcdef",
    suffix: "",
    caseSensitive: false,
    publicKey: publicKeyOf(randomSecret()),
    difficultyBits: 64,
    expectedAttempts: (2n ** 64n).toString(),
  };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const url = req.url ?? "";
      calls.push({ path: url, body });
      const json = (value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(200, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(value));
      };
      if (url === "/api/auth/nonce") return json({ message: `sign in to the test marketplace as ${String(body.address)}` });
      if (url === "/api/auth/verify") return json({ ok: true }, { "set-cookie": "session=test; Path=/; HttpOnly" });
      if (url === "/api/auth/session") return json({ user: { isAdmin: true } });
      if (url === "/api/custom-orders/admin/claim") return json({ order: claims++ === 0 ? order : null, leaseSeconds: 120 });
      return json({ success: true });
    });
  });
  return { server, calls };
}

describe("npm start's order grinder", () => {
  it("runs `grind --orders` on one thread (a hardware GPU only), niced, as the local admin, and hands its order back when stopped", async () => {
    const { command, args, env } = orderGrinderCommand("http://127.0.0.1:8787");
    expect(args.slice(-8)).toEqual(["--orders", "--supply", "--api", "http://127.0.0.1:8787", "--gpu=auto", "--threads", "1", "--quiet"]);
    expect(args).toContain(path.join(root, "scripts", "grind", "cli.ts"));
    if (process.platform !== "win32") expect([command, ...args.slice(0, 2)]).toEqual(["nice", "-n", String(GRINDER_NICENESS)]);
    expect(env.GRINDER_ADMIN_KEY).toBeUndefined(); // the local API's default key: the local admin

    const { server, calls } = fakeMarketplace();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const api = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      lines.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof process.stderr.write;
    const child = startOrderGrinder({ api, onExit: () => undefined });
    const exited = new Promise<number | null>((resolve) => {
      child.process.once("exit", (code) => resolve(code));
    });
    try {
      const waitFor = async (what: () => boolean, label: string) => {
        const deadline = Date.now() + 90_000;
        while (!what()) {
          if (Date.now() > deadline) throw new Error(`waited in vain for ${label}; the child said:\n${lines.join("")}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      await waitFor(() => lines.some((l) => l.includes("[grinder]") && l.includes("order 7:")), "the child to start on the order");

      // signed in with the local admin's key
      const nonce = calls.find((c) => c.path === "/api/auth/nonce")!;
      expect(nonce.body.address).toBe(DEV_ACCOUNTS.admin.address);
      const verify = calls.find((c) => c.path === "/api/auth/verify")!;
      expect(
        await verifyMessage({ address: DEV_ACCOUNTS.admin.address, message: String(verify.body.message), signature: verify.body.signature as `0x${string}` }),
      ).toBe(true);
      // it names itself and says what it grinds on: this machine's Dawn adapter is SwiftShader, which auto skips
      const claim = calls.find((c) => c.path === "/api/custom-orders/admin/claim")!;
      expect(claim.body.grinder).toMatch(/^[0-9a-f-]{36}$/);
      expect(claim.body.label).toMatch(/^(CPU, 1 thread|GPU .+)$/);
      if (claim.body.label === "CPU, 1 thread") expect(lines.join("")).toMatch(/\[grinder\].*(no GPU|software adapter)/);
      if (process.platform === "linux") {
        // field 19 of /proc/<pid>/stat is the nice value; `nice` exec'd node, so the pid is the grinder's
        const stat = fs.readFileSync(`/proc/${child.process.pid}/stat`, "utf8");
        expect(Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])).toBe(GRINDER_NICENESS);
      }

      child.stop(); // what Ctrl-C does to every child of npm start
      await exited;
      const release = calls.find((c) => c.path === "/api/custom-orders/admin/7/release");
      expect(release?.body).toEqual({ grinder: claim.body.grinder });
      expect(lines.join("")).toMatch(/\[grinder\].*SIGTERM: stopping; order 7 goes back to the queue/);
    } finally {
      process.stderr.write = write;
      child.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 120_000);
});
