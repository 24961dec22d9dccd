// worker/landing/pages.ts: which paths get a prerendered page, and how the answer is put together. The assets are
// replaced by a recording fetcher here (the worker tests run without a built SPA); e2e/prerender.e2e.ts
// checks the same against the real built pages and Workers Static Assets.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { marketplaceLink, prerenderedAsset, servePrerenderedPage } from "../landing/pages";
import { client } from "./client";

type Seen = { path: string; method: string; ifNoneMatch: string | null };

function fakeAssets(linkFor: (path: string) => string | null) {
  const seen: Seen[] = [];
  const fetcher = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      const path = new URL(req.url).pathname;
      seen.push({ path, method: req.method, ifNoneMatch: req.headers.get("If-None-Match") });
      const headers = new Headers({ "content-type": "text/html; charset=utf-8", etag: `"${path}"` });
      const link = linkFor(path);
      if (link) headers.set("Link", link);
      return new Response(`<html><head><title>Listing #0 · 0xVanity</title></head><body>${path}</body></html>`, { headers });
    },
  };
  return { seen, env: { ...env, ASSETS: fetcher as unknown as Fetcher } };
}

describe("prerenderedAsset", () => {
  it("maps the home page and every listing path to their prerendered files, nothing else", () => {
    expect(prerenderedAsset("/")).toBe("/prerendered/home");
    expect(prerenderedAsset("/address/42")).toBe("/prerendered/listing");
    expect(prerenderedAsset("/address/42/")).toBe("/prerendered/listing");
    expect(prerenderedAsset("/address/not-a-number")).toBe("/prerendered/listing");
    for (const path of ["/marketplace", "/address", "/address/42/edit", "/api/addresses/42", "/profile", "//"]) expect(prerenderedAsset(path), path).toBeNull();
  });
});

describe("servePrerenderedPage", () => {
  it("answers a listing with the prerendered file, the path's own preload hints and the listing's title", async () => {
    const assets = fakeAssets((path) => (path === "/address/42" ? "</api/addresses/42>; rel=preload" : null));
    const res = await servePrerenderedPage(new Request("http://localhost/address/42", { headers: { "If-None-Match": '"old"' } }), assets.env);
    expect(res).not.toBeNull();
    const html = await res!.text();
    expect(html).toContain("<body>/prerendered/listing</body>");
    expect(html).toContain("<title>Listing #42 · 0xVanity</title>");
    expect(res!.headers.get("Link")).toBe("</api/addresses/42>; rel=preload");
    expect(res!.headers.get("etag")).toBe('"/prerendered/listing"');
    // The hints come from a plain HEAD of the path itself, never answered "not modified".
    expect(assets.seen).toContainEqual({ path: "/address/42", method: "HEAD", ifNoneMatch: null });
  });

  it("leaves the title alone for an id the app would not accept, and answers HEAD but not writes", async () => {
    const assets = fakeAssets(() => null);
    const odd = await servePrerenderedPage(new Request("http://localhost/address/%3Cscript%3E"), assets.env);
    expect(await odd!.text()).toContain("<title>Listing #0 · 0xVanity</title>");
    expect(await servePrerenderedPage(new Request("http://localhost/", { method: "HEAD" }), assets.env)).not.toBeNull();
    expect(await servePrerenderedPage(new Request("http://localhost/", { method: "POST" }), assets.env)).toBeNull();
    expect(await servePrerenderedPage(new Request("http://localhost/api/health"), assets.env)).toBeNull();
  });

  it("the Worker still answers the API through Hono", async () => {
    const res = await client().health.$get();
    expect(res.headers.get("content-type")).toContain("application/json");
  });
});

describe("the marketplace's preload hints follow its query string", () => {
  const hint = (url: string) => `<${url}>; rel=preload; as=fetch; crossorigin=use-credentials`;
  const PLAIN_SEARCH = "/api/addresses/search?excludeSold=true&limit=20&offset=0&patternFilter=either&sortBy=createdAt&sortOrder=desc";
  // As the build writes it (scripts/build/route-preload.ts), with a hint of another kind after them.
  const BUILT = [hint("/api/addresses/featured"), hint(PLAIN_SEARCH), "</assets/x.js>; rel=modulepreload"].join(", ");

  it("a filtered URL preloads the featured strip of its network and its own results, and nothing the page does not read", async () => {
    const assets = fakeAssets((path) => (path === "/marketplace" ? BUILT : null));
    const res = await servePrerenderedPage(new Request("http://localhost/marketplace?network=ethereum&search=dead&sortBy=price&sortOrder=asc"), assets.env);
    expect(res!.headers.get("Link")).toBe(
      [
        hint("/api/addresses/featured?network=ethereum"),
        hint("/api/addresses/search?excludeSold=true&limit=20&offset=0&search=dead&patternFilter=either&network=ethereum&sortBy=price&sortOrder=asc"),
        "</assets/x.js>; rel=modulepreload",
      ].join(", "),
    );
    expect(await res!.text()).toContain("<body>/marketplace</body>");
  });

  it("the plain page keeps the build's hints; a value the page refuses is read as the page reads it (its default)", async () => {
    const assets = fakeAssets((path) => (path === "/marketplace" ? BUILT : null));
    const plain = await servePrerenderedPage(new Request("http://localhost/marketplace"), assets.env);
    expect(plain!.headers.get("Link")).toBe(BUILT);
    expect(marketplaceLink(BUILT, "?network=bitcoin&patternFilter=nowhere", false)).toBe(BUILT);
    // The router's own JSON for a string it could misread, and a pattern that is text, not a number.
    expect(marketplaceLink(BUILT, `?patternFilter=prefix&patternValue=${encodeURIComponent('"7e8"')}`, false)).toContain(
      hint("/api/addresses/search?excludeSold=true&limit=20&offset=0&patternFilter=prefix&patternValue=7e8&sortBy=createdAt&sortOrder=desc"),
    );
  });

  it("with a session the results' hint goes (the page asks as its wallet), plain or filtered; the featured strip's stays", async () => {
    const assets = fakeAssets((path) => (path === "/marketplace" ? BUILT : null));
    const cookie = { headers: { cookie: "__Host-session=abc" } };
    const plain = await servePrerenderedPage(new Request("http://localhost/marketplace", cookie), assets.env);
    expect(plain!.headers.get("Link")).toBe([hint("/api/addresses/featured"), "</assets/x.js>; rel=modulepreload"].join(", "));
    const filtered = await servePrerenderedPage(new Request("http://localhost/marketplace?network=solana", cookie), assets.env);
    expect(filtered!.headers.get("Link")).toBe([hint("/api/addresses/featured?network=solana"), "</assets/x.js>; rel=modulepreload"].join(", "));
    expect(marketplaceLink(hint(PLAIN_SEARCH), "", true)).toBe("");
  });

  it("any other method on /marketplace still reaches the assets, and a page without hints is left as it is", async () => {
    const assets = fakeAssets(() => null);
    const res = await servePrerenderedPage(new Request("http://localhost/marketplace?network=solana", { method: "POST" }), assets.env);
    expect(res).not.toBeNull();
    expect(res!.headers.get("Link")).toBeNull();
    expect(assets.seen).toEqual([{ path: "/marketplace", method: "POST", ifNoneMatch: null }]);
  });
});
