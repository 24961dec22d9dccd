// A Solana JSON-RPC endpoint over HTTP, backed by LiteSVM (ledger.ts): what `npm start`, the chain tests
// and the browser tests pay on. POST / takes single or batched JSON-RPC requests; GET /health answers "ok"
// like a validator; CORS is open so a page on another local port may call it. No websocket: clients poll
// getSignatureStatuses.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SOLANA_DEV_ACCOUNTS } from "../../schema/dev-accounts";
import { Ledger, type LedgerOptions } from "./ledger";
import { METHODS, RpcError } from "./rpc-methods";

export type SolanaRpcOptions = LedgerOptions & {
  port: number;
  host?: string;
  /** Wallets topped up to `fundSol` SOL at start (by airdrop, so each funding is a transaction). Default: the dev accounts. */
  fund?: string[];
  fundSol?: number;
};

export type SolanaRpc = { url: string; port: number; ledger: Ledger; stop: () => Promise<void> };

const MAX_BODY_BYTES = 1024 * 1024;
const LAMPORTS_PER_SOL = 1_000_000_000;

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, GET, OPTIONS",
  "access-control-allow-headers": "content-type, solana-client",
  "access-control-max-age": "86400",
};

type Request = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };

// u64 amounts are JSON numbers on the wire, as a validator writes them.
const toJson = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v));

function answer(ledger: Ledger, request: unknown) {
  const req = (request && typeof request === "object" ? request : {}) as Request;
  const id = typeof req.id === "string" || typeof req.id === "number" ? req.id : null;
  if (req.jsonrpc !== "2.0" || typeof req.method !== "string") return { jsonrpc: "2.0", id, error: { code: -32600, message: "Invalid request" } };
  const handler = Object.hasOwn(METHODS, req.method) ? METHODS[req.method] : undefined;
  if (!handler) return { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${req.method.slice(0, 64)}` } };
  if (req.params !== undefined && !Array.isArray(req.params))
    return { jsonrpc: "2.0", id, error: { code: -32602, message: "Invalid params: expected an array" } };
  try {
    return { jsonrpc: "2.0", id, result: handler(ledger, req.params ?? []) };
  } catch (err) {
    if (err instanceof RpcError)
      return { jsonrpc: "2.0", id, error: { code: err.code, message: err.message, ...(err.data === undefined ? {} : { data: err.data }) } };
    return { jsonrpc: "2.0", id, error: { code: -32603, message: `Internal error: ${err instanceof Error ? err.message : String(err)}` } };
  }
}

function readBody(req: http.IncomingMessage) {
  return new Promise<string | null>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is read and dropped, so the client gets its 413 instead of a reset connection.
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function handle(ledger: Ledger) {
  return async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const send = (status: number, body: string, type = "application/json") => {
      res.writeHead(status, { ...CORS, "content-type": type });
      res.end(body);
    };
    if (req.method === "OPTIONS") return void res.writeHead(204, CORS).end();
    if (req.method === "GET" && req.url === "/health") return send(200, "ok", "text/plain");
    if (req.method !== "POST") return send(405, toJson({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Use POST" } }));
    const body = await readBody(req).catch(() => null);
    if (body === null) return send(413, toJson({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Request too large" } }));
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return send(200, toJson({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }));
    }
    if (Array.isArray(parsed)) {
      if (parsed.length === 0) return send(200, toJson({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request" } }));
      return send(200, toJson(parsed.map((r) => answer(ledger, r))));
    }
    send(200, toJson(answer(ledger, parsed)));
  };
}

/** Starts the RPC; resolves once it listens. `stop()` closes it and saves the chain (when `statePath` is set). */
export async function startSolanaRpc(opts: SolanaRpcOptions): Promise<SolanaRpc> {
  const ledger = new Ledger(opts);
  const server = http.createServer(handle(ledger));
  server.keepAliveTimeout = 5000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port, opts.host ?? "127.0.0.1", () => resolve());
    });
  } catch (err) {
    ledger.close();
    throw err;
  }
  const target = (opts.fundSol ?? 1000) * LAMPORTS_PER_SOL;
  for (const wallet of opts.fund ?? Object.values(SOLANA_DEV_ACCOUNTS).map((a) => a.address)) {
    const missing = target - ledger.balance(wallet);
    if (missing > 0) {
      const result = ledger.airdrop(wallet, missing);
      if (!result.landed) throw new Error(`funding ${wallet} failed: ${JSON.stringify(result.err)}`);
    }
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? "127.0.0.1"}:${port}`,
    port,
    ledger,
    stop: () =>
      new Promise<void>((resolve) => {
        ledger.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
