// Local mode: what makes the site, and each node, this machine's (docs/production-settings.md#local-and-production).
import { describe, expect, it } from "vitest";
import { ethNodeLocality, isLoopbackHost, shownHost, siteLocality, solNodeLocality } from "./local-mode";

describe("local mode", () => {
  it("isLoopbackHost: localhost, *.localhost, 127.0.0.0/8, [::1] and 0.0.0.0, in any case; nothing that merely contains them", () => {
    for (const host of ["localhost", "LOCALHOST", "app.localhost", "127.0.0.1", "127.255.0.9", "[::1]", "0.0.0.0"])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["localhost.example", "notlocalhost", "x127.0.0.1", "127.0.0.1.example", "127.0.0", "10.0.0.1", "[::2]", "vanity.example"])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it("siteLocality: the request's host first (when there is a request), then SITE_ORIGIN, each with its reason", () => {
    expect(siteLocality("http://localhost:8787", "localhost")).toEqual({ local: true });
    expect(siteLocality("http://127.0.0.1:8790", null)).toEqual({ local: true });
    expect(siteLocality("http://localhost:8787", "vanity.example")).toEqual({
      local: false,
      reason: "the site is served at vanity.example, not on this machine",
    });
    expect(siteLocality("https://vanity.example", "localhost")).toEqual({ local: false, reason: "SITE_ORIGIN is https://vanity.example, not this machine" });
    expect(siteLocality("https://vanity.example", null)).toEqual({ local: false, reason: "SITE_ORIGIN is https://vanity.example, not this machine" });
    for (const origin of [undefined, "", "localhost:8787", "http://localhost:8787/app"])
      expect(siteLocality(origin, "localhost"), String(origin)).toEqual({ local: false, reason: "SITE_ORIGIN is not an origin" });
  });

  it("a request's host is quoted at most 80 characters long", () => {
    const long = `${"a".repeat(76)}.com`;
    expect(shownHost(long)).toBe(long);
    expect(shownHost(`${long}x`)).toBe(`${long}...`);
    expect(siteLocality("http://localhost", `${long}x`)).toEqual({ local: false, reason: `the site is served at ${long}..., not on this machine` });
  });

  it("ethNodeLocality: a loopback node on a development chain id, else why not", () => {
    const local = { ETH_RPC_URL: "http://127.0.0.1:8545", ETH_CHAIN_ID: "31337" };
    expect(ethNodeLocality(local)).toEqual({ local: true });
    expect(ethNodeLocality({ ...local, ETH_CHAIN_ID: "1337" })).toEqual({ local: true });
    for (const url of ["https://eth.example", "127.0.0.1:8545", undefined])
      expect(ethNodeLocality({ ...local, ETH_RPC_URL: url }), String(url)).toEqual({ local: false, reason: "ETH_RPC_URL is not on this machine" });
    expect(ethNodeLocality({ ...local, ETH_CHAIN_ID: "1" })).toEqual({ local: false, reason: "ETH_CHAIN_ID 1 is not a development chain's" });
    expect(ethNodeLocality({ ...local, ETH_CHAIN_ID: undefined })).toEqual({ local: false, reason: "ETH_CHAIN_ID  is not a development chain's" });
  });

  it("solNodeLocality: a loopback node with SOL_CLUSTER localnet, else why not", () => {
    const local = { SOL_RPC_URL: "http://localhost:8899", SOL_CLUSTER: "localnet" };
    expect(solNodeLocality(local)).toEqual({ local: true });
    expect(solNodeLocality({ ...local, SOL_RPC_URL: "https://api.devnet.solana.com" })).toEqual({ local: false, reason: "SOL_RPC_URL is not on this machine" });
    for (const cluster of ["devnet", undefined, "Localnet"])
      expect(solNodeLocality({ ...local, SOL_CLUSTER: cluster }), String(cluster)).toEqual({ local: false, reason: "SOL_CLUSTER is not localnet" });
  });
});
