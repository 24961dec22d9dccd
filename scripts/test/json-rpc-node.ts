// A JSON-RPC node on 127.0.0.1 for unit tests of the reads that ask every node and decide by quorum: each request is
// answered as the test says (a result, a JSON-RPC error, an HTTP status with any body, or never), so a test can
// line up honest nodes, a node that contradicts them and nodes that do not answer, with no chain behind them.
// The real nodes (anvil, the LiteSVM Solana RPC) and the forging proxy are in worker/test-chain/.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** What a node sends back for one request. */
export type NodeReply =
  | { result: unknown }
  | { error: { code: number; message: string } }
  | { status: number; body: string }
  // Holds the request open until the node is closed (a node that hangs past the caller's timeout).
  | "hang";

export type JsonRpcRequest = { method: string; params: unknown[] };

export type JsonRpcNode = {
  url: string;
  /** The methods asked, in order. */
  calls: string[];
  close: () => Promise<void>;
};

export async function startJsonRpcNode(reply: (request: JsonRpcRequest) => NodeReply): Promise<JsonRpcNode> {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      const { id, method, params } = JSON.parse(text) as { id: unknown; method: string; params?: unknown[] };
      calls.push(method);
      const answer = reply({ method, params: params ?? [] });
      if (answer === "hang") return;
      if ("status" in answer) {
        res.writeHead(answer.status, { "content-type": "text/plain" }).end(answer.body);
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, ...answer }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The URL of a node that is down: a port that was just listened on and closed, so connecting is refused at once. */
export async function deadNodeUrl(): Promise<string> {
  const node = await startJsonRpcNode(() => ({ result: null }));
  await node.close();
  return node.url;
}
