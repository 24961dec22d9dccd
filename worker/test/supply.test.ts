// Supply targets and grinders' claims, through the real Worker and D1 (docs/supply.md): admins only; bad input is
// a 400 that changes nothing; the bounds on targets and on open claims per target and per grinder hold for grinders
// claiming at once; a claim without reports is closed by the cron job; stock is counted from matching active
// listings, and a sealed hit listed under a claim is one of them, at the target's price.
import { env } from "cloudflare:test";
import { privateKeyToAddress } from "viem/accounts";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type SealedRow, sealIntakeRow } from "../../schema/sealed-intake";
import {
  MAX_OPEN_CLAIMS_PER_TARGET,
  MAX_SUPPLY_TARGETS,
  MAX_SUPPLY_WANTED,
  SUPPLY_CLAIM_FORGET_MS,
  SUPPLY_CLAIM_LEASE_MS,
  type SupplyClaimAnswer,
  type SupplyProgressAnswer,
  type SupplySealedAnswer,
  type SupplyTargetList,
  type SupplyTargetView,
} from "../../schema/supply";
import { createDb } from "../db/database";
import { runScheduledJobs } from "../jobs/scheduled";
import { runSupplyJob } from "../supply/claims";
import { currentIntakeKey } from "../vault/intake";
import { client, refusal, unchecked } from "./client";
import { bulkRow, type Caller, ethKey, signInAll } from "./listing-fixtures";

let admin: Caller;
let user: Caller;
beforeAll(async () => {
  ({ admin, user } = await signInAll());
});

const FAKE = "supply-fake-";
beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM supply_claims"),
    env.DB.prepare("DELETE FROM supply_targets"),
    env.DB.prepare(`DELETE FROM addresses WHERE address LIKE '${FAKE}%'`),
  ]);
});

const G1 = "grinder-one-aaaaaaaaaa";
const G2 = "grinder-two-bbbbbbbbbb";
const api = (caller?: Caller) => client(caller).supply;
const ethTarget = { network: "ethereum", category: "trailing-zeros", patternLength: 5, price: "0.05", wanted: 3 };

async function create(body: Record<string, unknown> = ethTarget): Promise<SupplyTargetView> {
  const res = await api(admin).targets.$post({ json: unchecked(body) });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json() as Promise<SupplyTargetView>;
}
const list = async (): Promise<SupplyTargetList> => (await api(admin).targets.$get()).json();
const claim = async (grinder: string, caller = admin) =>
  (await (await api(caller).claims.$post({ json: { grinder, label: "CPU, 1 thread" } })).json()) as SupplyClaimAnswer;
const progress = (id: number, body: Record<string, unknown>, caller = admin) =>
  api(caller).claims[":id{[0-9]+}"].progress.$post({ param: { id: String(id) }, json: unchecked(body) });
const claimRow = (id: number) => env.DB.prepare("SELECT status, attempts, rate, listed, expires_at FROM supply_claims WHERE id = ?").bind(id).first();
const tables = async () =>
  JSON.stringify(
    (await env.DB.batch([env.DB.prepare("SELECT * FROM supply_targets ORDER BY id"), env.DB.prepare("SELECT * FROM supply_claims ORDER BY id")])).map(
      (r) => r.results,
    ),
  );

let fakeCount = 0;
/** A listing row as the import would store it, for stock counting (no key: it is never sold here). */
async function fakeListing(fields: { network?: string; category?: string; patternLength?: number; status?: string; isListed?: number } = {}) {
  const f = { network: "ethereum", category: "trailing-zeros", patternLength: 5, status: "active", isListed: 1, ...fields };
  await env.DB.prepare(
    "INSERT INTO addresses (address, network, price, price_units, currency, category, pattern_length, status, is_listed) VALUES (?, ?, '1', 100000000, ?, ?, ?, ?, ?)",
  )
    .bind(`${FAKE}${++fakeCount}`, f.network, f.network === "ethereum" ? "ETH" : "SOL", f.category, f.patternLength, f.status, f.isListed)
    .run();
}

describe("who may call", () => {
  it("refuses every supply call without an admin session: 401 signed out, 403 for an ordinary wallet, nothing written", async () => {
    const before = await tables();
    expect((await api().targets.$get()).status).toBe(401);
    expect((await api(user).targets.$get()).status).toBe(403);
    expect((await api(user).targets.$post({ json: unchecked(ethTarget) })).status).toBe(403);
    expect((await api(user).claims.$post({ json: { grinder: G1, label: "x" } })).status).toBe(403);
    expect((await progress(1, { grinder: G1, attempts: 1, rate: 1 }, user)).status).toBe(403);
    expect((await api(user).targets[":id{[0-9]+}"].$delete({ param: { id: "1" } })).status).toBe(403);
    expect(await tables()).toBe(before);
  });
});

describe("targets", () => {
  it("refuses bad input with 400 and the reason, and writes nothing", async () => {
    await create();
    const before = await tables();
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ ...ethTarget, network: "bitcoin" }, /network must be ethereum or solana/],
      [{ ...ethTarget, category: "palindrome" }, /category must be one of leading-zeros, trailing-zeros/],
      [{ ...ethTarget, patternLength: 2 }, /patternLength is out of range/],
      [{ ...ethTarget, patternLength: 13 }, /patternLength is out of range/],
      [{ ...ethTarget, network: "solana", category: "leading-zeros", patternLength: 7 }, /patternLength is out of range/],
      [{ ...ethTarget, patternLength: 4.5 }, /patternLength must be a whole number/],
      [{ ...ethTarget, price: "0" }, /price must be a positive decimal/],
      [{ ...ethTarget, price: "1.123456789" }, /price must be a positive decimal/],
      [{ ...ethTarget, price: 1 }, /price must be a decimal as text/],
      [{ ...ethTarget, wanted: 0 }, /wanted must be at least 1/],
      [{ ...ethTarget, wanted: MAX_SUPPLY_WANTED + 1 }, new RegExp(`wanted may be at most ${MAX_SUPPLY_WANTED}`)],
      [{ ...ethTarget, status: "paused" }, /only network, category, patternLength, price and wanted/],
    ];
    for (const [body, message] of bad) {
      const res = await api(admin).targets.$post({ json: unchecked(body) });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await refusal(res)).message).toMatch(message);
    }
    const [{ id }] = (await list()).targets;
    const target = api(admin).targets[":id{[0-9]+}"];
    for (const body of [{}, { wanted: 0 }, { price: "-1" }, { wanted: 5, network: "solana" }]) {
      const res = await target.$patch({ param: { id: String(id) }, json: unchecked(body) });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await target.$patch({ param: { id: "999999" }, json: { wanted: 5 } })).status).toBe(404);
    expect((await api(admin).targets[":id{[0-9]+}"].pause.$post({ param: { id: "999999" } })).status).toBe(404);
    expect(await tables()).toBe(before);
  });

  it("keeps one target per shape and at most MAX_SUPPLY_TARGETS, each refusal a 409 that writes nothing", async () => {
    const first = await create();
    const before = await tables();
    const dup = await api(admin).targets.$post({ json: unchecked({ ...ethTarget, price: "1", wanted: 9 }) });
    expect(dup.status).toBe(409);
    expect(await refusal(dup)).toMatchObject({ targetId: first.id });
    expect(await tables()).toBe(before);
    // Fill up to the cap (the rows alone: the valid shapes are fewer than the cap, which bounds categories to come).
    await env.DB.batch(
      Array.from({ length: MAX_SUPPLY_TARGETS - 1 }, (_, i) =>
        env.DB.prepare(
          "INSERT INTO supply_targets (network, category, pattern_length, price, price_units, currency, wanted, created_by, updated_at) VALUES ('ethereum', 'leading-zeros', ?, '1', 100000000, 'ETH', 1, ?, 0)",
        ).bind(100 + i, admin.userId),
      ),
    );
    const full = await tables();
    const res = await api(admin).targets.$post({ json: unchecked({ ...ethTarget, category: "leading-zeros" }) });
    expect(res.status).toBe(409);
    expect((await refusal(res)).message).toMatch(`at most ${MAX_SUPPLY_TARGETS} targets`);
    expect(await tables()).toBe(full);
  });

  it("edits, pauses (ending its claims), resumes and deletes; a repeated pause is a 409", async () => {
    const t = await create();
    const target = api(admin).targets[":id{[0-9]+}"];
    const edited = (await (await target.$patch({ param: { id: String(t.id) }, json: { price: "0.07", wanted: 10 } })).json()) as SupplyTargetView;
    expect(edited).toMatchObject({ price: "0.07", wanted: 10, status: "active" });
    const { claim: c1 } = await claim(G1);
    expect(c1?.targetId).toBe(t.id);
    expect((await target.pause.$post({ param: { id: String(t.id) } })).status).toBe(200);
    expect(await claimRow(c1!.id)).toMatchObject({ status: "ended" });
    const again = await target.pause.$post({ param: { id: String(t.id) } });
    expect(again.status).toBe(409);
    expect((await claim(G2)).claim).toBeNull();
    const resumed = (await (await target.resume.$post({ param: { id: String(t.id) } })).json()) as SupplyTargetView;
    expect(resumed.status).toBe("active");
    const { claim: c2 } = await claim(G2);
    expect(c2?.targetId).toBe(t.id);
    expect((await target.$delete({ param: { id: String(t.id) } })).status).toBe(200);
    expect((await list()).targets).toEqual([]);
    // The grinder learns at its next report that the claim is gone.
    expect((await progress(c2!.id, { grinder: G2, attempts: 10, rate: 5 })).status).toBe(404);
  });
});

describe("claims", () => {
  it("grinders claiming at once get at most MAX_OPEN_CLAIMS_PER_TARGET claims on a target; asking again gives the same claim", async () => {
    const t = await create({ ...ethTarget, wanted: 100 });
    const grinders = Array.from({ length: MAX_OPEN_CLAIMS_PER_TARGET + 2 }, (_, i) => `grinder-at-once-${String(i).padStart(6, "0")}`);
    const answers = await Promise.all(grinders.map((g) => claim(g)));
    const got = answers.filter((a) => a.claim !== null);
    expect(got).toHaveLength(MAX_OPEN_CLAIMS_PER_TARGET);
    expect(new Set(got.map((a) => a.claim!.id)).size).toBe(MAX_OPEN_CLAIMS_PER_TARGET);
    expect(got[0].claim).toMatchObject({ targetId: t.id, prefix: "", suffix: "00000", caseSensitive: false, price: "0.05", shortfall: 100 });
    expect(got[0].claim!.expectedAttempts).toBe(String(16 ** 5));
    const holder = grinders[answers.findIndex((a) => a.claim !== null)];
    const repeat = await claim(holder);
    expect(repeat.claim?.id).toBe(got[0].claim!.id);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM supply_claims WHERE status = 'open'").first<{ n: number }>();
    expect(n?.n).toBe(MAX_OPEN_CLAIMS_PER_TARGET);
  });

  it("a grinder holds one claim at a time, work goes to the target that lacks most, and a full target gets none", async () => {
    const small = await create({ ...ethTarget, wanted: 2 });
    const big = await create({ ...ethTarget, category: "leading-zeros", wanted: 10 });
    expect((await claim(G1)).claim?.targetId).toBe(big.id);
    expect((await claim(G1)).claim?.targetId).toBe(big.id);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM supply_claims WHERE grinder_id = ?").bind(G1).first()).toEqual({ n: 1 });
    // Stock of the small target reaches its wanted count: nobody is given work on it.
    await fakeListing();
    await fakeListing({ patternLength: 7 });
    await env.DB.prepare("UPDATE supply_targets SET wanted = 1 WHERE id = ?").bind(big.id).run();
    await fakeListing({ category: "leading-zeros" });
    expect((await claim(G2)).claim).toBeNull();
    expect((await list()).targets.find((x) => x.id === small.id)).toMatchObject({ stock: 2, secondsToFill: 0 });
  });

  it("refuses reports from another grinder or with bad figures, changing nothing; a report past a full target ends the claim", async () => {
    const t = await create({ ...ethTarget, wanted: 1 });
    const { claim: c } = await claim(G1);
    const before = await tables();
    expect((await progress(c!.id, { grinder: G2, attempts: 5, rate: 1 })).status).toBe(409);
    for (const body of [
      { grinder: G1, attempts: -1, rate: 1 },
      { grinder: G1, attempts: 1.5, rate: 1 },
      { grinder: G1, attempts: 1, rate: 1e13 },
      { grinder: G1, attempts: 1, rate: 1, extra: true },
      { grinder: "short", attempts: 1, rate: 1 },
    ]) {
      expect((await progress(c!.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await tables()).toBe(before);
    const ok = (await (await progress(c!.id, { grinder: G1, attempts: 5000, rate: 2500 })).json()) as SupplyProgressAnswer;
    expect(ok.continue).toBe(true);
    const shown = (await list()).targets.find((x) => x.id === t.id)!;
    expect(shown).toMatchObject({ rate: 2500, openClaims: 1, stock: 0 });
    expect(shown.secondsToFill).toBeCloseTo(16 ** 5 / 2500);
    await fakeListing();
    const stop = (await (await progress(c!.id, { grinder: G1, attempts: 6000, rate: 2500 })).json()) as SupplyProgressAnswer;
    expect(stop.continue).toBe(false);
    expect(await claimRow(c!.id)).toMatchObject({ status: "ended", attempts: 6000 });
    expect((await progress(c!.id, { grinder: G1, attempts: 7000, rate: 2500 })).status).toBe(409);
  });

  it("a claim without a report within its lease is expired by the cron job, and its place goes to another grinder", async () => {
    await create({ ...ethTarget, wanted: 100 });
    const holders = Array.from({ length: MAX_OPEN_CLAIMS_PER_TARGET }, (_, i) => `grinder-lapsing-${String(i).padStart(6, "0")}`);
    const claims = await Promise.all(holders.map((g) => claim(g)));
    expect((await claim(G2)).claim).toBeNull();
    // A cron run inside the lease leaves them open.
    expect((await runScheduledJobs(env, Date.now() + SUPPLY_CLAIM_LEASE_MS / 2)).supplyClaims).toEqual({ expired: 0, forgotten: 0 });
    const report = await runScheduledJobs(env, Date.now() + SUPPLY_CLAIM_LEASE_MS + 1000);
    expect(report.supplyClaims).toEqual({ expired: MAX_OPEN_CLAIMS_PER_TARGET, forgotten: 0 });
    for (const c of claims) expect(await claimRow(c.claim!.id)).toMatchObject({ status: "expired" });
    expect((await progress(claims[0].claim!.id, { grinder: holders[0], attempts: 1, rate: 1 })).status).toBe(409);
    expect((await claim(G2)).claim).not.toBeNull();
    // Closed claims are forgotten a week later (the supply task alone: a whole run that late would end the sessions).
    expect(await runSupplyJob(createDb(env.DB), Date.now() + SUPPLY_CLAIM_FORGET_MS + 2 * SUPPLY_CLAIM_LEASE_MS)).toEqual({
      expired: 1,
      forgotten: MAX_OPEN_CLAIMS_PER_TARGET,
    });
  });
});

describe("stock", () => {
  it("counts active listed listings of the target's network and category with at least its pattern length, nothing else", async () => {
    const t = await create({ ...ethTarget, wanted: 50 });
    await fakeListing();
    await fakeListing({ patternLength: 9 });
    await fakeListing({ patternLength: 4 }); // too short
    await fakeListing({ category: "leading-zeros" }); // another category
    await fakeListing({ network: "solana" }); // another network
    await fakeListing({ status: "sold" });
    await fakeListing({ status: "inactive" });
    await fakeListing({ isListed: 0 });
    const shown = (await list()).targets.find((x) => x.id === t.id)!;
    expect(shown).toMatchObject({ stock: 2, wanted: 50, rate: 0, openClaims: 0, secondsToFill: null });
  });
});

describe("sealed hits under a claim", () => {
  /** An Ethereum key whose address starts with `zeros` zeros after 0x (about 16^zeros tries). */
  function groundKey(zeros: number) {
    for (;;) {
      const k = ethKey();
      if (k.address.slice(2, 2 + zeros) === "0".repeat(zeros)) return k;
    }
  }
  const send = async (id: number, grinder: string, rows: SealedRow[]) => {
    const res = await api(admin).claims[":id{[0-9]+}"].sealed.$post({ param: { id: String(id) }, json: { grinder, rows } });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as SupplySealedAnswer;
  };

  it("lists a hit at the target's price, counts it in stock and ends the claim when the target is full; an off-target row is refused", async () => {
    const t = await create({ network: "ethereum", category: "leading-zeros", patternLength: 3, price: "0.0123", wanted: 1 });
    const { claim: c } = await claim(G1);
    const key = await currentIntakeKey(env);
    const stray = ethKey();
    const off = await send(c!.id, G1, [await sealIntakeRow(key, bulkRow(stray, 4))]);
    expect(off.results[0]).toMatchObject({ status: "error", reason: "off-target" });
    expect(off.continue).toBe(true);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM addresses WHERE address = ?").bind(stray.address).first()).toEqual({ n: 0 });
    // Another grinder may not list under this claim.
    const hit = groundKey(3);
    expect(privateKeyToAddress(hit.privateKey as `0x${string}`)).toBe(hit.address);
    const sealed = await sealIntakeRow(key, bulkRow(hit, 3));
    const stranger = await api(admin).claims[":id{[0-9]+}"].sealed.$post({ param: { id: String(c!.id) }, json: { grinder: G2, rows: [sealed] } });
    expect(stranger.status).toBe(409);
    const answer = await send(c!.id, G1, [sealed]);
    expect(answer.results[0]).toMatchObject({ status: "success", address: hit.address, price: "0.0123", currency: "ETH" });
    expect(answer.continue).toBe(false);
    expect(await claimRow(c!.id)).toMatchObject({ status: "ended", listed: 1 });
    const shown = (await list()).targets.find((x) => x.id === t.id)!;
    expect(shown.stock).toBeGreaterThanOrEqual(1);
    expect(shown.secondsToFill).toBe(0);
    const listing = await env.DB.prepare("SELECT category, pattern_length, status, price FROM addresses WHERE address = ?").bind(hit.address).first();
    expect(listing).toMatchObject({ category: "leading-zeros", status: "active", price: "0.0123" });
  });
});
