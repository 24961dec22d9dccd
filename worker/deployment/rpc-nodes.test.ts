// How nodes are named to people: by host, never by URL (its path or query may carry the provider's API key), and
// each node of a list by a name of its own, so the cron's probe keeps one row per node (docs/operations.md#health).
import { describe, expect, it } from "vitest";
import { parseHttpUrl } from "./local-mode";
import { nodeHost, nodeName, nodeNames, quorumOf, readQuorum, readUrl } from "./rpc-nodes";

describe("nodeNames", () => {
  it("names each node by host and port, a host listed twice as host #2, and never shows a path or a query", () => {
    const urls = ["https://eth.example.com/v2/SECRET", "https://eth.example.com/v2/OTHER?key=SECRET", "http://127.0.0.1:8545", "not a url"];
    expect(nodeNames(urls)).toEqual(["eth.example.com", "eth.example.com #2", "127.0.0.1:8545", "an unreadable URL"]);
    expect(JSON.stringify(nodeNames(urls))).not.toMatch(/SECRET|OTHER|key=/);
    expect(nodeNames(urls.slice(0, 1))).toEqual([nodeName(urls[0])]);
  });
});

describe("a node URL with a non-ASCII host reads the same every time", () => {
  // Node 20's URL.canParse answers false for such a URL once V8 has optimised the call (the deploy check and the
  // tests run in Node): an IDN node would be refused, or named "an unreadable URL", at random.
  it("parseHttpUrl and nodeName, called as often as a long-lived process calls them", () => {
    const url = "https://bücher.example/SECRET";
    const read = new Set<string>();
    for (let i = 0; i < 20_000; i++) read.add(`${parseHttpUrl(url)?.hostname} ${nodeName(url)}`);
    expect([...read]).toEqual(["xn--bcher-kva.example xn--bcher-kva.example"]);
    expect(readUrl("not a url")).toBeNull();
  });
});

describe("nodeHost: one host however it is written (the mainnet two-hosts rule compares these)", () => {
  const host = (url: string) => nodeHost(new URL(url));
  it.each([
    ["letter case", "https://RPC.X.example/a", "https://rpc.x.example/b"],
    ["a trailing dot (the fully qualified name)", "https://rpc.x.example./a", "https://rpc.x.example/b"],
    ["trailing dots", "https://rpc.x.example../a", "https://rpc.x.example/b"],
    ["another port", "https://rpc.x.example:8443/a", "https://rpc.x.example/b"],
    ["the default port written out", "https://rpc.x.example:443/a", "https://rpc.x.example/b"],
    ["an IDN and its punycode", "https://bücher.example/a", "https://xn--bcher-kva.example/b"],
    ["an IDN in another case", "https://BÜCHER.example./a", "https://xn--bcher-kva.example/b"],
    ["an IPv4-mapped IPv6 address", "https://[::ffff:1.2.3.4]/a", "https://1.2.3.4/b"],
    ["an IPv4-mapped IPv6 address in hex", "https://[0:0:0:0:0:FFFF:0102:0304]:8545/a", "https://1.2.3.4/b"],
    ["an IPv4-translated IPv6 address", "https://[::ffff:0:1.2.3.4]/a", "https://1.2.3.4/b"],
    ["a NAT64 address of it", "https://[64:ff9b::1.2.3.4]/a", "https://1.2.3.4/b"],
    ["a NAT64 address of a low IPv4 address", "https://[64:ff9b::0.0.0.9]/a", "https://0.0.0.9/b"],
    ["an IPv4 address in hex, as one number, or with a trailing dot", "https://0x01020304/a", "https://16909060./b"],
    ["an IPv6 address written long or short", "https://[2001:DB8:0:0:0:0:0:1]/a", "https://[2001:db8::1]/b"],
  ])("%s is one host", (_, a, b) => {
    expect(host(a)).toBe(host(b));
  });

  it.each([
    ["two names", "https://rpc.a.example", "https://rpc.b.example"],
    ["a name and its subdomain", "https://x.example", "https://rpc.x.example"],
    ["two IPv4 addresses", "https://1.2.3.4", "https://1.2.3.5"],
    ["an IPv6 address that is not an IPv4 one in disguise", "https://[2001:db8::102:304]", "https://1.2.3.4"],
    ["IPv6 loopback and an IPv4 address", "https://[::1]", "https://0.0.0.1"],
    ["a mapped address and another IPv4 address", "https://[::ffff:1.2.3.4]", "https://1.2.3.5"],
  ])("%s are two hosts", (_, a, b) => {
    expect(host(a)).not.toBe(host(b));
  });

  it("reads as the IPv4 address or the name, as people write them", () => {
    expect(host("https://[::ffff:10.0.0.1]")).toBe("10.0.0.1");
    expect(host("https://[64:ff9b::ffff:ffff]")).toBe("255.255.255.255");
    expect(host("https://Rpc.Example.:443")).toBe("rpc.example");
    expect(host("https://[2001:db8::1]")).toBe("[2001:db8::1]");
    // Every group written (no "::"), or the "::" last.
    expect(host("https://[2001:db8:1:2:3:4:5:6]")).toBe("[2001:db8:1:2:3:4:5:6]");
    expect(host("https://[0:0:0:0:0:ffff:a00:1]")).toBe("10.0.0.1");
    expect(host("https://[64:ff9b::]")).toBe("0.0.0.0");
  });
});

describe("the quorum as written", () => {
  it("readQuorum: a whole number from 1 to the nodes, spaces trimmed; unset, a majority; anything else null", () => {
    expect(readQuorum(" 2 ", 3)).toBe(2);
    expect(readQuorum("10", 12)).toBe(10);
    expect(readQuorum("", 4)).toBe(3);
    expect(readQuorum(undefined, 1)).toBe(1);
    for (const text of ["0", "4", "0x2", "2.0", "2 nodes", "1e0", "two"]) expect(readQuorum(text, 3), text).toBeNull();
  });

  it("quorumOf: each chain's own nodes and quorum, every node when the quorum is unreadable (payment-rules.ts refuses that)", () => {
    const env = {
      ETH_RPC_URLS: "https://a.example,https://b.example,https://c.example",
      ETH_RPC_QUORUM: "3",
      SOL_RPC_URLS: "https://s.example,https://t.example",
      SOL_RPC_QUORUM: "1",
    };
    expect(quorumOf(env, "ethereum")).toEqual({ urls: env.ETH_RPC_URLS.split(","), quorum: 3 });
    expect(quorumOf(env, "solana")).toEqual({ urls: ["https://s.example", "https://t.example"], quorum: 1 });
    expect(quorumOf({ ...env, ETH_RPC_QUORUM: "9" }, "ethereum").quorum).toBe(3);
    expect(quorumOf({}, "solana")).toEqual({ urls: [], quorum: 1 });
  });
});
