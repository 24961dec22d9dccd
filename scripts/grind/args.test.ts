// The grinder's command line: parsed, with the pattern rules of schema/grind-pattern.ts applied to it.
import { describe, expect, it } from "vitest";
import { parseCli, UsageError } from "./args.ts";

describe("parseCli", () => {
  const base = ["--network", "ethereum", "--out", "x.csv"];
  it("parses a full command line", () => {
    const o = parseCli([...base, "--prefix", "0xDEAD", "--suffix", "beef", "--count", "3", "--case-sensitive", "--threads", "2"]);
    expect(o).toMatchObject({ count: 3, threads: 2, out: "x.csv", spec: { prefix: "DEAD", suffix: "beef", caseSensitive: true } });
  });
  it("--list needs no --out (nothing on disk) and takes the marketplace's URL; without --list --out is required", () => {
    expect(parseCli(["--network", "ethereum", "--prefix", "dead", "--list"])).toMatchObject({ out: null, list: true, api: "http://127.0.0.1:8787/" });
    expect(parseCli(["--network", "ethereum", "--prefix", "dead", "--list", "--api", "https://market.example", "--out", "x.csv"])).toMatchObject({
      out: "x.csv",
      api: "https://market.example/",
    });
    expect(() => parseCli(["--network", "ethereum", "--prefix", "dead"])).toThrow(/--out FILE.csv is required .* or --list/);
    expect(() => parseCli(["--network", "ethereum", "--prefix", "dead", "--list", "--api", "not a url"])).toThrow(/--api must be a URL/);
  });
  it("returns null for --help", () => {
    expect(parseCli(["--help"])).toBeNull();
  });
  it.each([
    [["--prefix", "dead", "--count", "0"], /--count must be at least 1/],
    [["--prefix", "dead", "--count", "-2"], /--count must be at least 1/],
    [["--prefix", "dead", "--count", "two"], /--count must be a whole number/],
    [["--prefix", "dead", "--threads", "0"], /--threads must be at least 1/],
    [["--prefix", "xyz"], /non-hex characters: "x", "y", "z"/],
    [["--prefix", "dead", "--bogus"], /bogus/],
  ])("rejects %j", (args, message) => {
    expect(() => parseCli([...base, ...args])).toThrow(UsageError);
    expect(() => parseCli([...base, ...args])).toThrow(message);
  });
  it("requires network and out", () => {
    expect(() => parseCli(["--prefix", "ab", "--out", "x"])).toThrow(/--network is required/);
    expect(() => parseCli(["--network", "solana", "--prefix", "ab"])).toThrow(/--out/);
    expect(() => parseCli(["--network", "bitcoin", "--prefix", "ab", "--out", "x"])).toThrow(/unknown network/);
  });
});
