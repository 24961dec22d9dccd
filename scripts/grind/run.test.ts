// The grind loop's guard: a match whose key does not give the reported address, or whose address does not
// match the pattern, is never written; from the GPU it is reported as a kernel fault (exit 3).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import type { GrindOptions } from "./args.ts";
import { CSV_HEADER, readRows } from "./csv.ts";
import { grindToCsv } from "./run.ts";
import type { SearchSource } from "./search-source.ts";
import type { Found } from "./types.ts";
import { ethereumAddressFromPrivateKey } from "./verify.ts";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { solanaSecretKey } from "../../gpu/solana-grinder.ts";
import type { BulkUploadResponse } from "../../schema/listings";
import type { SealedRow } from "../../schema/sealed-intake";
import { currentIntakeKey, IntakeOpener } from "../../worker/vault/intake.ts";
import { type IntakeApi, SealedLister } from "./list.ts";

const dir = mkdtempSync(join(tmpdir(), "grind-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** A search that reports the given matches once started, as the GPU loop would. */
function fakeSource(kind: "cpu" | "gpu", found: Found[]): SearchSource & { stopped: boolean } {
  const source = {
    kind,
    description: `fake ${kind}`,
    stopped: false,
    start(events: Parameters<SearchSource["start"]>[0]) {
      events.ready();
      setTimeout(() => {
        events.attempts(1000);
        for (const f of found) if (!source.stopped) events.found(f);
      }, 10);
    },
    stop() {
      source.stopped = true;
    },
  };
  return source;
}

/** A key whose address starts with "a" (found by counting up: a test fixture, not a search). */
function keyWithPrefix(prefix: string, from: number): { privateKey: string; address: string } {
  for (let i = from; ; i++) {
    const privateKey = "0x" + i.toString(16).padStart(64, "0");
    const address = ethereumAddressFromPrivateKey(privateKey);
    if (address.slice(2).toLowerCase().startsWith(prefix)) return { privateKey, address };
  }
}

function options(out: string, spec: GrindOptions["spec"] = { network: "ethereum", prefix: "a", suffix: "", caseSensitive: false }): GrindOptions {
  return {
    spec,
    count: 2,
    threads: 1,
    gpu: "on",
    out,
    list: false,
    api: "http://127.0.0.1:8787/",
    append: false,
    force: false,
    quiet: true,
  };
}

async function grind(kind: "cpu" | "gpu", found: Found[], out: string, spec?: GrindOptions["spec"]) {
  const err: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    err.push(String(chunk));
    return true;
  });
  const source = fakeSource(kind, found);
  const code = await grindToCsv(options(out, spec), source);
  vi.restoreAllMocks();
  return { code, stderr: err.join(""), stopped: source.stopped };
}

describe("grindToCsv", () => {
  const good = keyWithPrefix("a", 1);
  const other = keyWithPrefix("a", Number(BigInt(good.privateKey)) + 1);
  const noMatch = keyWithPrefix("b", 1);

  it("writes verified rows, one per address", async () => {
    const out = join(dir, "good.csv");
    const r = await grind("gpu", [good, good, other], out);
    expect(r.code).toBe(0);
    expect(readRows(out).map((row) => row.address)).toEqual([good.address, other.address]);
  });

  it("a GPU hit whose key gives another address is a kernel fault: exit 3, nothing written for it", async () => {
    const out = join(dir, "wrong-key.csv");
    const r = await grind("gpu", [good, { address: other.address, privateKey: noMatch.privateKey }], out);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("BUG: GPU kernel fault: a reported hit does not verify, nothing written for this key");
    expect(r.stopped).toBe(true);
    expect(readRows(out).map((row) => row.address)).toEqual([good.address]);
    expect(readFileSync(out, "utf8")).not.toContain(noMatch.privateKey.slice(2));
  });

  it("a GPU hit whose (true) address does not match the pattern is a kernel fault too", async () => {
    const out = join(dir, "no-match.csv");
    const r = await grind("gpu", [noMatch], out);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("GPU kernel fault");
    expect(readFileSync(out, "utf8")).toBe(CSV_HEADER + "\n");
  });

  it("from the CPU the same failure reads as a verification failure", async () => {
    const out = join(dir, "cpu.csv");
    const r = await grind("cpu", [{ address: good.address, privateKey: other.privateKey }], out);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("BUG: verification failed");
  });

  it("a Solana GPU hit whose public key is not the one its seed gives is a kernel fault: exit 3, not written", async () => {
    // as gpu-source.ts reports a Solana hit: the address and the secret key are built from the GPU's public key
    const seed = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
    const wrong = ed25519.getPublicKey(Uint8Array.from({ length: 32 }, (_, i) => 200 - i));
    // a pattern the reported address matches: only the key is wrong
    const spec = { network: "solana" as const, prefix: "", suffix: base58.encode(wrong).slice(-1), caseSensitive: true };
    const out = join(dir, "solana-wrong-key.csv");
    const r = await grind("gpu", [{ address: base58.encode(wrong), privateKey: solanaSecretKey({ seed, publicKey: wrong }) }], out, spec);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("BUG: GPU kernel fault: a reported hit does not verify");
    expect(r.stderr).toContain("embedded public key does not match the seed");
    expect(readFileSync(out, "utf8")).toBe(CSV_HEADER + "\n");
  });
});

describe("--list: verified rows sealed to the intake key, nothing of a key on disk", () => {
  const vault = { KEY_ENCRYPTION_SECRET: "grinder-test-intake-secret-0123456789abcdef" };
  const good = keyWithPrefix("a", 1);
  const other = keyWithPrefix("a", Number(BigInt(good.privateKey)) + 1);

  /** The route's first step as the Worker takes it (the real intake key and opener); `down` calls fail. */
  async function marketplace(down = 0) {
    const opener = await IntakeOpener.of(vault);
    const received: { sealed: SealedRow; plain: Record<string, string> }[] = [];
    let failures = down;
    const api: IntakeApi = {
      intakeKey: () => currentIntakeKey(vault),
      async uploadSealed(rows): Promise<BulkUploadResponse> {
        if (failures-- > 0) throw new Error("connection refused");
        const results: BulkUploadResponse["results"] = [];
        for (const [index, sealed] of rows.entries()) {
          const opened = await opener.open(sealed);
          if (!opened.ok) throw new Error(opened.message);
          received.push({ sealed, plain: JSON.parse(new TextDecoder().decode(opened.plain)) });
          results.push({ index, status: "success", id: received.length, address: "", price: "0.00001", currency: "ETH", rarityScore: "1" });
        }
        return { results, summary: { total: rows.length, succeeded: rows.length, failed: 0 } };
      },
    };
    return { api, received };
  }

  async function grindListing(api: IntakeApi, found: Found[], work: string) {
    const err: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      err.push(String(chunk));
      return true;
    });
    const lister = await SealedLister.connect(api, (line) => process.stderr.write(`${line}\n`), 1);
    const code = await grindToCsv({ ...options(""), out: null, list: true }, fakeSource("gpu", found), lister, join(work, "unsent.json"));
    vi.restoreAllMocks();
    return { code, stderr: err.join("") };
  }

  it("each verified row reaches the marketplace sealed, opens there to the same row, and no file is written", async () => {
    const work = mkdtempSync(join(dir, "list-"));
    const { api, received } = await marketplace();
    const r = await grindListing(api, [good, good, other], work);
    expect(r.code).toBe(0);
    expect(received.map((x) => [x.plain.address, x.plain.private_key])).toEqual([
      [good.address, good.privateKey],
      [other.address, other.privateKey],
    ]);
    // what travelled is sealed: no key in it; each row has its own enc
    for (const { sealed } of received) expect(JSON.stringify(sealed)).not.toContain(good.privateKey.slice(2, 20));
    expect(new Set(received.map((x) => x.sealed.enc)).size).toBe(2);
    expect(readdirSync(work)).toEqual([]);
    expect(r.stderr).toContain("listed 2, refused 0, unsent 0");
  });

  it("rows the marketplace cannot take stay sealed in the unsent file (exit 1), never in plain text", async () => {
    const work = mkdtempSync(join(dir, "list-down-"));
    const { api, received } = await marketplace(Infinity);
    const r = await grindListing(api, [good, other], work);
    expect(r.code).toBe(1);
    expect(received).toEqual([]);
    const kept = readFileSync(join(work, "unsent.json"), "utf8");
    expect(kept).not.toContain(good.privateKey.slice(2, 20));
    expect(kept).not.toContain(other.privateKey.slice(2, 20));
    const { rows } = JSON.parse(kept) as { rows: SealedRow[] };
    expect(rows).toHaveLength(2);
    // the kept rows are the route's body: they open once the marketplace is back
    const opener = await IntakeOpener.of(vault);
    for (const row of rows) expect((await opener.open(row)).ok).toBe(true);
    expect(r.stderr).toContain("kept 2 sealed row(s)");
  });
});
