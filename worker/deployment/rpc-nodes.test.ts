// How nodes are named to people: by host, never by URL (its path or query may carry the provider's API key), and
// each node of a list by a name of its own, so the cron's probe keeps one row per node (docs/operations.md#health).
import { describe, expect, it } from "vitest";
import { nodeName, nodeNames } from "./rpc-nodes";

describe("nodeNames", () => {
  it("names each node by host and port, a host listed twice as host #2, and never shows a path or a query", () => {
    const urls = ["https://eth.example.com/v2/SECRET", "https://eth.example.com/v2/OTHER?key=SECRET", "http://127.0.0.1:8545", "not a url"];
    expect(nodeNames(urls)).toEqual(["eth.example.com", "eth.example.com #2", "127.0.0.1:8545", "an unreadable URL"]);
    expect(JSON.stringify(nodeNames(urls))).not.toMatch(/SECRET|OTHER|key=/);
    expect(nodeNames(urls.slice(0, 1))).toEqual([nodeName(urls[0])]);
  });
});
