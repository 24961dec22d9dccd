// The grinder against the real stack: a buyer (signed in with SIWE, as the page would) orders a short pattern
// with only A; `npm run grind -- --orders --once` signs in as the local admin, takes the order, searches
// from A and submits k; the server accepts it and the buyer's order shows the address (offset still hidden).
// With the secret (which only the test, playing the buyer, holds) the final key derives that address. And
// `npm run grind -- --list`: found keys sealed to the intake key and listed, with nothing written to disk.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from "viem/accounts";
import { describe, expect, inject, it } from "vitest";
import { getPlatformProxy } from "wrangler";
import { addressMatchesOrder } from "../schema/custom-order-pattern";
import { finalPrivateKey, publicKeyOf, randomSecret } from "../schema/split-key";
import { apiAt } from "./api-session";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function foundOffset(id: number): Promise<{ found_offset: string; found_variant: number }> {
  const proxy = await getPlatformProxy<Record<string, unknown>>({
    configPath: path.join(ROOT, "wrangler.toml"),
    persist: { path: path.join(inject("persistTo"), "v3") },
    remoteBindings: false,
  });
  try {
    type Db = { prepare: (sql: string) => { bind: (...v: unknown[]) => { first: <T>() => Promise<T | null> } } };
    const row = await (proxy.env.DB as Db)
      .prepare("SELECT found_offset, found_variant FROM custom_orders WHERE id = ?")
      .bind(id)
      .first<{ found_offset: string; found_variant: number }>();
    return row!;
  } finally {
    await proxy.dispose();
  }
}

const CLI = fileURLToPath(new URL("../scripts/grind/cli.ts", import.meta.url));
/** tsx by its file URL: the child may run in another folder, where a bare "tsx" would not resolve. */
const TSX = new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url).href;

async function signIn(baseUrl: string, key: `0x${string}`): Promise<string> {
  const account = privateKeyToAccount(key);
  const api = apiAt(baseUrl);
  const message = (await (await api.auth.nonce.$post({ json: { network: "ethereum", address: account.address } })).json()).message!;
  const res = await api.auth.verify.$post({ json: { network: "ethereum", message, signature: await account.signMessage({ message }) } });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie()[0].split(";")[0];
}

/**
 * `npm run grind -- --orders --once` as a child, waited for without blocking this process: a blocked event loop
 * would miss the server closing idle kept-alive connections, and the next fetch would be sent on a dead one.
 */
function grindOnce(baseUrl: string, args = ["--orders", "--once"], cwd = ROOT): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", TSX, CLI, ...args, "--api", baseUrl, "--threads", "1", "--quiet"], {
      cwd,
      env: { ...process.env, GRINDER_ADMIN_KEY: "" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stderr });
    });
  });
}

describe("npm run grind -- --orders", () => {
  it("fills a waiting order from the buyer's public key; the final key derives the found address", async () => {
    const baseUrl = inject("baseUrl");
    // a buyer of its own: the shared dev buyer may hold orders other journeys left unfinished (3 at most per buyer)
    const cookie = await signIn(baseUrl, generatePrivateKey());
    const pattern = { prefix: "b0", suffix: "", caseSensitive: false };
    const buyer = apiAt(baseUrl, { cookie });
    const quote = await (await buyer["custom-orders"].quote.$get({ query: { prefix: "b0" } })).json();
    const secret = randomSecret();
    const placed = await buyer["custom-orders"].$post({ json: { ...pattern, publicKey: publicKeyOf(secret), price: quote.price } });
    expect(placed.status).toBe(201);
    const order = await placed.json();

    const run = await grindOnce(baseUrl);
    expect(run.stderr).toContain(`order ${order.id}: found`);
    expect(run.status).toBe(0);

    const after = await (await buyer["custom-orders"][":id"].$get({ param: { id: String(order.id) } })).json();
    expect(after.status).toBe("found");
    expect(after.offset).toBeNull();
    expect(addressMatchesOrder(pattern, after.address!)).toBe(true);
    // The offset is revealed to the buyer only after payment (not built yet); the test, playing the buyer's
    // browser, reads it from D1 to prove the grinder's (k, variant) completes the buyer's key.
    const row = await foundOffset(order.id);
    const key = finalPrivateKey(secret, BigInt(row.found_offset), row.found_variant);
    expect(privateKeyToAddress(key as `0x${string}`)).toBe(after.address);
  }, 150_000);
});

describe("npm run grind -- --list", () => {
  it("lists each found key sealed to the intake key, and writes nothing to disk", async () => {
    const baseUrl = inject("baseUrl");
    const work = mkdtempSync(path.join(tmpdir(), "grind-list-"));
    try {
      // Three characters: a pattern the store lists without a confirmation (one character is "no notable pattern").
      const run = await grindOnce(baseUrl, ["--list", "--network", "ethereum", "--prefix", "abc", "--count", "2"], work);
      expect(run.stderr).toContain("listed 2, refused 0, unsent 0");
      expect(run.status).toBe(0);
      expect(readdirSync(work)).toEqual([]);
      const ids = [...run.stderr.matchAll(/listed (0x[0-9a-fA-F]{40}) as listing #(\d+)/g)];
      expect(ids).toHaveLength(2);
      for (const [, address, id] of ids) {
        const listing = await (await apiAt(baseUrl).addresses[":id"].$get({ param: { id } })).json();
        expect(listing).toMatchObject({ address, network: "ethereum", status: "active" });
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 150_000);
});
