// A Vite plugin and rolldown code-splitting groups that put what a landing page loads into a few files instead
// of forty (docs/front-end.md#how-the-landing-pages-meet-it). Rolldown's own splitting makes one chunk per set
// of importers, and with twenty lazy routes sharing small modules a cold load of /marketplace fetched 42
// scripts (6 of them at a time over HTTP/1.1 from `wrangler dev`, each round a round trip on a phone), most of
// them 0-3 KB. Here:
// - each step of the app's start (web/src/main.tsx imports them one task apart: React DOM, then the libraries,
//   then the app's own modules) is one chunk, named after the step's module: the modules that step's dynamic
//   import reaches statically and the entry or an earlier step does not. Every page loads all of them, so nothing is loaded that was not before;
// - what the landing pages' routes (/, /marketplace, /address/{id}) reach statically beyond that is one
//   `landing` chunk of the app's own modules (their packages are left to rolldown, which drops what they do
//   not use): each landing page loads its route's chunk and this one. A landing page loads a few KB it does not
//   use (the listing page, the featured cards' code), and a route that uses one of these modules loads it too.
// The groups are computed from the module graph at the end of the build, before the chunks are made.
import type { Plugin } from "vite";

export type ModuleGraph = Map<string, { imports: readonly string[]; dynamicImports: readonly string[] }>;

export type ChunkGroupOptions = {
  /** The app's entry module, relative to the repository ("web/src/main.tsx"). */
  entry: string;
  /**
   * The entry's dynamic imports that start the app, in the order it takes them, each by the end of its path
   * ("react-dom/client.js", "web/src/app-start.ts"). Not its other dynamic imports (the local dev wallets).
   */
  steps: readonly string[];
  /** The landing routes' sources, relative to Vite's root ("src/routes/index.tsx"), as route-preload names them. */
  landingRoutes: readonly string[];
};

const posix = (id: string) => id.replace(/\\/g, "/");
/** The chunk named after a module: "app-start" for ".../web/src/app-start.ts", "client" for react-dom/client.js. */
const baseName = (id: string) =>
  posix(id)
    .split("?")[0]
    .split("/")
    .pop()!
    .replace(/\.[cm]?[jt]sx?$/, "");

function staticClosure(graph: ModuleGraph, from: string, into = new Set<string>()): Set<string> {
  if (into.has(from) || !graph.has(from)) return into;
  into.add(from);
  const { imports, dynamicImports } = graph.get(from)!;
  const dynamic = new Set(dynamicImports);
  for (const dep of imports) if (!dynamic.has(dep)) staticClosure(graph, dep, into);
  return into;
}

/** The group (chunk name) of each module that goes into one: the start's steps, then the landing pages' own code. */
export function chunkGroupsOf(graph: ModuleGraph, options: ChunkGroupOptions): Map<string, string> {
  const ids = [...graph.keys()];
  const entry = ids.find((id) => posix(id).endsWith(`/${options.entry}`));
  const groups = new Map<string, string>();
  if (!entry) return groups;
  const taken = staticClosure(graph, entry);
  for (const suffix of options.steps) {
    const step = graph.get(entry)!.dynamicImports.find((id) => posix(id).endsWith(`/${suffix}`));
    if (!step) throw new Error(`chunk-groups: ${options.entry} imports no ${suffix} dynamically`);
    for (const id of staticClosure(graph, step)) {
      if (taken.has(id)) continue;
      taken.add(id);
      groups.set(id, baseName(step));
    }
  }
  for (const route of options.landingRoutes) {
    const module = ids.find((id) => posix(id).endsWith(`/${route}?tsr-split=component`));
    if (!module) throw new Error(`chunk-groups: no split route module for ${route}`);
    for (const id of staticClosure(graph, module)) {
      if (id === module || taken.has(id) || posix(id).includes("/node_modules/")) continue;
      groups.set(id, "landing");
    }
  }
  return groups;
}

/** The plugin that reads the module graph, and the `build.rolldownOptions.output.codeSplitting` that uses it. */
export function chunkGroups(options: ChunkGroupOptions) {
  let groups = new Map<string, string>();
  const plugin: Plugin = {
    name: "vanity:chunk-groups",
    apply: "build",
    buildEnd() {
      const graph: ModuleGraph = new Map();
      for (const id of this.getModuleIds()) {
        const info = this.getModuleInfo(id);
        if (info) graph.set(id, { imports: info.importedIds, dynamicImports: info.dynamicallyImportedIds });
      }
      // The prerender step's server build has no browser entry: it gets no groups.
      groups = chunkGroupsOf(graph, options);
    },
  };
  const start = (id: string) => (groups.get(id) === "landing" ? null : (groups.get(id) ?? null));
  const codeSplitting = {
    // Each module where the map says, and no other: a group that took its modules' dependencies along took the
    // entry's (then loaded with the entry, before the first paint) and the libraries' step (then evaluated with
    // the app's modules, in one task), and the landing pages' packages whole (ed25519 for an unused export).
    includeDependenciesRecursively: false,
    // `name` is a function (each start step names its own chunk), so rolldown asks for a label of its own for its
    // timing report, and says so on every build until it has one.
    groups: [
      { name: start, debugName: "start steps", priority: 2 },
      { name: (id: string) => (groups.get(id) === "landing" ? "landing" : null), debugName: "landing", priority: 1 },
    ],
  };
  return { plugin, codeSplitting };
}
