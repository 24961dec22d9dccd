// npm run grind -- --supply's loop (supply.ts) against a marketplace that answers as the /api/supply routes do
// (worker/routes/supply.ts, tested with real D1 in the supply block of worker/test/custom-order-claims.test.ts),
// opening each sealed row with the Worker's own intake opener: it claims, grinds the target's pattern on a real CPU
// thread, seals every verified hit and lists it under the claim, stops when the server says the target needs no
// more, gives way when an order waits, and keeps a hit it could not list sealed, never in plain text.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { privateKeyToAddress } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import type { SealedRow } from "../../schema/sealed-intake";
import type { SupplyClaimView, SupplySealedAnswer } from "../../schema/supply";
import { currentIntakeKey, IntakeOpener } from "../../worker/vault/intake.ts";
import { OrdersApiError } from "./orders-api.ts";
import { grindClaim, runSupply, type SupplyApi } from "./supply.ts";

const dir = mkdtempSync(join(tmpdir(), "grind-supply-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const vault = { KEY_ENCRYPTION_SECRET: "grinder-supply-test-secret-0123456789abcdef" };

const target = (prefix: string, shortfall: number, id = 1): SupplyClaimView => ({
  id,
  targetId: 7,
  network: "ethereum",
  category: "leading-zeros",
  patternLength: prefix.length,
  prefix,
  suffix: "",
  caseSensitive: false,
  price: "0.05",
  currency: "ETH",
  shortfall,
  expectedAttempts: String(16 ** prefix.length),
});

/**
 * A marketplace with one claim to hand out: it opens sealed rows with the real intake opener, checks each key
 * derives its address and matches the target, and says stop once `wanted` are listed. `failUploads`: that many
 * sealed uploads fail as a dropped connection would.
 */
async function marketplace(claim: SupplyClaimView, wanted: number, o: { failUploads?: number; progress?: (n: number) => "go" | "stop" | "lost" } = {}) {
  const opener = await IntakeOpener.of(vault);
  const listed: { address: string; privateKey: string }[] = [];
  const reports: number[] = [];
  let handedOut = false;
  let failures = o.failUploads ?? 0;
  const api: SupplyApi = {
    intakeKey: () => currentIntakeKey(vault),
    async supplyClaim() {
      const answer = handedOut ? null : claim;
      handedOut = true;
      return { claim: answer, leaseSeconds: 120 };
    },
    async supplyProgress(id, attempts) {
      expect(id).toBe(claim.id);
      reports.push(attempts);
      const said = o.progress?.(attempts);
      if (said === "lost") throw new OrdersApiError(409, `supply claim ${id} is expired; claim again`);
      return { continue: said !== "stop", leaseSeconds: 120 };
    },
    async supplySealed(id, rows: SealedRow[]): Promise<SupplySealedAnswer> {
      if (failures-- > 0) throw new Error("connection refused");
      expect(id).toBe(claim.id);
      const results: SupplySealedAnswer["results"] = [];
      for (const [index, row] of rows.entries()) {
        const opened = await opener.open(row);
        if (!opened.ok) throw new Error(opened.message);
        const plain = JSON.parse(new TextDecoder().decode(opened.plain)) as { address: string; private_key: string; platform: string };
        expect(privateKeyToAddress(plain.private_key as `0x${string}`)).toBe(plain.address);
        expect(plain.address.slice(2).toLowerCase().startsWith(claim.prefix)).toBe(true);
        listed.push({ address: plain.address, privateKey: plain.private_key });
        results.push({ index, status: "success", id: listed.length, address: plain.address, price: claim.price, currency: "ETH", rarityScore: "3" });
      }
      return { results, continue: listed.length < wanted };
    },
    async supplyRelease() {
      return { success: true };
    },
  };
  return { api, listed, reports };
}

const lines: string[] = [];
const options = { threads: 1, once: true, pollSeconds: 1, quiet: true };

describe("npm run grind -- --supply", () => {
  it("claims, grinds the target's pattern on the CPU, lists each verified hit sealed until the target is full, then finds no work and exits 0", async () => {
    const m = await marketplace(target("00", 2), 2);
    const unsentPath = join(dir, "unsent-1.json");
    const code = await runSupply({ options, api: m.api, gpu: null, log: (l) => lines.push(l), unsentPath });
    expect(code).toBe(0);
    expect(m.listed).toHaveLength(2);
    expect(new Set(m.listed.map((r) => r.address)).size).toBe(2);
    expect(existsSync(unsentPath)).toBe(false);
    expect(lines.join("\n")).toMatch(/the target needs no more; claiming again[\s\S]*done: no target wants work now/);
  }, 60_000);

  it("stops grinding when a progress report says the target is full or the claim is no longer its own", async () => {
    for (const said of ["stop", "lost"] as const) {
      // Ten zeros: never found in this test's time, so only the report can end the claim.
      const m = await marketplace(target("0000000000", 1), 1, { progress: (n) => (n > 0 ? said : "go") });
      const code = await runSupply({ options, api: m.api, gpu: null, log: (l) => lines.push(l), progressEveryMs: 200 });
      expect(code, said).toBe(0);
      expect(m.listed).toHaveLength(0);
      expect(m.reports.some((n) => n > 0)).toBe(true);
    }
  }, 60_000);

  it("keeps a hit it could not list sealed in a file (the key never in plain text) and stops with the reason", async () => {
    const m = await marketplace(target("0", 1), 1, { failUploads: 5 });
    const unsentPath = join(dir, "unsent-2.json");
    const run = runSupply({ options, api: m.api, gpu: null, log: (l) => lines.push(l), unsentPath, uploadAttempts: 2, retryMs: 10 });
    await expect(run).rejects.toThrow(/could not list 0x0[0-9a-fA-F]{39} \(connection refused\); kept sealed in/);
    const kept = JSON.parse(readFileSync(unsentPath, "utf8")) as { rows: SealedRow[] };
    expect(kept.rows).toHaveLength(1);
    const opened = await (await IntakeOpener.of(vault)).open(kept.rows[0]);
    expect(opened.ok).toBe(true);
    expect(readFileSync(unsentPath, "utf8")).not.toMatch(/private_key|0x[0-9a-f]{64}/);
  }, 60_000);

  it("gives way when asked after a report: the order grinder stops a supply claim as soon as a custom order waits", async () => {
    const m = await marketplace(target("0000000000", 1), 1);
    let asked = 0;
    const interrupt = async () => ++asked >= 2;
    const key = await currentIntakeKey(vault);
    const outcome = await grindClaim(
      { options, api: m.api, gpu: null, log: (l) => lines.push(l), progressEveryMs: 200, interrupt },
      target("0000000000", 1),
      key,
    );
    expect(outcome).toBe("interrupted");
    expect(asked).toBe(2);
    expect(m.reports.length).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
