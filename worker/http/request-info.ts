// Who is asking, as the audit trail and the rate limits record it: built once per request by the middleware
// below (app.ts mounts it on every /api call) and read as c.var.requestInfo.
import type { MiddlewareHandler } from "hono";

export type RequestInfo = {
  /** The caller's address as Cloudflare saw it; "local" where there is no edge (wrangler dev, tests). */
  ip: string;
  /** The User-Agent header, at most 256 characters; null when none was sent. */
  userAgent: string | null;
};

/** The request's RequestInfo from its headers. */
export function readRequestInfo(headers: { header(name: string): string | undefined }): RequestInfo {
  const ip = (headers.header("cf-connecting-ip") ?? "").trim();
  return { ip: ip && ip.length <= 64 ? ip : "local", userAgent: headers.header("user-agent")?.slice(0, 256) ?? null };
}

/** Sets c.var.requestInfo for everything after it. */
export const requestInfo: MiddlewareHandler<{ Variables: { requestInfo: RequestInfo } }> = async (c, next) => {
  c.set("requestInfo", readRequestInfo(c.req));
  await next();
};
