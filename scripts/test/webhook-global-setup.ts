// A local HTTP receiver for the alert webhook (issue 24 §4), started for the chain tests (the Worker in workerd
// POSTs to it; the test reads what arrived). POST /hook records the JSON body and answers the status set with
// PUT /status/<code> (200 by default); GET /received lists the bodies; DELETE /received clears them.
import http from "node:http";
import { testPort } from "./ports";

export const ALERT_RECEIVER_PORT = testPort(28990);

export default async function setup() {
  let received: unknown[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      if (req.method === "POST" && path === "/hook") {
        received.push({ status, contentType: req.headers["content-type"], body: JSON.parse(body) });
        res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "failing");
      } else if (req.method === "PUT" && path.startsWith("/status/")) {
        status = Number(path.slice("/status/".length));
        res.writeHead(204).end();
      } else if (req.method === "GET" && path === "/received") {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received));
      } else if (req.method === "DELETE" && path === "/received") {
        received = [];
        status = 200;
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
