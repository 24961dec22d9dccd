// Request bodies are read through a bounded reader: at most `maxBytes` are ever pulled, and an oversized body
// is cancelled at once, so the runtime is not left holding a half-read stream. Hono's bodyLimit stops reading
// without cancelling; under `wrangler dev` that left the connection's body pending, and the next request from
// anyone got 503 "worker restarted mid-request" (scripts/repro/oversized-body.ts reproduces it).
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../types";
import { ApiError } from "./errors";

const tooLarge = (maxBytes: number) => new ApiError(413, `Request body exceeds the ${Math.round(maxBytes / 1024)} KB limit`);

/**
 * Past the limit nothing more is kept, but up to DISCARD_FACTOR x the limit is still read and dropped before the
 * stream is cancelled. wrangler dev's proxy treats an upload the Worker stopped reading as a crashed Worker and
 * restarts it, failing everyone's requests for a moment (scripts/repro/oversized-body.ts); an upload read to its
 * end does not. Beyond the factor the stream is cancelled anyway: memory stays bounded by maxBytes, time by the cap.
 */
export const DISCARD_FACTOR = 16;

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, readSoFar: number, maxBytes: number) {
  let size = readSoFar;
  while (size <= maxBytes * DISCARD_FACTOR) {
    const { done, value } = await reader.read();
    if (done) return;
    size += value.byteLength;
  }
  await reader.cancel("request body too large").catch(() => undefined);
}

/** Reads the whole body if it fits in `maxBytes`; otherwise cancels the stream and returns null. */
export async function readBounded(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await discardRest(reader, size, maxBytes);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** Refuses bodies over `maxBytes` with 413, whether or not they declare a Content-Length. */
export function bodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    const declared = Number(raw.headers.get("content-length") ?? NaN);
    if (declared > maxBytes) {
      // Refused on its declared length: nothing is kept; the upload is discarded up to the cap, then cancelled.
      await discardRest(raw.body.getReader(), 0, maxBytes);
      throw tooLarge(maxBytes);
    }
    const bytes = await readBounded(raw.body, maxBytes);
    if (bytes === null) throw tooLarge(maxBytes);
    c.req.raw = new Request(raw, { body: bytes });
    await next();
  };
}
