// The host name a request came to, as local mode reads it (deployment/local-mode.ts). On Cloudflare it is the host
// the request was routed by (the Worker's own public hosts); locally, whatever the browser or test called.
import type { Context } from "hono";

export function requestHost(c: Context): string {
  return new URL(c.req.url).hostname;
}
