// The landing pages the Worker hands out itself (wrangler.toml run_worker_first): `/` and /address/{id} get
// their prerendered HTML (scripts/build/prerender.ts), which paints before any script runs. They cannot be
// plain assets: `/` would be index.html, and index.html must stay the empty shell that every other path of
// the single-page app falls back to; /address/{id} has one shell for every id. /marketplace stays the assets'
// page; the Worker only points its preload hints at the reads a filtered URL makes.
import { parseAppSearch } from "../../web/src/server-rendered/url-search";
import { marketplaceFirstReads, parseMarketSearch } from "../../web/src/server-rendered/marketplace-search";
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

const FEATURED_HINT = /^<\/api\/addresses\/featured(?:\?[^>]*)?>/;
const RESULTS_HINT = /^<\/api\/addresses\/search(?:\?[^>]*)?>/;

/**
 * The marketplace's `Link` header for the page at `search` (its query string). The build's hints for /marketplace
 * preload the plain page's reads; a filtered URL reads others (the featured strip of its network, its own
 * results), so the browser fetched two answers the page never used and warned about each. Here each of those two
 * hints names the read the page at `search` makes, found by the route's own parsing; the other hints stay. With a
 * session the page asks for its results as the wallet it reconnects (`walletAddress`), which the page's request
 * does not tell: that hint goes (the featured strip's read is the same for everyone).
 */
export function marketplaceLink(link: string, search: string, withSession: boolean): string {
  const [featured, results] = marketplaceFirstReads(parseMarketSearch(parseAppSearch(search)));
  return link
    .split(/,\s*(?=<)/)
    .flatMap((hint) => {
      if (RESULTS_HINT.test(hint)) return withSession ? [] : [hint.replace(RESULTS_HINT, () => `<${results}>`)];
      return [hint.replace(FEATURED_HINT, () => `<${featured}>`)];
    })
    .join(", ");
}

/** /marketplace (wrangler.toml run_worker_first): the assets' page, its hints following its query and session. */
async function serveMarketplace(request: Request, env: Env): Promise<Response> {
  const res = await env.ASSETS.fetch(request);
  const search = new URL(request.url).search;
  const withSession = carriesSession(request);
  const link = res.headers.get("Link");
  if (!link || (!search && !withSession)) return res;
  const page = new Response(res.body, res);
  const hints = marketplaceLink(link, search, withSession);
  if (hints) page.headers.set("Link", hints);
  else page.headers.delete("Link");
  return page;
}

/** A session cookie by name (valid or not): such a visitor's app reads the listing with its session. */
const carriesSession = (request: Request) => /(?:^|;)\s*(?:__Host-)?session=/.test(request.headers.get("cookie") ?? "");

/**
 * The page for a GET of a prerendered path; null for everything else (the API). `api` is the Worker's own API:
 * with it, a listing's page carries the listing (worker/landing/listing-page.ts).
 */
export async function servePrerenderedPage(request: Request, env: Env, api?: ApiFetch): Promise<Response | null> {
  const url = new URL(request.url);
  if (url.pathname === "/marketplace") return serveMarketplace(request, env);
  if (request.method !== "GET" && request.method !== "HEAD") return null;
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
