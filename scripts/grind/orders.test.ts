import { describe, expect, it } from "vitest";
import { UsageError } from "./args.ts";
import { parseOrdersCli } from "./orders.ts";

describe("npm run grind -- --orders options", () => {
  it("reads what npm start passes: the local API, auto GPU, one thread, quiet", () => {
    expect(parseOrdersCli(["--orders", "--api", "http://127.0.0.1:8787/", "--gpu=auto", "--threads", "1", "--quiet"])).toEqual({
      api: "http://127.0.0.1:8787",
      threads: 1,
      gpu: "auto",
      once: false,
      pollSeconds: 10,
      quiet: true,
      supply: false,
    });
  });

  it("keeps an idle grinder's poll inside the claim lease, so the marketplace sees it alive", () => {
    expect(parseOrdersCli(["--orders", "--poll", "60"])?.pollSeconds).toBe(60);
    for (const poll of ["61", "0", "1.5", "x"]) expect(() => parseOrdersCli(["--orders", "--poll", poll]), poll).toThrow(UsageError);
    expect(() => parseOrdersCli(["--orders", "--poll", "600"])).toThrow("--poll must be a whole number from 1 to 60");
  });

  it("takes --supply beside --orders (supply work while no order waits), not in --supply's own mode", () => {
    expect(parseOrdersCli(["--orders", "--supply"])?.supply).toBe(true);
    expect(parseOrdersCli(["--supply", "--once"], "--supply")?.supply).toBe(false);
  });

  it("reads --supply's options the same way, naming --supply in its errors", () => {
    expect(parseOrdersCli(["--supply", "--once", "--threads", "2"], "--supply")).toMatchObject({ once: true, threads: 2, pollSeconds: 10 });
    expect(() => parseOrdersCli(["--supply", "--prefix", "00"], "--supply")).toThrow("--supply takes --api, --threads");
  });
});
