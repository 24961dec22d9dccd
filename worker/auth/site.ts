// The site a sign-in message must name: the configured SITE_ORIGIN, never the request. The Host header is
// whatever the client sends, so binding sign-in to it let a message signed for `evil.example`, posted with
// `Host: evil.example`, open a session that then works on the real site.
import { ApiError } from "../http/errors";

export type SiteOrigin = { scheme: "http" | "https"; domain: string; origin: string };

/** Parses an origin such as "https://vanity.example" or "http://localhost:8787"; null if it is not one. */
export function parseSiteOrigin(value: string | undefined): SiteOrigin | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  // An origin only: a path, query or credentials would mean the setting is not what the operator meant.
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")) return null;
  if (value.replace(/\/$/, "") !== url.origin) return null;
  return { scheme: url.protocol === "http:" ? "http" : "https", domain: url.host, origin: url.origin };
}

/** The configured site; a 503 that names the setting when it is missing or malformed. */
export function siteOf(env: { SITE_ORIGIN?: string }): SiteOrigin {
  const site = parseSiteOrigin(env.SITE_ORIGIN);
  if (!site) {
    console.error("refusing sign-in: SITE_ORIGIN is not set to an origin such as https://vanity.example");
    throw new ApiError(503, "Sign-in is disabled: the server's SITE_ORIGIN setting is missing or is not an origin (scheme://host[:port]).");
  }
  return site;
}

/** True when a message's URI points at this site (same scheme, host and port). */
export function uriIsOnSite(uri: string, site: SiteOrigin): boolean {
  try {
    return new URL(uri).origin === site.origin;
  } catch {
    return false;
  }
}
