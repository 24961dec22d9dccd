// What the project imports from npm, against what package.json declares. Runtime code (web/src, worker/,
// schema/, gpu/ outside tests) ships, so each package it imports is a dependency; everything else (scripts,
// tests, e2e, configs, and the local dev wallets that only npm start's build contains) may use a
// devDependency. The test (dependencies.test.ts) fails on an undeclared import, a runtime import of a
// devDependency, a dependency nothing at runtime imports, and a version that is not pinned exactly.
import fs from "node:fs";
import path from "node:path";
import { builtinModules } from "node:module";
import ts from "typescript";
import { sourceFiles } from "./import-cycles";

/** Folders whose non-test code ships (the browser bundle, the Worker, the shapes both read, the GPU kernel). */
export const RUNTIME_FOLDERS = ["web/src", "worker", "schema", "gpu"];
/** Folders and root files only the tools read. */
export const TOOL_FOLDERS = ["scripts", "e2e"];
export const ROOT_CONFIGS = ["vite.config.ts", "vitest.config.ts", "vitest.mutation.config.ts", "drizzle.config.ts"];

/** Code that is in a runtime folder but never ships: tests, test helpers, and the dev wallets (npm start only). */
export function isToolOnly(relative: string): boolean {
  return (
    /\.(test|type-test|e2e)\.tsx?$/.test(relative) ||
    /(^|\/)(test|test-chain)\//.test(relative) ||
    relative.startsWith("web/src/wallet/dev/") ||
    relative.endsWith(".d.ts")
  );
}

/** The npm package a bare specifier names (`@scope/name/sub` -> `@scope/name`), or null for a file, a builtin or a platform module. */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:")) return null;
  if (specifier.startsWith("cloudflare:") || specifier.startsWith("virtual:") || specifier.includes("?")) return null;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  if (builtinModules.includes(name)) return null;
  return name;
}

/** package -> the files (relative to root) that import it. */
export function importsOf(root: string, files: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    for (const imported of info.importedFiles) {
      const name = packageOf(imported.fileName);
      if (!name) continue;
      const list = out.get(name) ?? [];
      list.push(path.relative(root, file));
      out.set(name, list);
    }
  }
  return out;
}

export type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };

/** Every way the imports and the manifest disagree, one line each (empty when they agree). */
export function dependencyProblems(manifest: Manifest, runtime: Map<string, string[]>, tools: Map<string, string[]>): string[] {
  const deps = manifest.dependencies ?? {};
  const dev = manifest.devDependencies ?? {};
  const problems: string[] = [];
  for (const [name, files] of runtime) {
    if (!(name in deps)) problems.push(`${name} is imported by shipped code (${files[0]}) but is ${name in dev ? "a devDependency" : "not declared"}`);
  }
  for (const [name, files] of tools) {
    if (!(name in deps) && !(name in dev) && !runtime.has(name)) problems.push(`${name} is imported (${files[0]}) but not declared`);
  }
  for (const name of Object.keys(deps)) {
    if (!runtime.has(name)) problems.push(`${name} is a dependency that no shipped code imports (a devDependency, or drop it)`);
  }
  for (const [name, version] of Object.entries({ ...deps, ...dev })) {
    if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/.test(version)) problems.push(`${name}@${version} is not pinned to one exact version`);
  }
  return problems;
}

/** The project's own imports, split into what ships and what only the tools read. */
export function projectImports(root: string): { runtime: Map<string, string[]>; tools: Map<string, string[]> } {
  const all = sourceFiles(root, RUNTIME_FOLDERS);
  const shipped = all.filter((f) => !isToolOnly(path.relative(root, f)));
  const toolFiles = [
    ...all.filter((f) => isToolOnly(path.relative(root, f))),
    ...sourceFiles(root, TOOL_FOLDERS),
    ...ROOT_CONFIGS.map((f) => path.join(root, f)).filter((f) => fs.existsSync(f)),
  ];
  return { runtime: importsOf(root, shipped), tools: importsOf(root, toolFiles) };
}
