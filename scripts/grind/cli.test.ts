// End-to-end: runs the real CLI (worker threads included) on tiny patterns.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT_NO_GPU, parseCli } from "./args.ts";
import { CSV_HEADER, readRows } from "./csv.ts";
import { verifiedRow } from "./verify.ts";

const CLI = fileURLToPath(new URL("cli.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "grind-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function grind(...args: string[]) {
  return grindWith({}, ...args);
}

/** A GPU run compiles its kernel first: 10-60 s on SwiftShader, several minutes on a machine loaded by other work. */
const GPU_RUN_MS = 420_000;

function grindWith(env: Record<string, string>, ...args: string[]) {
  const timeout = args.includes("--gpu") ? GPU_RUN_MS : 120_000;
  const r = spawnSync(process.execPath, ["--import", "tsx", CLI, ...args], { encoding: "utf8", timeout, env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Vulkan finds no driver at all: Dawn has no adapter, as on a machine without a GPU or SwiftShader. */
const NO_VULKAN = { VK_ICD_FILENAMES: "/nonexistent/no-driver.json" };

describe("npm run grind", () => {
  it("grinds Ethereum with 2 threads and writes rows that verify", () => {
    const out = join(dir, "eth.csv");
    const r = grind("--network", "ethereum", "--prefix", "a", "--suffix", "0", "--count", "4", "--threads", "2", "--out", out);
    expect(r.stderr).toContain("done: 4/4");
    expect(r.code).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const rows = readRows(out);
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row).toMatchObject({ platform: "ethereum", pattern_type: "prefix+suffix" });
      expect(row.pattern_matched.toLowerCase()).toBe("a0");
      const again = verifiedRow({ network: "ethereum", prefix: "a", suffix: "0", caseSensitive: false }, row.address, row.private_key);
      expect(again).toEqual(row);
    }
  }, 90_000);

  it("grinds Solana case-sensitively and appends", () => {
    const out = join(dir, "sol.csv");
    expect(grind("-n", "solana", "-s", "z", "--case-sensitive", "-c", "2", "-t", "1", "-o", out, "-q").code).toBe(0);
    const r = grind("-n", "solana", "-p", "B", "-c", "1", "-t", "1", "-o", out, "--append", "-q");
    expect(r.code).toBe(0);
    const rows = readRows(out);
    expect(rows.map((x) => x.pattern_type)).toEqual(["suffix", "suffix", "prefix"]);
    expect(readFileSync(out, "utf8").split(CSV_HEADER).length).toBe(2); // one header
    for (const row of rows.slice(0, 2)) {
      expect(row.address.endsWith("z")).toBe(true);
      verifiedRow({ network: "solana", prefix: "", suffix: "z", caseSensitive: true }, row.address, row.private_key);
    }
  }, 90_000);

  it("refuses to clobber an existing file", () => {
    const out = join(dir, "keep.csv");
    writeFileSync(out, "precious\n");
    const r = grind("-n", "ethereum", "-p", "a", "-o", out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--force");
    expect(readFileSync(out, "utf8")).toBe("precious\n");
  }, 30_000);

  it.each([
    [["-n", "ethereum", "-p", "0xzz", "-o", "-"], /non-hex characters: "z"/],
    [["-n", "solana", "-p", "0l", "--case-sensitive", "-o", "-"], /outside the base58 alphabet.*"0", "l"/],
    [["-n", "ethereum", "-p", "a".repeat(41), "-o", "-"], /too long/],
    [["-n", "solana", "-s", "1".repeat(45), "-o", "-"], /too long/],
    [["-n", "ethereum", "-p", "a", "-c", "0", "-o", "-"], /--count must be at least 1/],
    [["-n", "ethereum", "-p", "a", "--gpu=fast", "-o", "-"], /--gpu takes no value or "auto"/],
    [["-n", "solana", "-m", "3", "--gpu", "-o", "-"], /--gpu: the GPU kernel does not grind Solana --mirror patterns; use --gpu=auto/],
    [["-n", "solana", "-p", "abcdefghjkmnp", "--gpu", "-o", "-"], /--gpu: this pattern has too many case variants for the GPU kernel/],
    [["-n", "ethereum", "-p", "a", "--gpu", "--gpu-invocations", "0", "-o", "-"], /--gpu-invocations must be at least 1/],
  ])(
    "exits 2 for %j",
    (args, message) => {
      const r = grind(...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    },
    30_000,
  );

  it("prints usage with --help", () => {
    const r = grind("--help");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("--case-sensitive");
    expect(r.stdout).toContain("Phantom");
  }, 30_000);
});

describe("npm run grind -- --gpu", () => {
  it(
    "grinds on the GPU adapter (SwiftShader here) and writes rows that verify",
    () => {
      const out = join(dir, "gpu.csv");
      const spec = { network: "ethereum" as const, prefix: "e", suffix: "D", caseSensitive: true };
      const r = grind("-n", "ethereum", "-p", "e", "-s", "D", "--case-sensitive", "-c", "3", "--gpu", "-o", out);
      expect(r.stderr).toMatch(/3 to find, GPU .+, 256 invocations/);
      expect(r.stderr).toContain("GPU kernels ready");
      // the self-check at HALF 32: 32 invocations × 65 points × 6 variants traced, three patterns ground
      expect(r.stderr).toMatch(
        /GPU self-check passed in [\d.]+s: 12,480 candidates equal @noble\/curves', and prefix c0: \d+ hit\(s\), suffix ba: \d+ hit\(s\), prefix Ab \(case-sensitive\): \d+ hit\(s\) equal a CPU scan/,
      );
      expect(r.stderr).toContain("done: 3/3");
      expect(r.code).toBe(0);
      expect(statSync(out).mode & 0o777).toBe(0o600);
      const rows = readRows(out);
      expect(rows).toHaveLength(3);
      expect(new Set(rows.map((row) => row.address)).size).toBe(3);
      for (const row of rows) {
        expect(verifiedRow(spec, row.address, row.private_key)).toEqual(row);
        expect(row.pattern_matched).toBe("eD");
      }
    },
    GPU_RUN_MS + 30_000,
  );

  it("--gpu without a GPU adapter exits 4, says why, and creates no file", () => {
    const out = join(dir, "none.csv");
    const r = grindWith(NO_VULKAN, "-n", "ethereum", "-p", "a", "--gpu", "-o", out);
    expect(r.code).toBe(EXIT_NO_GPU);
    expect(r.stderr).toMatch(/error: --gpu: no WebGPU adapter/);
    expect(r.stderr).toContain("--gpu=auto");
    expect(() => statSync(out)).toThrow();
  }, 60_000);

  it("--gpu=auto without a GPU adapter says so and grinds on the CPU", () => {
    const out = join(dir, "auto.csv");
    const r = grindWith(NO_VULKAN, "-n", "ethereum", "-p", "a", "--gpu=auto", "-t", "1", "-o", out);
    expect(r.stderr).toContain("grinding on the CPU instead");
    expect(r.stderr).toContain("1 CPU thread(s)");
    expect(r.code).toBe(0);
    const [row] = readRows(out);
    verifiedRow({ network: "ethereum", prefix: "a", suffix: "", caseSensitive: false }, row.address, row.private_key);
  }, 60_000);

  it("reads --gpu, --gpu auto, --gpu=auto and --gpu-invocations", () => {
    const base = ["-n", "ethereum", "-p", "a", "-o", "-"];
    expect(parseCli(base)!.gpu).toBe("off");
    expect(parseCli([...base, "--gpu"])!.gpu).toBe("on");
    expect(parseCli(["--gpu", ...base])!.gpu).toBe("on");
    expect(parseCli([...base, "--gpu", "auto"])!.gpu).toBe("auto");
    expect(parseCli([...base, "--gpu=auto", "--gpu-invocations", "4096"])).toMatchObject({ gpu: "auto", gpuInvocations: 4096 });
    expect(parseCli(["-n", "solana", "-p", "a", "-o", "-", "--gpu"])!.gpu).toBe("on");
    // a Solana mirror with auto is allowed: it falls back to the CPU
    expect(parseCli(["-n", "solana", "-m", "2", "-o", "-", "--gpu=auto"])!.gpu).toBe("auto");
  });

  it(
    "grinds Solana on the GPU adapter and writes rows that verify (case-insensitive prefix, suffix)",
    () => {
      const out = join(dir, "gpu-sol.csv");
      const spec = { network: "solana" as const, prefix: "a", suffix: "1", caseSensitive: false };
      const r = grind("-n", "solana", "-p", "a", "-s", "1", "-c", "2", "--gpu", "-o", out);
      expect(r.stderr).toMatch(/2 to find, GPU .+, 128 invocations/);
      expect(r.stderr).toContain("GPU kernels ready");
      expect(r.stderr).toMatch(/GPU self-check passed in [\d.]+s: 1,024 candidates equal @noble\/curves', and .*prefix a: \d+ hit\(s\) equal a CPU scan/);
      expect(r.stderr).toContain("done: 2/2");
      expect(r.code).toBe(0);
      const rows = readRows(out);
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(verifiedRow(spec, row.address, row.private_key)).toEqual(row);
        expect(row.address).toMatch(/^[aA].*1$/);
      }
    },
    GPU_RUN_MS + 30_000,
  );

  it("--gpu=auto grinds a Solana mirror on the CPU and says why", () => {
    const out = join(dir, "sol-mirror.csv");
    const r = grind("-n", "solana", "-m", "1", "--gpu=auto", "-t", "1", "-o", out);
    expect(r.stderr).toContain("the GPU kernel does not grind Solana --mirror patterns; grinding on the CPU");
    expect(r.code).toBe(0);
  }, 60_000);
});
