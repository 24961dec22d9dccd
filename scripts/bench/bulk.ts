// npm run bench:bulk [-- --rows 10000 --chunk 500 --port 8797 --keep]
// The bulk upload end to end on the local stack: generates a CSV of real Ethereum keys (random, derived with
// @noble through viem), starts `wrangler dev` on a throw-away D1, signs in as the dev admin (SIWE with anvil
// account 0), posts the rows to POST /api/admin/addresses/bulk in chunks, and prints rows per second with
// the ownership proof, rarity, sealing and the batched inserts all included. Goal: 10,000 rows under 30 s.
// Everything it starts is stopped and its temporary files removed, also on Ctrl-C.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { privateKeyToAccount, privateKeyToAddress } from "viem/accounts";
import { formatBulkCsv, parseBulkCsv } from "../../schema/bulk-csv";
import type { BulkRow, BulkUploadResponse } from "../../schema/listings";
import { DEV_ACCOUNTS } from "../../schema/dev-accounts";
import { applyLocalMigrations, type Child, httpOk, portFree, ROOT, seedLocal, startWorker, waitUntil } from "../stack";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "10000" },
    chunk: { type: "string", default: "500" },
    port: { type: "string", default: "8797" },
    keep: { type: "boolean", default: false },
  },
});
const ROWS = Number(values.rows);
const CHUNK = Number(values.chunk);
const GOAL_SECONDS = 30;
const secret = (label: string) => `bench-${label}-${randomBytes(24).toString("hex")}`;
const VARS = { KEY_ENCRYPTION_SECRET: secret("kek"), SESSION_SECRET: secret("session") };

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vanity-bench-bulk-"));
const children: Child[] = [];
let cleaned = false;
function cleanup() {
  if (cleaned) return;
  cleaned = true;
  for (const child of children) child.stop();
  if (!values.keep) fs.rmSync(tmp, { recursive: true, force: true });
}
process.on("SIGINT", () => {
  cleanup();
  process.exit(130);
});

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

function generateCsv(count: number): string {
  const rows: BulkRow[] = [];
  for (let i = 0; i < count; i++) {
    const key = `0x${randomBytes(32).toString("hex")}` as const;
    const address = privateKeyToAddress(key);
    // The address's own first four characters: a truthful pattern_matched (bulk table price 0.00001 ETH).
    rows.push({ address, private_key: key, platform: "ethereum", pattern_type: "prefix", pattern_matched: address.slice(2, 6) });
  }
  return formatBulkCsv(rows);
}

async function freePort(from: number): Promise<number> {
  for (let port = from; port < from + 50; port++) if (await portFree(port)) return port;
  throw new Error(`no free port in ${from}..${from + 49}`);
}

/** SIWE sign-in as the dev admin, as a browser wallet would; returns the session cookie. */
async function signIn(base: string): Promise<string> {
  const account = privateKeyToAccount(DEV_ACCOUNTS.admin.privateKey);
  const post = (p: string, body: unknown) =>
    fetch(`${base}${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const nonce = (await (await post("/api/auth/nonce", { network: "ethereum", address: account.address })).json()) as { message: string };
  const signature = await account.signMessage({ message: nonce.message });
  const res = await post("/api/auth/verify", { network: "ethereum", message: nonce.message, signature });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("session="));
  if (!res.ok || !cookie) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return cookie.split(";")[0];
}

async function main() {
  console.log(`bulk upload benchmark: ${fmt(ROWS)} rows of real Ethereum keys in chunks of ${CHUNK}`);
  let t = performance.now();
  const csvPath = path.join(tmp, "listings.csv");
  fs.writeFileSync(csvPath, generateCsv(ROWS), { mode: 0o600 });
  const parsed = parseBulkCsv(fs.readFileSync(csvPath, "utf8"));
  if (!parsed.ok) throw new Error(parsed.message);
  console.log(`  generated and parsed the CSV in ${seconds(performance.now() - t)} s (not counted)`);

  t = performance.now();
  const persistTo = path.join(tmp, "state");
  fs.mkdirSync(path.join(ROOT, "dist"), { recursive: true }); // wrangler serves ./dist as assets
  applyLocalMigrations(persistTo, true);
  seedLocal(persistTo, true, { KEY_ENCRYPTION_SECRET: VARS.KEY_ENCRYPTION_SECRET });
  const port = await freePort(Number(values.port));
  children.push(startWorker({ port, persistTo, vars: VARS, silent: true }));
  const base = `http://127.0.0.1:${port}`;
  if (!(await waitUntil(httpOk(`${base}/api/health`), 90_000))) throw new Error("wrangler dev did not become healthy");
  const cookie = await signIn(base);
  console.log(`  stack up on port ${port} and signed in as the dev admin in ${seconds(performance.now() - t)} s (not counted)`);

  let stored = 0;
  let failed = 0;
  const start = performance.now();
  for (let offset = 0; offset < parsed.rows.length; offset += CHUNK) {
    const chunkStart = performance.now();
    const res = await fetch(`${base}/api/admin/addresses/bulk`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ rows: parsed.rows.slice(offset, offset + CHUNK) }),
    });
    if (!res.ok) throw new Error(`chunk at row ${offset}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as BulkUploadResponse;
    stored += body.summary.succeeded;
    failed += body.summary.failed;
    const done = offset + body.summary.total;
    process.stdout.write(`\r  ${fmt(done)} / ${fmt(ROWS)} rows  (last chunk ${Math.round(performance.now() - chunkStart)} ms)   `);
  }
  const elapsed = performance.now() - start;
  process.stdout.write("\n");

  const stats = (await (await fetch(`${base}/api/admin/stats`, { headers: { cookie } })).json()) as { totalListings: number };
  console.log(`  stored ${fmt(stored)} listings (${failed} refused); the admin stats count ${fmt(stats.totalListings)} listings`);
  console.log(`  ${fmt(ROWS)} rows in ${seconds(elapsed)} s: ${fmt(ROWS / (elapsed / 1000))} rows/s (ownership proof, rarity, sealing and inserts included)`);
  console.log(`  goal: ${fmt(ROWS)} rows in under ${GOAL_SECONDS} s: ${stored === ROWS && elapsed < GOAL_SECONDS * 1000 ? "met" : "NOT met"}`);
  if (stored !== ROWS) process.exitCode = 1;
}

try {
  await main();
} catch (err) {
  console.error(`bench:bulk failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  cleanup();
}
