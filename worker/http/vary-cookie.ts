// A browser keeps a `public` answer and may reuse it for the next request to the same URL, with or without
// the session cookie it has since received: the anonymous list would then show after signing in. Every
// public answer therefore says it depends on the Cookie header, so the browser keeps one copy per session
// state. Set outside the edge cache (which keys anonymous answers itself and stores no Vary).
import type { MiddlewareHandler } from "hono";

export const varyPublicByCookie: MiddlewareHandler = async (c, next) => {
  await next();
  if (!/\bpublic\b/i.test(c.res.headers.get("cache-control") ?? "")) return;
  const vary = c.res.headers.get("vary") ?? "";
  if (!/(^|,)\s*(cookie|\*)\s*(,|$)/i.test(vary)) c.res.headers.set("vary", vary ? `${vary}, Cookie` : "Cookie");
};
