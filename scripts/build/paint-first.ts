// A Vite plugin that makes every page paint before any of the app's script runs (issue 13, Lighthouse FCP and
// TBT). Vite's index.html starts the entry with <script type="module">, which the browser runs as soon as it
// has arrived, before the first frame when the server is near: the prerendered page then waited for the
// whole entry to evaluate before showing HTML it already had, and Lighthouse's simulation counted the
// download and 4x-slowed evaluation of every high-priority script that had arrived before that paint in the
// first paint (FCP 2.4 s instead of 1.0 s, depending on which came first). The built index.html instead gets:
// - a tiny classic deferred script (web/src/boot/start-after-paint.ts) that imports the entry once the first
//   paint has happened (at once on the empty shell of the other paths, which has nothing to paint); at low
//   priority too: Lighthouse counts a high-priority script that arrives before the first paint as blocking
//   it (a 1 KB script moved the simulated FCP by 0.6 s), whether or not it did;
// - the entry and its imports as modulepreload hints at low priority, so they still download with the HTML
//   and the app starts from the memory cache, without competing with what the first paint needs.
// The prerendered pages are built from this index.html (scripts/build/prerender.ts), so they get the same.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { OutputBundle, OutputChunk } from "rolldown";
import { type Plugin, transformWithOxc } from "vite";

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/g;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href=/g;

/**
 * index.html with the entry started by the boot script at `bootHref` after the first paint, and `startChunks`
 * (what the entry imports dynamically to start, web/src/main.tsx) hinted with the entry's own imports.
 */
export function paintFirstHtml(html: string, bootHref: string, startChunks: readonly string[] = []): string {
  const entries = [...html.matchAll(ENTRY_SCRIPT)];
  if (entries.length !== 1) throw new Error(`paint-first: expected one entry module script in index.html, found ${entries.length}`);
  const entry = entries[0][1];
  const startHints = startChunks.map((href) => `\n    <link rel="modulepreload" crossorigin fetchpriority="low" href="${href}">`).join("");
  return html
    .replace(MODULE_PRELOAD, `<link rel="modulepreload" crossorigin fetchpriority="low" href=`)
    .replace(
      entries[0][0],
      `<link rel="modulepreload" crossorigin fetchpriority="low" href="${entry}">\n    <script defer fetchpriority="low" src="${bootHref}" data-entry="${entry}"></script>${startHints}`,
    );
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

export function paintFirst(bootSource: string): Plugin {
  return {
    name: "vanity:paint-first",
    apply: "build",
    generateBundle: {
      order: "post",
      async handler(_options, bundle) {
        const html = bundle["index.html"];
        // The prerenderer's Node build has no index.html.
        if (!html || html.type !== "asset") return;
        const { code } = await transformWithOxc(fs.readFileSync(bootSource, "utf8"), bootSource, { lang: "ts" });
        const fileName = `assets/${path.basename(bootSource, ".ts")}-${createHash("sha256").update(code).digest("base64url").slice(0, 8)}.js`;
        this.emitFile({ type: "asset", fileName, source: code });
        html.source = paintFirstHtml(String(html.source), `/${fileName}`, startChunks(bundle));
      },
    },
  };
}
