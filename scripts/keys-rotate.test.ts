// The keys:rotate command: argument and secret checks, and one end-to-end run of the real CLI against a
// throw-away local D1 (the rotation logic itself is tested in workerd: worker/test/vault-rotate.test.ts).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPlatformProxy } from "wrangler";
import { addresses, encryptedKeys } from "../schema/db";
import { createDb } from "../worker/db/database";
import { openKey, sealKey, VaultError } from "../worker/vault";
import { parseRotateArgs, UsageError } from "./keys-rotate";
import { applyLocalMigrations, ROOT, STACK_ENV } from "./stack";

const OLD = "cli-rotation-old-secret-0123456789abcdef";
const NEW = "cli-rotation-new-secret-0123456789abcdef";
const SECRETS = { OLD_KEY_ENCRYPTION_SECRET: OLD, NEW_KEY_ENCRYPTION_SECRET: NEW };

describe("parseRotateArgs", () => {
  it("reads secrets from the environment and options from argv", () => {
    expect(parseRotateArgs(["--persist-to", "/tmp/x", "--batch-size", "50", "--limit", "0", "--to-version", "3"], SECRETS)).toMatchObject({
      oldSecret: OLD,
      newSecret: NEW,
      persistTo: "/tmp/x",
      remote: false,
      batchSize: 50,
      limit: 0,
      targetVersion: 3,
    });
    expect(parseRotateArgs(["--help"], {})).toBe("help");
  });

  it("refuses missing, short or identical secrets and bad options, without echoing a secret", () => {
    const cases: [string[], Partial<Record<string, string>>, RegExp][] = [
      [[], {}, /OLD_KEY_ENCRYPTION_SECRET must be set/],
      [[], { ...SECRETS, NEW_KEY_ENCRYPTION_SECRET: "short" }, /NEW_KEY_ENCRYPTION_SECRET must be set to at least 32/],
      [[], { ...SECRETS, NEW_KEY_ENCRYPTION_SECRET: OLD }, /are the same/],
      [["--batch-size", "0"], SECRETS, /--batch-size needs an integer of at least 1/],
      [["--batch-size", "501"], SECRETS, /at most 500/],
      [["--limit", "-3"], SECRETS, /--limit needs an integer/],
      [["--to-version", "1"], SECRETS, /at least 2/],
      [["--persist-to"], SECRETS, /--persist-to needs a value/],
      [["--remote", "--persist-to", "/tmp/x"], SECRETS, /cannot be combined/],
      [["--old-secret", OLD], SECRETS, /Unknown option --old-secret/],
    ];
    for (const [argv, env, message] of cases) {
      let err: unknown;
      try {
        parseRotateArgs(argv, env);
      } catch (e) {
        err = e;
      }
      expect(err, argv.join(" ")).toBeInstanceOf(UsageError);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).not.toContain(OLD);
    }
  });
});

describe("npm run keys:rotate on a local D1", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keys-rotate-"));
  const seeded = Array.from({ length: 5 }, (_, i) => ({
    listingId: i + 1,
    address: `0x${(i + 1).toString(16).padStart(40, "0")}`,
    privateKey: `0x${String(i + 1)
      .repeat(64)
      .slice(0, 64)}`,
  }));
  const proxy = () => getPlatformProxy<Env>({ configPath: path.join(ROOT, "wrangler.toml"), persist: { path: path.join(dir, "v3") }, remoteBindings: false });
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "keys-rotate.ts"), "--persist-to", dir, ...args], {
      cwd: ROOT,
      env: { ...STACK_ENV, ...SECRETS },
      encoding: "utf8",
    });

  beforeAll(async () => {
    applyLocalMigrations(dir, true);
    const p = await proxy();
    try {
      const db = createDb(p.env.DB);
      for (const s of seeded) {
        await db.insert(addresses).values({ id: s.listingId, address: s.address, network: "ethereum", price: "1", priceUnits: 100_000_000, currency: "ETH" });
        await db.insert(encryptedKeys).values({ addressId: s.listingId, ...(await sealKey({ secret: OLD, ...s })) });
      }
    } finally {
      await p.dispose();
    }
  }, 120_000);

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("rotates in an interrupted and a resumed run, reports counts, then has nothing left to do", { timeout: 120_000 }, async () => {
    const first = cli("--limit", "2", "--batch-size", "2");
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain("key version 2: rotated 2, skipped 0, failed 0");
    expect(first.stdout).toContain("stopped at --limit");

    const second = cli();
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toContain("key version 2: rotated 3, skipped 2, failed 0");

    const third = cli();
    expect(third.stdout).toContain("rotated 0, skipped 5, failed 0");
    for (const out of [first, second, third]) expect(out.stdout + out.stderr).not.toMatch(new RegExp(`${OLD}|${NEW}|${seeded[0].privateKey}`));

    const p = await proxy();
    try {
      const rows = await createDb(p.env.DB).select().from(encryptedKeys).orderBy(encryptedKeys.addressId);
      for (const [i, s] of seeded.entries()) {
        expect(await openKey({ secret: NEW, ...s, record: rows[i] })).toBe(s.privateKey);
        await expect(openKey({ secret: OLD, ...s, record: rows[i] })).rejects.toBeInstanceOf(VaultError);
      }
    } finally {
      await p.dispose();
    }
  });

  // Spawns node with tsx (about 1 s on a quiet machine, near 5 s on a loaded one, past 30 s under several suites at
  // once): a generous limit, not a speed check.
  it("exits 2 with the usage text when a secret is missing, and touches nothing", { timeout: 120_000 }, () => {
    const res = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "keys-rotate.ts"), "--persist-to", dir], {
      cwd: ROOT,
      env: { ...STACK_ENV, OLD_KEY_ENCRYPTION_SECRET: OLD, NEW_KEY_ENCRYPTION_SECRET: "" },
      encoding: "utf8",
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain("NEW_KEY_ENCRYPTION_SECRET must be set");
    expect(res.stderr).toContain("Usage:");
  });
});
