// A Vite plugin that lets the three pages a buyer lands on (/, /marketplace, /address/{id}) start their own
// code and data with the HTML instead of after the app's entry has run (for Lighthouse LCP):
// - it appends per-path `Link` headers to dist/_headers, which Workers Static Assets sends with the page:
//   rel=preload as=fetch for the API reads the page makes on its first render, with credentials as the app's
//   fetches send them, so the browser reuses the answer. `:id` is the assets router's placeholder;
// - `routeScriptFiles` names the route's split chunk and the chunks only it imports (the entry's own imports
//   are already in index.html), which scripts/build/prerender.ts puts in the page as low-priority modulepreload
//   hints, so each route still loads only what it uses. Not as Link headers: Chrome ignores fetchpriority
//   there, and at high priority the scripts compete with the HTML that the first paint needs (and Lighthouse
//   counts every high-priority script that arrived before the first paint as blocking it).
import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

type ManifestChunk = { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean };
export type Manifest = Record<string, ManifestChunk>;

export type RouteHint = { path: string; routeSource: string; fetches: string[] };

const MARKER = "# Route preload hints (scripts/build/route-preload.ts)";

/** Manifest keys reachable from `key` through static imports. */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) closure(manifest, dep, seen);
  return seen;
}

/**
 * The files of the route's own chunks (its split chunk and what only it imports), without the ones index.html
 * already hints: the entry's, and those of the modules the entry imports to start (scripts/build/paint-first.ts).
 */
export function routeScriptFiles(manifest: Manifest, routeSource: string): string[] {
  const entryKeys = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isEntry) continue;
    closure(manifest, key, entryKeys);
    for (const dynamic of chunk.dynamicImports ?? []) closure(manifest, dynamic, entryKeys);
  }
  const key = Object.keys(manifest).find((k) => k === `${routeSource}?tsr-split=component`);
  if (!key) throw new Error(`route-preload: no split chunk for ${routeSource} in the Vite manifest`);
  return [...closure(manifest, key)]
    .filter((k) => !entryKeys.has(k))
    .map((k) => manifest[k].file)
    .filter((f) => f.endsWith(".js"));
}

export function readManifest(outDir: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(outDir, ".vite", "manifest.json"), "utf8")) as Manifest;
}

/** The `_headers` block for the hints: one rule per path, one Link header each. */
export function routeHintHeaders(manifest: Manifest, hints: readonly RouteHint[]): string {
  const blocks = hints.map((hint) => {
    // Checked here too, so a renamed route fails the build even when nothing prerenders it.
    routeScriptFiles(manifest, hint.routeSource);
    const links = hint.fetches.map((url) => `<${url}>; rel=preload; as=fetch; crossorigin=use-credentials`);
    return links.length ? `${hint.path}\n  Link: ${links.join(", ")}` : null;
  });
  return `${MARKER}\n${blocks.filter((b) => b !== null).join("\n")}\n`;
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
      const manifest = readManifest(outDir);
      const base = fs.readFileSync(headersPath, "utf8").split(MARKER)[0].trimEnd();
      fs.writeFileSync(headersPath, `${base}\n\n${routeHintHeaders(manifest, hints)}`);
    },
  };
}
