// The site a sign-in message must name: the host the browser is talking to. Taken from the request URL (on
// Cloudflare and under `wrangler dev` that is the host the browser used), so a message signed for a
// look-alike domain is refused here.
export type SiteOrigin = { scheme: "http" | "https"; domain: string; origin: string };

export function siteOf(requestUrl: string): SiteOrigin {
  const url = new URL(requestUrl);
  return { scheme: url.protocol === "http:" ? "http" : "https", domain: url.host, origin: url.origin };
}

/** True when a message's URI points at this site (same scheme, host and port). */
export function uriIsOnSite(uri: string, site: SiteOrigin): boolean {
  try {
    return new URL(uri).origin === site.origin;
  } catch {
    return false;
  }
}
