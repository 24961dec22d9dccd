// A Vite plugin that writes the pages a buyer lands on as HTML that paints without JavaScript (for
// Lighthouse mobile: the first paint and the largest text must not wait for ~80 KB of script to download and
// run on a slow phone). After the browser build it builds web/src/prerender.tsx for Node, renders each page
// with react-dom/server and writes it beside index.html, with:
// - the rendered tree in #root, marked with the route it is (main.tsx then renders the app over it once the
//   route's first reads have answered; a dev server's empty shell renders at once as before);
// - the route's own <title>;
// - the shell's one stylesheet linked, not inlined: the sheet is 55 KB of the page's 76 KB, and without it the
//   compressed HTML fits the first round trip while the sheet comes on its own, once for every page (Lighthouse,
//   same hour, A/B: FCP 0.88 -> 0.78 s, LCP 1.08 -> 0.93 s and TBT lower on all three landing pages);
// - the route's own chunks named on #root (`data-route-modules`), which the boot script asks for with the
//   entry's after the first paint (scripts/build/paint-first.ts says why not before);
// - its controls (buttons, fields) disabled: they do nothing until the app renders over the page, and what a
//   visitor typed or chose in them would be lost when it does; the app's own controls replace them.
// index.html itself stays the empty shell: it is also the fallback for every other path of the SPA.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin, type ResolvedConfig } from "vite";
import { readManifest, routeScriptFiles } from "./route-preload.ts";

/**
 * One page to write: `url` is rendered, the HTML goes to `file` (relative to the build's outDir); `routeSource`
 * is the route's file (as the router plugin's manifest keys name it), whose chunks the page preloads.
 */
export type PrerenderPage = { url: string; file: string; routeSource: string };

type RenderPage = (url: string) => Promise<{ html: string; routeId: string }>;

const ROOT_DIV = '<div id="root"></div>';

const CONTROL = /<(button|input|select|textarea)\b(?![^>]*\sdisabled="")/g;

/** The rendered tree with every control disabled (React writes boolean attributes as `name=""`). */
export function disableControls(html: string): string {
  return html.replace(CONTROL, '<$1 disabled=""');
}

const escapeAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/**
 * The page: the shell with the rendered tree in #root, its title in <head>, and the route's `scripts` named for the
 * boot script. Throws when the shell is not the one it expects, so a changed index.html cannot silently ship pages
 * that do not hydrate, or that paint unstyled (the page needs the shell's one stylesheet in <head>, render-blocking).
 */
export function pageHtml(shell: string, rendered: { html: string; routeId: string }, scripts: readonly string[] = []): string {
  if (!shell.includes(ROOT_DIV)) throw new Error(`prerender: index.html has no ${ROOT_DIV}`);
  const head = shell.slice(0, shell.indexOf("</head>"));
  const sheets = head.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
  if (sheets.length !== 1) throw new Error(`prerender: index.html links ${sheets.length} stylesheets in <head>, expected 1`);
  // React hoists <title> out of the tree when it hydrates; in the document it belongs in <head>.
  const titles = [...rendered.html.matchAll(/<title>([^<]*)<\/title>/g)];
  if (titles.length !== 1) throw new Error(`prerender: ${rendered.routeId} rendered ${titles.length} titles`);
  const body = disableControls(rendered.html.replace(titles[0][0], ""));
  const out = shell.replace(/<title>[^<]*<\/title>/, titles[0][0]);
  return out.replace(
    ROOT_DIV,
    `<div id="root" data-prerendered-route="${escapeAttr(rendered.routeId)}"${scripts.length ? ` data-route-modules="${escapeAttr(scripts.join(" "))}"` : ""}>${body}</div>`,
  );
}

export function prerender(pages: readonly PrerenderPage[]): Plugin {
  let config: ResolvedConfig;
  return {
    name: "vanity:prerender",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      // The nested Node build below loads this same config; it must not prerender again.
      if (config.build.ssr) return;
      const outDir = path.resolve(config.root, config.build.outDir);
      const serverDir = fs.mkdtempSync(path.join(os.tmpdir(), "vanity-prerender-"));
      try {
        await build({
          configFile: config.configFile,
          mode: config.mode,
          logLevel: "error",
          // React and the router in the same form (production or development) as the browser build.
          define: { "process.env.NODE_ENV": JSON.stringify(config.isProduction ? "production" : "development") },
          // Bundled whole, so the module runs from a folder outside the project.
          ssr: { noExternal: true },
          build: { ssr: path.join(config.root, "src", "prerender.tsx"), outDir: serverDir, emptyOutDir: true, manifest: false, copyPublicDir: false },
        });
        const { renderPage } = (await import(pathToFileURL(path.join(serverDir, "prerender.js")).href)) as { renderPage: RenderPage };
        const shell = fs.readFileSync(path.join(outDir, "index.html"), "utf8");
        const manifest = readManifest(outDir);
        for (const page of pages) {
          const file = path.join(outDir, page.file);
          const scripts = routeScriptFiles(manifest, page.routeSource).map((f) => `/${f}`);
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, pageHtml(shell, await renderPage(page.url), scripts));
        }
      } finally {
        fs.rmSync(serverDir, { recursive: true, force: true });
      }
    },
  };
}
