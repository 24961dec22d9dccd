// A Vite plugin that makes every page paint before any of the app's script is fetched or run (for
// Lighthouse FCP, LCP and TBT). Vite's index.html starts the entry with <script type="module"> and hints its
// imports with <link rel="modulepreload">: from a nearby server they all arrived before the first frame, a
// ready module script runs before the browser paints (the prerendered page waited for the whole entry to
// evaluate before showing HTML it already had), and Lighthouse's simulation counts every script that has
// arrived before the first paint in that paint (high-priority ones in FCP, all of them in LCP): FCP 2.4 s or
// 1.0 s and LCP 2.6 s or 1.2 s, depending on which came first. The built index.html instead has one inline
// script (web/src/boot/start-after-paint.ts) that, once the first paint has happened (at once on the empty
// shell of the other paths, which has nothing to paint), asks for the entry and everything it needs to start
// at once (`data-modules`, and the prerendered route's own chunks, `data-route-modules` on #root) and imports
// the entry. Inline, allowed by its hash in the CSP (`cspWithScript`; script-src stays 'self' otherwise),
// because as a file it is a request that either counts in the first paint (high priority) or is fetched
// after everything else (low priority; the app started 150-300 ms late). The prerendered pages are built
// from this index.html (scripts/build/prerender.ts), so they get the same.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { OutputBundle, OutputChunk } from "rolldown";
import { type Plugin, transformWithOxc } from "vite";

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/g;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/**
 * index.html with the entry started by the inline boot script after the first paint. Vite's modulepreload
 * hints for the entry's imports leave the HTML: the boot script asks for them, and for `startChunks` (what the
 * entry imports dynamically to start, web/src/main.tsx), all at once when it starts the entry (`data-modules`).
 */
export function paintFirstHtml(html: string, bootCode: string, startChunks: readonly string[] = []): string {
  if (/<\/script/i.test(bootCode)) throw new Error("paint-first: the boot script cannot be inlined");
  const entries = [...html.matchAll(ENTRY_SCRIPT)];
  if (entries.length !== 1) throw new Error(`paint-first: expected one entry module script in index.html, found ${entries.length}`);
  const entry = entries[0][1];
  const modules = [entry, ...[...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]), ...startChunks];
  return html
    .replace(MODULE_PRELOAD, "")
    .replace(entries[0][0], `<script data-entry="${entry}" data-modules="${[...new Set(modules)].join(" ")}">${bootCode}</script>`);
}

/**
 * The chunks the entry imports dynamically and everything they import statically, minus the entry's own static
 * imports (Vite hints those already). Not the chunks those import dynamically: the routes load their own.
 */
function startChunks(bundle: OutputBundle): string[] {
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === "chunk");
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error("paint-first: no entry chunk");
  const hinted = new Set<string>([entry.fileName]);
  const visit = (file: string, into: Set<string>) => {
    if (into.has(file)) return;
    into.add(file);
    for (const dep of byFile.get(file)?.imports ?? []) visit(dep, into);
  };
  for (const dep of entry.imports) visit(dep, hinted);
  const start = new Set<string>();
  for (const file of entry.dynamicImports) visit(file, start);
  return [...start].filter((f) => !hinted.has(f) && f.endsWith(".js")).map((f) => `/${f}`);
}

/** The `_headers` text with the boot script's hash allowed by the CSP's script-src (which is otherwise 'self'). */
export function cspWithScript(headers: string, bootCode: string): string {
  const hash = createHash("sha256").update(bootCode).digest("base64");
  if (!headers.includes("script-src 'self';")) throw new Error("paint-first: _headers has no script-src 'self' to extend");
  return headers.replace("script-src 'self';", `script-src 'self' 'sha256-${hash}';`);
}

export function paintFirst(bootSource: string): Plugin {
  let outDir = "";
  let bootCode: string | null = null;
  return {
    name: "vanity:paint-first",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const headersPath = path.join(outDir, "_headers");
      if (bootCode === null || !fs.existsSync(headersPath)) return;
      fs.writeFileSync(headersPath, cspWithScript(fs.readFileSync(headersPath, "utf8"), bootCode));
    },
    generateBundle: {
      order: "post",
      async handler(_options, bundle) {
        const html = bundle["index.html"];
        // The prerenderer's Node build has no index.html.
        if (html?.type !== "asset") return;
        bootCode = (await transformWithOxc(fs.readFileSync(bootSource, "utf8"), bootSource, { lang: "ts" })).code.trim();
        html.source = paintFirstHtml(String(html.source), bootCode, startChunks(bundle));
      },
    },
  };
}
