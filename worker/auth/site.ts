// The site a sign-in message must name: the configured SITE_ORIGIN, never the request. The Host header is
// whatever the client sends, so binding sign-in to it let a message signed for `evil.example`, posted with
// `Host: evil.example`, open a session that then works on the real site.
import type { MiddlewareHandler } from "hono";
import { isLoopbackHost, shownHost } from "../deployment/local-mode";
import { parseSiteOrigin, type SiteOrigin } from "../deployment/site-origin";
import { ApiError } from "../http/errors";
import type { AppEnv } from "../types";

export { parseSiteOrigin, type SiteOrigin };

/** The deployment's site (SITE_ORIGIN); a 503 that names the setting when it is missing or malformed. */
export function siteOf(deployment: { site: SiteOrigin | null }): SiteOrigin {
  const { site } = deployment;
  if (!site) {
    console.error("refusing sign-in: SITE_ORIGIN is not set to an origin such as https://vanity.example");
    throw new ApiError(503, "Sign-in is disabled: the server's SITE_ORIGIN setting is missing or is not an origin (scheme://host[:port]).");
  }
  return site;
}

/**
 * On the sign-in routes: a SITE_ORIGIN on this machine (the local default) while the site is served at a public
 * host is the local configuration deployed unchanged. Messages naming localhost would be signed on a public
 * site, so sign-in refuses with 503 naming the setting (docs/production-settings.md#how-a-refusal-shows).
 */
export const requireSiteOriginHere: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { site, requestHost: host } = c.var.deployment;
  if (site && host !== null && isLoopbackHost(site.hostname) && !isLoopbackHost(host)) {
    console.error(`refusing sign-in: SITE_ORIGIN ${site.origin} is on this machine, but the request came to ${shownHost(host)}`);
    throw new ApiError(
      503,
      `Sign-in is disabled: the server's SITE_ORIGIN is ${site.origin}, on its own machine, but this site is served at ${shownHost(host)}. Set SITE_ORIGIN to the site's origin.`,
    );
  }
  await next();
};

/** True when a message's URI points at this site (same scheme, host and port). */
export function uriIsOnSite(uri: string, site: SiteOrigin): boolean {
  try {
    return new URL(uri).origin === site.origin;
  } catch {
    return false;
  }
}
