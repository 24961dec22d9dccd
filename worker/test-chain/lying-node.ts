// Extra "nodes" for the quorum tests (docs/payments.md#trust-no-single-node): URLs on loopback ports nothing listens
// on, answered inside the test by forwarding each JSON-RPC call to the real node (anvil or the LiteSVM RPC) and,
// for the liar, rewriting the call or its answer on command. The chain tests run inside workerd, so the proxy is a
// fetch interceptor (as solana-cluster.test.ts does for one method); nothing leaves 127.0.0.1.

export type RpcCall = { jsonrpc: string; id: number | string; method: string; params?: unknown[] };
export type RpcAnswer = { jsonrpc: string; id: number | string; result?: unknown; error?: unknown };

/** How a node behaves: forwards (honest), rewrites (a liar), refuses connections (down), or never answers (times out). */
export type Behaviour =
  | { kind: "honest" }
  | { kind: "down" }
  | { kind: "hang" }
  | { kind: "lie"; call?: (c: RpcCall) => RpcCall; answer?: (c: RpcCall, a: RpcAnswer) => RpcAnswer | Promise<RpcAnswer> };

/**
 * The proxy nodes: each a URL on its own loopback port (so each is its own node by name: 127.0.0.1:<port>), at `path`
 * (a hosted provider's URL carries its API key there).
 */
export function proxyNodes(upstream: string, ports: Record<string, number>, path = "/rpc") {
  const behaviour = new Map<string, Behaviour>();
  const urls = Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, new URL(path, `http://127.0.0.1:${port}`).href])) as Record<
    string,
    string
  >;
  for (const url of Object.values(urls)) behaviour.set(url, { kind: "honest" });
  const original = globalThis.fetch;

  async function answer(request: Request, how: Behaviour): Promise<Response> {
    if (how.kind === "down") throw new TypeError("fetch failed: connection refused");
    if (how.kind === "hang")
      return new Promise((_, reject) => {
        const abort = () => reject(request.signal.reason ?? new Error("aborted"));
        if (request.signal.aborted) abort();
        request.signal.addEventListener("abort", abort);
      });
    const body = (await request.json()) as RpcCall | RpcCall[];
    const calls = (Array.isArray(body) ? body : [body]).map((c) => (how.kind === "lie" && how.call ? how.call(c) : c));
    const res = await original(upstream, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(calls) });
    const answers = (await res.json()) as RpcAnswer[];
    const out = await Promise.all(
      calls.map(async (c) => {
        const a = answers.find((x) => x.id === c.id) ?? { jsonrpc: "2.0", id: c.id, error: { code: -32603, message: "no answer" } };
        return how.kind === "lie" && how.answer ? how.answer(c, a) : a;
      }),
    );
    return Response.json(Array.isArray(body) ? out : out[0]);
  }

  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const how = behaviour.get(request.url);
    return how ? answer(request, how) : original(request);
  }) as typeof fetch;

  return {
    urls,
    /** `host:port` of a proxy node, as the quorum names it. */
    nameOf: (name: string) => new URL(urls[name]).host,
    set(name: string, how: Behaviour) {
      behaviour.set(urls[name], how);
    },
    restore() {
      globalThis.fetch = original;
    },
  };
}

export const hex = (n: bigint | number) => `0x${BigInt(n).toString(16)}`;
