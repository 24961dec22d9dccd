// SITE_ORIGIN: the site's origin, which sign-in messages must name (auth/site.ts) and which, with the host a
// request came to, tells whether this deployment is on the developer's own machine (local-mode.ts).

export type SiteOrigin = { scheme: "http" | "https"; domain: string; hostname: string; origin: string };

/** Parses an origin such as "https://vanity.example" or "http://localhost:8787"; null if it is not one. */
export function parseSiteOrigin(value: string | undefined): SiteOrigin | null {
  if (!value || !URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  // An origin only, as written: a path, query, fragment or credentials (anything the origin does not spell out)
  // would mean the setting is not what the operator meant.
  if (value.replace(/\/$/, "") !== url.origin) return null;
  return { scheme: url.protocol === "http:" ? "http" : "https", domain: url.host, hostname: url.hostname, origin: url.origin };
}
