// The landing pages the Worker hands out itself (wrangler.toml run_worker_first): `/` and /address/{id} get
// their prerendered HTML (scripts/build/prerender.ts), which paints before any script runs. They cannot be
// plain assets: `/` would be index.html, and index.html must stay the empty shell that every other path of
// the single-page app falls back to; /address/{id} has one shell for every id.
import { pageTitle } from "../../web/src/server-rendered/page-title";
import { anonymousListing, type ApiFetch, listingPageId, withListing, withoutListingPreload } from "./listing-page";

/** The prerendered asset for a path, or null when the path is not a prerendered page. */
export function prerenderedAsset(pathname: string): string | null {
  if (pathname === "/") return "/prerendered/home";
  if (/^\/address\/[^/]+\/?$/.test(pathname)) return "/prerendered/listing";
  return null;
}

/** A listing page's own title for the tab and history, as the app sets it (the shell was rendered for id 0). */
function listingTitle(pathname: string): string | null {
  const id = /^\/address\/([0-9]{1,15})\/?$/.exec(pathname)?.[1];
  return id ? pageTitle(`Listing #${id}`).meta[0].title : null;
}

/** A session cookie by name (valid or not): such a visitor's app reads the listing with its session. */
const carriesSession = (request: Request) => /(?:^|;)\s*(?:__Host-)?session=/.test(request.headers.get("cookie") ?? "");

/**
 * The page for a GET of a prerendered path; null for everything else (the API). `api` is the Worker's own API:
 * with it, a listing's page carries the listing (worker/landing/listing-page.ts).
 */
export async function servePrerenderedPage(request: Request, env: Env, api?: ApiFetch): Promise<Response | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const url = new URL(request.url);
  const asset = prerenderedAsset(url.pathname);
  if (!asset) return null;
  // The page's own preload hints are _headers rules for its path (scripts/build/route-preload.ts), which the
  // assets apply to a request for that path, not for the prerendered file: ask for both.
  const plain = new Headers(request.headers);
  plain.delete("If-None-Match");
  plain.delete("If-Modified-Since");
  const listingId = request.method === "GET" && api ? listingPageId(url.pathname) : null;
  const [page, forPath, found] = await Promise.all([
    // A build without prerendered pages (worker tests, an old dist/) gets the assets' single-page fallback.
    // A listing's page is asked for in full: a "not modified" for the shell says nothing about the listing.
    env.ASSETS.fetch(new Request(new URL(asset, url), listingId ? { headers: plain } : request)),
    env.ASSETS.fetch(new Request(url, { method: "HEAD", headers: plain })),
    listingId && api ? anonymousListing(url.origin, listingId, api).catch(() => null) : null,
  ]);
  let link = forPath.headers.get("Link");
  const title = listingTitle(url.pathname);
  if (!page.ok || (!link && !title)) return page;
  if (found && link && !carriesSession(request)) link = withoutListingPreload(link, listingId!);
  let res = new Response(page.body, page);
  if (link) res.headers.set("Link", link);
  if (found) {
    try {
      res = withListing(res, listingId!, found);
    } catch (err) {
      // A listing the components cannot render still gets its page: the shell, and the app reads it as before.
      console.error("listing page render failed", err instanceof Error ? err.message : String(err));
    }
  }
  return title ? new HTMLRewriter().on("title", { element: (el) => void el.setInnerContent(title) }).transform(res) : res;
}
