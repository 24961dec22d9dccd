// A local HTTP receiver for the alert webhook, started for the chain tests (the Worker in workerd
// POSTs to it; the test reads what arrived). POST /hook records the JSON body and answers the status set with
// PUT /status/<code> (200 by default); GET /received lists the bodies; DELETE /received clears them (and the status).
import http from "node:http";
import { testPort } from "./ports";

export const ALERT_RECEIVER_PORT = testPort(28990);

export default async function setup() {
  // One box per test file that needs its own (POST /hook/<box>, GET and DELETE /received/<box>, PUT
  // /status/<code>/<box>), so files running at once neither clear nor fail each other's deliveries; /hook is box "".
  const boxes = new Map<string, { received: unknown[]; status: number }>();
  const box = (name: string) => {
    let b = boxes.get(name);
    if (!b) boxes.set(name, (b = { received: [], status: 200 }));
    return b;
  };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const [, route = "", code = "", ...rest] = (req.url ?? "/").split("/");
      if (req.method === "POST" && route === "hook") {
        const b = box(code);
        b.received.push({ status: b.status, contentType: req.headers["content-type"], body: JSON.parse(body) });
        res.writeHead(b.status, { "content-type": "text/plain" }).end(b.status < 300 ? "ok" : "failing");
      } else if (req.method === "PUT" && route === "status") {
        box(rest[0] ?? "").status = Number(code);
        res.writeHead(204).end();
      } else if (req.method === "GET" && route === "received") {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(box(code).received));
      } else if (req.method === "DELETE" && route === "received") {
        boxes.delete(code);
        res.writeHead(204).end();
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === "EADDRINUSE" ? `port ${ALERT_RECEIVER_PORT} is busy: another chain test run?` : err.message)),
    );
    server.listen(ALERT_RECEIVER_PORT, "127.0.0.1", () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
