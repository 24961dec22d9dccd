// A JSON-RPC proxy on loopback that fails a share of the calls passing through it, put between the Worker and a
// node by `npm run soak` (docs/testing.md#soak): a JSON-RPC error, a request held past the Worker's node timeout
// (4 s: worker/chain/*-payments.ts) and then dropped, or a stale head (eth_blockNumber / getSlot answered with an
// older value). Everything else is forwarded as it is. Bounded: it listens on 127.0.0.1 only, forwards only to the
// node it was given, and holds a request at most `holdMs`.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FaultShares = { error: number; timeout: number; stale: number };
export type FaultKind = keyof FaultShares | "forwarded";
export type FaultProxy = {
  url: string;
  counts: Record<FaultKind, number>;
  /** Faults on or off (off: every call forwarded; the soak turns them off to settle at the end). */
  setEnabled: (on: boolean) => void;
  stop: () => Promise<void>;
};

/** The head methods a stale answer rewrites, and by how much (Ethereum blocks, Solana slots). */
const STALE_BY: Record<string, number> = { eth_blockNumber: 3, getSlot: 40, getBlockHeight: 40 };

export type RpcCall = { jsonrpc?: string; id?: unknown; method?: string; params?: unknown[] };
export type RpcAnswer = { jsonrpc: string; id: unknown; result?: unknown; error?: unknown };
/** A liar's rewrite of the node's answer to one call (scripts/soak/liar.ts); the answer itself when it tells the truth. */
export type Lie = (call: RpcCall, answer: RpcAnswer) => RpcAnswer;

/** Picks what happens to one call: `roll` in [0, 1). Exported for the unit test. */
export function pickFault(shares: FaultShares, roll: number, methods: string[]): FaultKind {
  if (roll < shares.error) return "error";
  if (roll < shares.error + shares.timeout) return "timeout";
  if (roll < shares.error + shares.timeout + shares.stale && methods.some((m) => m in STALE_BY)) return "stale";
  return "forwarded";
}

/** The node's answer with every head in it moved back (a lagging replica behind a load balancer). */
export function staleAnswer(calls: RpcCall[], answers: RpcAnswer[]): RpcAnswer[] {
  return answers.map((a) => {
    const call = calls.find((c) => c.id === a.id);
    const by = call?.method ? STALE_BY[call.method] : undefined;
    if (by === undefined || a.result === undefined) return a;
    if (typeof a.result === "string" && a.result.startsWith("0x")) {
      const n = BigInt(a.result);
      return { ...a, result: `0x${(n > BigInt(by) ? n - BigInt(by) : 0n).toString(16)}` };
    }
    if (typeof a.result === "number") return { ...a, result: Math.max(0, a.result - by) };
    return a;
  });
}

export async function startFaultProxy(opts: {
  target: string;
  port: number;
  shares: FaultShares;
  holdMs: number;
  random?: () => number;
  /** This node lies: every answer it forwards passes through `lie` first. */
  lie?: Lie;
}): Promise<FaultProxy> {
  const random = opts.random ?? Math.random;
  const counts: Record<FaultKind, number> = { error: 0, timeout: 0, stale: 0, forwarded: 0 };
  let enabled = true;
  const held = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      let parsed: RpcCall | RpcCall[] | null = null;
      try {
        parsed = JSON.parse(body.toString("utf8"));
      } catch {
        /* forwarded as it is: the node answers it */
      }
      const calls = parsed === null ? [] : Array.isArray(parsed) ? parsed : [parsed];
      const kind = enabled
        ? pickFault(
            opts.shares,
            random(),
            calls.map((c) => String(c.method)),
          )
        : "forwarded";
      counts[kind]++;
      if (kind === "error") {
        const errors = calls.map((c) => ({ jsonrpc: "2.0", id: c.id ?? null, error: { code: -32603, message: "soak: injected node error" } }));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Array.isArray(parsed) ? errors : errors[0]));
        return;
      }
      if (kind === "timeout") {
        const timer = setTimeout(() => {
          held.delete(timer);
          req.socket.destroy();
        }, opts.holdMs);
        held.add(timer);
        return;
      }
      void forward(opts.target, req.headers["content-type"], body).then(
        ({ status, text }) => {
          let out = text;
          if (opts.lie) {
            try {
              const answer = JSON.parse(text) as RpcAnswer | RpcAnswer[];
              const list = (Array.isArray(answer) ? answer : [answer]).map((a) => {
                const call = calls.find((c) => c.id === a.id);
                return call ? opts.lie!(call, a) : a;
              });
              out = JSON.stringify(Array.isArray(answer) ? list : list[0]);
            } catch {
              /* not JSON: passed on */
            }
          }
          if (kind === "stale") {
            try {
              const answer = JSON.parse(out) as RpcAnswer | RpcAnswer[];
              const stale = staleAnswer(calls, Array.isArray(answer) ? answer : [answer]);
              out = JSON.stringify(Array.isArray(answer) ? stale : stale[0]);
            } catch {
              /* not JSON: passed on */
            }
          }
          res.writeHead(status, { "content-type": "application/json" }).end(out);
        },
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, "127.0.0.1", resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    setEnabled: (on) => {
      enabled = on;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const t of held) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function forward(target: string, contentType: string | undefined, body: Buffer) {
  const res = await fetch(target, {
    method: "POST",
    headers: { "content-type": contentType ?? "application/json" },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, text: await res.text() };
}
