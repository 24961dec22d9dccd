// Admin > Health's words for a node's probe, and the markup of the nodes list: each node by host with its state in
// words (never colour alone), a down node with since when and why, a lagging one with by how much.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChainNodes, NodeDisagreements } from "./HealthTab";
import { type NodeProbe, nodeState } from "./node-state";

const now = new Date(2026, 10, 28, 14, 30).getTime();
const answering: NodeProbe = { ok: true, head: 21_000_123, behind: 0, lagging: false, failingSince: null, error: null };
const down: NodeProbe = {
  ok: false,
  head: null,
  behind: null,
  lagging: false,
  failingSince: new Date(2026, 10, 28, 14, 5).toISOString(),
  error: "HTTP request failed.",
};

describe("nodeState", () => {
  it("answering, behind, down and never probed, each in words", () => {
    expect(nodeState("ethereum", answering, now)).toEqual({ tone: "ok", label: "Answering", detail: "head block 21000123" });
    expect(nodeState("solana", { ...answering, behind: 3 }, now)).toMatchObject({ tone: "ok", detail: "head slot 21000123, 3 behind the best" });
    expect(nodeState("solana", { ...answering, head: 900, behind: 1_200, lagging: true }, now)).toEqual({
      tone: "behind",
      label: "Behind by 1,200 slots",
      detail: "head slot 900",
    });
    expect(nodeState("ethereum", down, now)).toEqual({
      tone: "down",
      label: expect.stringMatching(/^Down since 2:05\sPM \(25 minutes ago\)$/),
      detail: "HTTP request failed.",
    });
    expect(nodeState("ethereum", { ...down, head: 77, failingSince: new Date(2026, 10, 27, 9, 0).toISOString() }, now)).toMatchObject({
      label: expect.stringMatching(/^Down since November 27, 2026 at 9:00\sAM \(1 day ago\)$/),
      detail: "HTTP request failed. · last head block 77",
    });
    expect(nodeState("ethereum", { ...down, ok: null, failingSince: null, error: null }, now)).toMatchObject({ tone: "unknown", label: "Not probed yet" });
  });
});

describe("ChainNodes", () => {
  it("lists each node of each chain by host, in a labelled list, the down one with since when, and says when payments wait", () => {
    const html = renderToStaticMarkup(
      <ChainNodes
        now={now}
        operations={{
          chains: [
            { network: "ethereum", ok: false, head: 5, headTime: null, lagSeconds: null, checkedAt: null, failingSince: null, error: "1 of 2 nodes answered" },
            { network: "solana", ok: true, head: 5, headTime: null, lagSeconds: 1, checkedAt: null, failingSince: null, error: null },
          ],
          nodes: [
            {
              network: "ethereum",
              hosts: ["rpc.a.example", "rpc.b.example"],
              quorum: 2,
              singleNode: false,
              status: [
                { host: "rpc.a.example", checkedAt: null, ...answering },
                { host: "rpc.b.example", checkedAt: null, ...down },
              ],
            },
            { network: "solana", hosts: [], quorum: 1, singleNode: true, status: [] },
          ],
        }}
      />,
    );
    expect(html).toContain('<ul aria-label="Ethereum nodes"');
    expect(html).toMatch(/data-state="ok"[^>]*>.*rpc\.a\.example.*Answering/);
    expect(html).toMatch(/data-state="down"[^>]*>.*rpc\.b\.example.*Down since 2:05\sPM \(25 minutes ago\).*HTTP request failed\./);
    expect(html).toContain("2 of 2 nodes must agree.");
    expect(html).toContain("Too few nodes answer: payments wait.");
    expect(html).toContain("No node is configured.");
  });
});

describe("NodeDisagreements", () => {
  it("names each node that contradicted the others, how often, when last and about which payment; says so when none did", () => {
    const html = renderToStaticMarkup(
      <NodeDisagreements
        now={now}
        disagreements={[
          {
            network: "ethereum",
            node: "rpc.b.example",
            firstSeenAt: new Date(2026, 10, 28, 13, 0).toISOString(),
            lastSeenAt: new Date(2026, 10, 28, 14, 20).toISOString(),
            times: 3,
            txHash: `0x${"ab".repeat(32)}`,
            detail: "receipt in another block",
          },
        ]}
      />,
    );
    expect(html).toContain('<ul aria-label="Nodes that disagreed"');
    expect(html).toMatch(/data-testid="health-disagreement".*rpc\.b\.example.*\(Ethereum\).*3 times, last 10 minutes ago.*receipt in another block.*payment/);
    expect(html).toContain(`title="0x${"ab".repeat(32)}"`);
    expect(renderToStaticMarkup(<NodeDisagreements now={now} disagreements={[]} />)).toContain("No node has contradicted the others.");
  });
});
