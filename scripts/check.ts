// `npm run check`: builds the SPA and the production Worker bundle (`wrangler deploy --env production --dry-run`,
// the environment `npm run deploy` uploads) and prints
// their sizes. Fails when the home route's initial JavaScript is over budget (150 KB gzip), or when either
// contains a public dev key (the local dev wallets exist only in npm start's build).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { findDevSecrets } from "./dev-key-scan";
import { buildWeb, ROOT, STACK_ENV } from "./stack";

export const HOME_JS_BUDGET_BYTES = 150 * 1024;

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const gz = (file: string) => gzipSync(fs.readFileSync(file), { level: 9 }).length;

type Manifest = Record<string, { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean }>;

/**
 * JavaScript the browser loads to render the home page: the entry, what it imports dynamically to start (React
 * DOM and the app's modules, web/src/main.tsx), the home route's chunk, and their static imports.
 */
export function homeRouteScripts(distDir: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, ".vite", "manifest.json"), "utf8")) as Manifest;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) visit(dep);
  };
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isEntry) for (const dynamic of chunk.dynamicImports ?? []) visit(dynamic);
    if (chunk.isEntry || key.startsWith("src/routes/index.tsx")) visit(key);
  }
  return [...seen].map((key) => path.join(distDir, manifest[key].file)).filter((f) => f.endsWith(".js"));
}

function main() {
  buildWeb(true);
  const dist = path.join(ROOT, "dist");
  const scripts = homeRouteScripts(dist);
  const homeJs = scripts.reduce((sum, f) => sum + gz(f), 0);
  console.log("Front end (gzip):");
  for (const f of scripts) console.log(`  ${path.relative(dist, f).padEnd(40)} ${kb(gz(f))}`);
  console.log(`  home route initial JS total              ${kb(homeJs)} (budget ${kb(HOME_JS_BUDGET_BYTES)})`);

  const outdir = path.join(ROOT, ".wrangler", "dry-run");
  fs.rmSync(outdir, { recursive: true, force: true });
  const res = spawnSync(path.join(ROOT, "node_modules", ".bin", "wrangler"), ["deploy", "--env", "production", "--dry-run", "--outdir", outdir], {
    cwd: ROOT,
    env: STACK_ENV,
    encoding: "utf8",
  });
  if (res.status !== 0) {
    console.error(res.stdout, res.stderr);
    console.error("✗ wrangler deploy --dry-run failed");
    process.exit(1);
  }
  const bundle = fs.readdirSync(outdir).filter((f) => f.endsWith(".js"));
  const raw = bundle.reduce((s, f) => s + fs.statSync(path.join(outdir, f)).size, 0);
  const zipped = bundle.reduce((s, f) => s + gz(path.join(outdir, f)), 0);
  console.log(`Worker bundle (wrangler deploy --env production --dry-run): ${kb(raw)} raw, ${kb(zipped)} gzip`);

  const leaks = [...findDevSecrets(dist), ...findDevSecrets(outdir)];
  for (const leak of leaks) console.error(`✗ ${path.relative(ROOT, leak.file)} contains ${leak.secret}`);
  if (leaks.length > 0) {
    console.error("✗ the production build contains public dev keys (the local dev wallets must be built only by npm start)");
    process.exit(1);
  }
  console.log("No dev keys in dist/ or the Worker bundle.");

  if (homeJs > HOME_JS_BUDGET_BYTES) {
    console.error(`✗ home route initial JS ${kb(homeJs)} is over the ${kb(HOME_JS_BUDGET_BYTES)} budget`);
    process.exit(1);
  }
  console.log("✓ check passed");
}

main();
