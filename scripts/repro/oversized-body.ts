// Reproduction of "one oversized body breaks the next request" (docs/api.md#conventions) against the real local runtime (`wrangler dev` on a spare port):
// 20 chunked (no Content-Length) bodies over the 256 KB limit, plus 5 with a declared Content-Length over it,
// each followed by an ordinary POST, one connection each; prints every status.
//
//   flock /tmp/stack.lock node --import tsx scripts/repro/oversized-body.ts           # the marketplace Worker
//   flock /tmp/stack.lock node --import tsx scripts/repro/oversized-body.ts minimal   # unread-body-worker.ts: reads 256 KB, cancels
//   flock /tmp/stack.lock node --import tsx scripts/repro/oversized-body.ts minimal unread   # answers without reading
//
// `minimal` shows the cause: a Worker that answers a POST without reading its body makes wrangler dev's proxy
// report the Worker as crashed and answer the next requests 503 "Your worker restarted mid-request". The
// marketplace Worker reads past the limit (discarding, up to a cap) before it answers, so every ordinary
// request is answered (worker/http/body-limit.ts).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { applyLocalMigrations, httpOk, portFree, ROOT, startChild, startWorker, waitUntil } from "../stack";

const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);

const PORT = Number(process.env.REPRO_PORT ?? 8797);
const LIMIT = 256 * 1024;
const CHUNK = 64 * 1024;
const ADDRESS = "0x0000f83d8427610068974F4284A0DC825A8218e6";
const minimal = process.argv[2] === "minimal";

/** POSTs on a fresh connection: a JSON text, or `chunks` x 64 KB (chunked, or with a declared length). */
function post(urlPath: string, body: { chunks: number; declared?: boolean } | string): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: "127.0.0.1", port: PORT, path: urlPath, method: "POST", agent: false, headers: { "content-type": "application/json" } },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", (err) => resolve({ status: 0, text: err.message }));
    if (typeof body === "string") {
      req.setHeader("content-length", Buffer.byteLength(body));
      req.end(body);
      return;
    }
    if (body.declared) req.setHeader("content-length", body.chunks * CHUNK);
    const chunk = Buffer.alloc(CHUNK, 0x20);
    let sent = 0;
    const write = () => {
      while (sent < body.chunks) {
        sent++;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

async function main() {
  if (!(await portFree(PORT))) throw new Error(`port ${PORT} is busy (REPRO_PORT=... to pick another)`);
  const persistTo = fs.mkdtempSync(path.join(os.tmpdir(), "repro-body-"));
  const silent = process.env.REPRO_VERBOSE !== "1";
  let worker;
  if (minimal) {
    const args = [
      "dev",
      path.join(ROOT, "scripts", "repro", "unread-body-worker.ts"),
      "--port",
      String(PORT),
      "--ip",
      "127.0.0.1",
      "--compatibility-date",
      "2026-05-03",
      "--persist-to",
      persistTo,
      "--show-interactive-dev-session=false",
    ];
    worker = startChild("wrangler", bin("wrangler"), args, { silent });
  } else {
    fs.mkdirSync(path.join(ROOT, "dist"), { recursive: true });
    applyLocalMigrations(persistTo, true);
    worker = startWorker({ port: PORT, persistTo, silent });
  }
  try {
    const probe = minimal ? `http://127.0.0.1:${PORT}/` : `http://127.0.0.1:${PORT}/api/health`;
    if (!(await waitUntil(httpOk(probe), 90_000))) throw new Error("wrangler dev did not start");
    const [bigPath, okPath, okBody] = minimal
      ? [process.argv[3] === "unread" ? "/unread" : "/partial", "/read", "{}"]
      : ["/api/addresses/validate", "/api/addresses/validate", JSON.stringify({ address: ADDRESS })];
    const oversized: number[] = [];
    const ordinary: number[] = [];
    for (let i = 0; i < 25; i++) {
      const declared = i >= 20;
      oversized.push((await post(bigPath, { chunks: LIMIT / CHUNK + 2 + (i % 20), declared })).status);
      const ok = await post(okPath, okBody);
      ordinary.push(ok.status === 200 && (minimal || ok.text.includes(ADDRESS)) ? 200 : ok.status);
      if (!silent && ok.status !== 200) console.log(ok.status, ok.text.slice(0, 200));
    }
    console.log(
      `${minimal ? `minimal Worker (${process.argv[3] === "unread" ? "answers without reading" : "reads 256 KB, cancels the rest"})` : "marketplace Worker"} under wrangler dev`,
    );
    console.log(`oversized bodies (20 chunked, 5 with Content-Length): ${oversized.join(" ")}`);
    console.log(`ordinary requests after each:                      ${ordinary.join(" ")}`);
    const good = oversized.every((s) => s === 413) && ordinary.every((s) => s === 200);
    console.log(good ? "OK: every oversized body got 413 and every ordinary request was answered" : "FAILED: see the statuses above");
    process.exitCode = good ? 0 : 1;
  } finally {
    worker.stop();
    fs.rmSync(persistTo, { recursive: true, force: true });
  }
}

await main();
