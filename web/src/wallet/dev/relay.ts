// The dev wallets reach the local chains through the Worker's same-origin relay (worker/routes/dev-chains.ts),
// because the page's CSP allows no other origin. Tests pass a relay that talks to a chain directly.
export type ChainRelay = (method: string, params: unknown[]) => Promise<unknown>;

export class RpcFailure extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A JSON-RPC caller for one endpoint: the answer's `result`, or an RpcFailure carrying the node's code. */
export function jsonRpcRelay(url: string): ChainRelay {
  let id = 0;
  return async (method, params) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
    });
    const body = (await res.json().catch(() => null)) as {
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
      message?: string;
    } | null;
    if (!res.ok) throw new RpcFailure(body?.message ?? `The local chain relay answered HTTP ${res.status}`, -32603);
    if (body?.error) throw new RpcFailure(body.error.message, body.error.code, body.error.data);
    return body?.result;
  };
}
