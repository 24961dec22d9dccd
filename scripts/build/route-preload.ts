// A Vite plugin that lets the three pages a buyer lands on (/, /marketplace, /address/{id}) start their own
// code and data with the HTML instead of after the app's entry has run (issue 13, Lighthouse LCP). It appends
// per-path `Link` headers to dist/_headers, which Workers Static Assets sends with the page:
// - rel=modulepreload for the route's split chunk and the chunks only it imports (the entry's own imports
//   are already preloaded by index.html), so each route still loads only what it uses;
// - rel=preload as=fetch for the API reads the page makes on its first render, with credentials as the app's
//   fetches send them, so the browser reuses the answer. `:id` is the assets router's placeholder.
import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

type ManifestChunk = { file: string; imports?: string[]; isEntry?: boolean };
type Manifest = Record<string, ManifestChunk>;

export type RouteHint = { path: string; routeSource: string; fetches: string[] };

const MARKER = "# Route preload hints (scripts/build/route-preload.ts)";

/** Manifest keys reachable from `key` through static imports. */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) closure(manifest, dep, seen);
  return seen;
}

/** The `_headers` block for the hints: one rule per path, one Link header each. */
export function routeHintHeaders(manifest: Manifest, hints: readonly RouteHint[]): string {
  const entryKeys = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(manifest, key, entryKeys);
  const blocks = hints.map((hint) => {
    const key = Object.keys(manifest).find((k) => k === `${hint.routeSource}?tsr-split=component`);
    if (!key) throw new Error(`route-preload: no split chunk for ${hint.routeSource} in the Vite manifest`);
    const scripts = [...closure(manifest, key)]
      .filter((k) => !entryKeys.has(k))
      .map((k) => manifest[k].file)
      .filter((f) => f.endsWith(".js"));
    const links = [
      ...scripts.map((f) => `</${f}>; rel=modulepreload`),
      ...hint.fetches.map((url) => `<${url}>; rel=preload; as=fetch; crossorigin=use-credentials`),
    ];
    return `${hint.path}\n  Link: ${links.join(", ")}`;
  });
  return `${MARKER}\n${blocks.join("\n")}\n`;
}

export function routePreload(hints: readonly RouteHint[]): Plugin {
  let outDir = "";
  return {
    name: "vanity:route-preload",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After every file (the manifest, the copied public/_headers) is written.
    closeBundle() {
      const manifestPath = path.join(outDir, ".vite", "manifest.json");
      const headersPath = path.join(outDir, "_headers");
      if (!fs.existsSync(manifestPath) || !fs.existsSync(headersPath)) return;
      const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8")) as Manifest;
      const base = fs.readFileSync(headersPath, "utf8").split(MARKER)[0].trimEnd();
      fs.writeFileSync(headersPath, `${base}\n\n${routeHintHeaders(manifest, hints)}`);
    },
  };
}
