// The local stack, in parts: build the SPA, migrate and seed a local D1, start anvil, start `wrangler dev`, start
// the order grinder.
// Used by `npm start` (scripts/start.ts) and by the browser tests (e2e/global-setup.ts), so both run the
// same thing.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);

// No metrics and no Request.cf download: `wrangler dev` must work without the internet.
export const STACK_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_LOG: process.env.WRANGLER_LOG ?? "warn",
};

export class StackError extends Error {}

function runSync(command: string, args: string[], env: NodeJS.ProcessEnv = STACK_ENV, quiet = false) {
  const res = spawnSync(command, args, { cwd: ROOT, stdio: quiet ? "pipe" : "inherit", env, encoding: "utf8" });
  if (res.status !== 0) {
    const detail = quiet ? `\n${res.stdout ?? ""}${res.stderr ?? ""}` : "";
    throw new StackError(`${path.basename(command)} ${args.join(" ")} failed (exit ${res.status ?? res.signal})${detail}`);
  }
}

export function portFree(port: number, host = "127.0.0.1") {
  return new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.once("listening", () => server.close(() => resolve(true)));
    server.listen(port, host);
  });
}

/** `localDevWallets` builds the local dev wallets into the SPA (never for a production build). */
export function buildWeb(quiet = false, opts: { localDevWallets?: boolean } = {}) {
  // NODE_ENV pinned: under vitest (the e2e suite's set-up) it is "test", and Vite then bundles React's
  // development build, so the browser tests would run a different React from the one that ships.
  const env = { ...STACK_ENV, NODE_ENV: "production", VITE_LOCAL_DEV_WALLETS: opts.localDevWallets ? "true" : "" };
  runSync(process.execPath, [path.join(ROOT, "node_modules", "vite", "bin", "vite.js"), "build", "--logLevel", quiet ? "error" : "warn"], env, quiet);
}

/** Applies migrations to the local D1 (wrangler's default state, or `persistTo`). */
export function applyLocalMigrations(persistTo?: string, quiet = false) {
  const args = ["d1", "migrations", "apply", "DB", "--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
  runSync(bin("wrangler"), args, { ...STACK_ENV, CI: "true" }, quiet);
}

/** `env` reaches the seed step: e.g. the KEY_ENCRYPTION_SECRET the Worker will run with, to seal demo keys under it. */
export function seedLocal(persistTo?: string, quiet = false, env: Record<string, string> = {}) {
  runSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "seed.ts")], { ...STACK_ENV, ...env, SEED_PERSIST_TO: persistTo ?? "" }, quiet);
}

/** The first free port from `from` on (100 tried). */
export async function freePort(from: number): Promise<number> {
  for (let port = from; port < from + 100; port++) if (await portFree(port)) return port;
  throw new Error(`no free port in ${from}..${from + 99}`);
}

export type Child = { name: string; process: ChildProcess; stop: () => void };

/** Starts a long-running child in its own process group, forwarding its output line by line. */
export function startChild(
  name: string,
  command: string,
  args: string[],
  opts: { filter?: (line: string) => boolean; onExit?: (code: number | null) => void; silent?: boolean; env?: NodeJS.ProcessEnv } = {},
): Child {
  const child = spawn(command, args, { cwd: ROOT, env: opts.env ?? STACK_ENV, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const forward = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
    let buf = "";
    stream.on("data", (chunk: Buffer) => {
      buf += chunk;
      const lines = buf.split("\n");
      buf = lines.pop() ?? "";
      if (opts.silent) return;
      for (const line of lines) if (line.trim() && opts.filter?.(line) !== false) out.write(`\x1b[90m[${name}]\x1b[0m ${line}\n`);
    });
  };
  forward(child.stdout!, process.stdout);
  forward(child.stderr!, process.stderr);
  let stopped = false;
  child.on("exit", (code) => {
    if (!stopped) opts.onExit?.(code);
  });
  return {
    name,
    process: child,
    stop: () => {
      stopped = true;
      try {
        if (child.pid) process.kill(-child.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
    },
  };
}

export function startAnvil(opts: {
  port: number;
  chainId: number;
  statePath?: string;
  /** Seconds per block; absent = a block per transaction (automine). */
  blockTime?: number;
  silent?: boolean;
  onExit?: (code: number | null) => void;
}) {
  const args = ["--host", "127.0.0.1", "--port", String(opts.port), "--chain-id", String(opts.chainId), "--silent"];
  if (opts.statePath) args.push("--state", opts.statePath);
  if (opts.blockTime) args.push("--block-time", String(opts.blockTime));
  return startChild("anvil", bin("anvil"), args, { silent: opts.silent, onExit: opts.onExit });
}

export function startWorker(opts: {
  port: number;
  persistTo?: string;
  vars?: Record<string, string>;
  silent?: boolean;
  onExit?: (code: number | null) => void;
}) {
  const args = ["dev", "--port", String(opts.port), "--ip", "127.0.0.1", "--test-scheduled", "--show-interactive-dev-session=false"];
  if (opts.persistTo) args.push("--persist-to", opts.persistTo);
  for (const [k, v] of Object.entries(opts.vars ?? {})) args.push("--var", `${k}:${v}`);
  return startChild("wrangler", bin("wrangler"), args, {
    silent: opts.silent,
    onExit: opts.onExit,
    filter: (line) => !/GET \/(assets|favicon)|__scheduled/.test(line),
  });
}

/** The lowest scheduling priority: the local grinder takes only CPU time the site and the tests leave. */
export const GRINDER_NICENESS = 19;

/**
 * The order grinder of the local stack (docs/local-dev.md): `npm run grind -- --orders` against the local API,
 * signed in as the local admin (dev account 0, the default of scripts/grind/orders-api.ts for a local API, so
 * GRINDER_ADMIN_KEY is dropped), on a hardware GPU when Dawn finds one, else on one CPU thread, at the lowest
 * priority (`nice` where it exists). While no order waits it stocks Admin > Supply's targets (`--supply`,
 * docs/supply.md#the-grinder). Its progress line is off; what it logs is the claims and the results.
 */
export function orderGrinderCommand(api: string): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  const node = [process.execPath, "--import", "tsx", path.join(ROOT, "scripts", "grind", "cli.ts")];
  const args = ["--orders", "--supply", "--api", api, "--gpu=auto", "--threads", "1", "--quiet"];
  const { GRINDER_ADMIN_KEY: _dropped, ...env } = STACK_ENV;
  const niced = process.platform !== "win32";
  const [command, ...rest] = niced ? ["nice", "-n", String(GRINDER_NICENESS), ...node] : node;
  return { command, args: [...rest, ...args], env };
}

export function startOrderGrinder(opts: { api: string; silent?: boolean; onExit?: (code: number | null) => void }): Child {
  const { command, args, env } = orderGrinderCommand(opts.api);
  const child = startChild("grinder", command, args, { env, silent: opts.silent, onExit: opts.onExit });
  // Without `nice` (Windows), the same priority through the OS call; threads started later inherit it.
  if (command === process.execPath && child.process.pid) {
    try {
      os.setPriority(child.process.pid, GRINDER_NICENESS);
    } catch {
      /* not permitted: it runs at normal priority */
    }
  }
  return child;
}

/**
 * One cron tick: `wrangler dev --test-scheduled` runs the Worker's scheduled handler for this path, which
 * wrangler.toml routes to the Worker first (otherwise the SPA's index.html answers it).
 */
export async function tickScheduled(baseUrl: string) {
  const res = await fetch(`${baseUrl}/__scheduled?cron=*+*+*+*+*`);
  return { ok: res.ok, body: await res.text() };
}

/** Polls until `check` resolves true or the time runs out. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, intervalMs = 300) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await check()) return true;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return false;
}

export const httpOk = (url: string) => async () => (await fetch(url)).ok;

export const rpcAnswers = (url: string) => async () => {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
  });
  return res.ok;
};
