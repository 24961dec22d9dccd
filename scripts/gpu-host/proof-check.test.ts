// proof-check.mjs's verdict on proof logs in the CLI's own format: found within 10% of attempts × probability
// passes (exit 0), a GPU that misses a fifth of its matches fails (exit 1), and so does a run that never finished.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CHECK = fileURLToPath(new URL("./proof-check.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "proof-check-"));
const PER_MATCH = 16_777_216;
const RATE = 2_700_000_000;
const int = (n: number) => Math.round(n).toLocaleString("en-US");

/** A proof log of `seconds` progress lines where the GPU reports `share` of the matches its attempts hold. */
function proofLog(share: number, seconds = 7, finished = true): string {
  const lines = [`grinding ethereum suffix=000000 (suffix): 1000 to find, GPU test, 131,072 invocations, ~${int(PER_MATCH)} attempts per match`];
  for (let s = 1; s <= seconds; s++) {
    const attempts = RATE * s;
    lines.push(
      `${s}.0s | ${int(RATE)} keys/s | attempts ${int(attempts)} | found ${Math.floor((attempts / PER_MATCH) * share)}/1000 | expected ${int(PER_MATCH)}/match | ETA ~1s`,
    );
  }
  const attempts = RATE * (seconds + 0.5);
  if (finished) lines.push(`done: 1000/1000 written to /tmp/x.csv in ${seconds}.5s, ${int(attempts)} attempts (${int(RATE)} keys/s)`);
  return `${lines.join("\n")}\n`;
}

function check(log: string) {
  const path = join(dir, `proof-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(path, log);
  const r = spawnSync(process.execPath, [CHECK, path], { encoding: "utf8", timeout: 30_000 });
  return { status: r.status, verdict: r.stdout.split("\n").find((l) => l.startsWith("proof: verdict")) ?? "" };
}

describe("proof-check.mjs", () => {
  it("passes a run whose hits are within 10% of attempts × probability", () => {
    const r = check(proofLog(0.97));
    expect(r.verdict).toMatch(/^proof: verdict PASS: \d+ found, [\d,.]+ expected \(-3\.\d%, limit ±10%\)$/);
    expect(r.status).toBe(0);
  });

  it("fails a run that finds a fifth fewer (a GPU that drops matches), with exit status 1", () => {
    const r = check(proofLog(0.8));
    expect(r.verdict).toMatch(/^proof: verdict FAIL: \d+ found, [\d,.]+ expected \(-20\.\d%, limit ±10%\)$/);
    expect(r.status).toBe(1);
  });

  it("fails a run that never finished", () => {
    const r = check(proofLog(1, 3, false));
    expect(r.verdict).toBe("proof: verdict FAIL: no result to check (the run did not finish: see the log above)");
    expect(r.status).toBe(1);
  });
});
