// The grind loop's guard: a match whose key does not give the reported address, or whose address does not
// match the pattern, is never written; from the GPU it is reported as a kernel fault (exit 3).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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
