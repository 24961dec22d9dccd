// Oversized bodies are refused without disturbing anything else (a body is read only up to its route's limit): the bounded reader
// stops at the limit and cancels the stream, and every ordinary request around an oversized one is answered.
// The oversized calls are raw fetches: the typed client sends only a JSON value, never a stream or a padded body.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES, BULK_BODY_LIMIT_BYTES, createApp } from "../app";
import { DISCARD_FACTOR } from "../http/body-limit";
import { client } from "./client";

const CHUNK = 64 * 1024;

/** An endless chunked body that records how much was pulled and whether the reader cancelled it. */
function endlessBody() {
  const state = { pulledBytes: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulledBytes += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK).fill(0x7b));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

/** A chunked body (no Content-Length) of `bytes` bytes. */
function chunkedBody(bytes: number) {
  let left = bytes;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left <= 0) return controller.close();
      const n = Math.min(CHUNK, left);
      left -= n;
      controller.enqueue(new Uint8Array(n).fill(0x20));
    },
  });
}

const ADDRESS = "0x0000f83d8427610068974F4284A0DC825A8218e6";

describe("oversized request bodies", () => {
  it("20 oversized chunked bodies interleaved with ordinary requests: every ordinary request is answered correctly", async () => {
    for (let i = 0; i < 20; i++) {
      const big = await SELF.fetch("http://localhost/api/addresses/validate", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: chunkedBody(BODY_LIMIT_BYTES + 1 + i * 1000),
      });
      expect(big.status, `oversized ${i}`).toBe(413);
      expect(await big.json()).toMatchObject({ error: "Payload Too Large" });
      const normal = await client().addresses.validate.$post({ json: { address: ADDRESS } });
      expect(normal.status, `ordinary ${i}`).toBe(200);
      expect(await normal.json()).toMatchObject({ isValid: true, address: ADDRESS, pattern: "0000" });
    }
  });

  it("the same, sent all at once", async () => {
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? SELF.fetch("http://localhost/api/addresses/validate", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: chunkedBody(BODY_LIMIT_BYTES * 2),
          })
        : client().addresses.validate.$post({ json: { address: ADDRESS } }),
    );
    const statuses = await Promise.all(calls.map(async (p) => (await p).status));
    expect(statuses).toEqual(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 413 : 200)));
  });

  // Past the limit the reader discards up to DISCARD_FACTOR x the limit (so wrangler dev's proxy sees a finished
  // upload; scripts/repro/oversized-body.ts), then cancels. The runtime may pull a chunk or two ahead.
  const readCap = BODY_LIMIT_BYTES * DISCARD_FACTOR + 3 * CHUNK;

  it("an endless chunked body is read no further than the discard cap and its stream is cancelled", async () => {
    const { stream, state } = endlessBody();
    const res = await createApp().request(
      "http://localhost/api/addresses/validate",
      { method: "POST", headers: { "content-type": "application/json" }, body: stream },
      env,
    );
    expect(res.status).toBe(413);
    expect(state.cancelled).toBe(true);
    expect(state.pulledBytes).toBeLessThanOrEqual(readCap);
  });

  it("a declared Content-Length over the limit is refused, and an endless upload behind it is cancelled at the cap", async () => {
    const { stream, state } = endlessBody();
    const res = await createApp().request(
      "http://localhost/api/addresses/validate",
      { method: "POST", headers: { "content-type": "application/json", "content-length": String(BODY_LIMIT_BYTES + 1) }, body: stream },
      env,
    );
    expect(res.status).toBe(413);
    expect(state.cancelled).toBe(true);
    expect(state.pulledBytes).toBeLessThanOrEqual(readCap);
  });

  it("a body of exactly the limit still reaches the route (bulk uploads get their larger limit)", async () => {
    const padded = JSON.stringify({ address: ADDRESS }).padEnd(BODY_LIMIT_BYTES, " ");
    const res = await SELF.fetch("http://localhost/api/addresses/validate", { method: "POST", headers: { "content-type": "application/json" }, body: padded });
    expect(res.status).toBe(200);
    const bulk = await SELF.fetch("http://localhost/api/admin/addresses/bulk", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chunkedBody(BODY_LIMIT_BYTES * 2),
    });
    // Past the ordinary limit but inside the bulk one: refused for the missing session, not for its size.
    expect(bulk.status).toBe(401);
    const huge = await SELF.fetch("http://localhost/api/admin/addresses/bulk", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chunkedBody(BULK_BODY_LIMIT_BYTES + 1),
    });
    expect(huge.status).toBe(413);
  });
});
