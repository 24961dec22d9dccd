// The smallest Worker that shows the local-runtime cause of "one oversized body breaks the next
// request": POST /partial reads the first 256 KB of the body, cancels the rest and answers 413. Under `wrangler
// dev` the proxy in front of the Worker then sees the upload fail, reports the Worker as crashed and answers the
// next requests 503 "Your worker restarted mid-request" while it restarts it. POST /unread answers without
// touching the body, which the proxy survives; POST /read reads everything.
export default {
  async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (request.method !== "POST") return new Response("ok");
    if (path === "/unread") return new Response("too large", { status: 413 });
    if (path === "/partial") {
      const reader = request.body!.getReader();
      let size = 0;
      while (size <= 256 * 1024) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
      }
      await reader.cancel();
      return new Response("too large", { status: 413 });
    }
    await request.arrayBuffer();
    return new Response("ok");
  },
};
