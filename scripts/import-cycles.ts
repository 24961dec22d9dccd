// The import graph of the project's own TypeScript (relative imports only) and the cycles in it. A cycle makes
// the load order decide what a module sees at start-up and ties files that should change apart; the test
// (import-cycles.test.ts) keeps worker/, schema/ and web/src/ free of them.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const SOURCE = /\.(ts|tsx)$/;
const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

/** Every .ts/.tsx file under the folders (tests and declaration files included: a test may not close a cycle either). */
export function sourceFiles(root: string, folders: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (SOURCE.test(entry.name)) out.push(full);
    }
  };
  for (const folder of folders) if (fs.existsSync(path.join(root, folder))) walk(path.join(root, folder));
  return out.sort();
}

/** The file a relative specifier names (`./x`, `./x.ts`, `./x/index.ts`), or null for a package or an asset. */
function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ""));
  for (const candidate of [base, ...EXTENSIONS.map((ext) => base + ext)]) {
    if (SOURCE.test(candidate) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** file -> the project files it imports or re-exports (type-only imports count: they tie the files just the same). */
export function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    const targets = info.importedFiles.map((f) => resolve(file, f.fileName)).filter((t): t is string => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components with more than one file (or a file importing itself): each is a cycle. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

/** The cycles among the folders' files, as paths relative to root. */
export function importCycles(root: string, folders: string[]): string[][] {
  return findCycles(importGraph(sourceFiles(root, folders))).map((c) => c.map((f) => path.relative(root, f)));
}
