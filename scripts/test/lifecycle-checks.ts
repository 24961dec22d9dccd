// What the lifecycle tests (schema/*-lifecycle.test.ts) check the same way: which statuses a lifecycle's transitions
// reach from its creating ones, and which source lines name a status as a literal.
import fs from "node:fs";
import path from "node:path";

/** The statuses reached from the transitions that create a row (an empty `from`), through any chain of others. */
export function reachedStatuses<S extends string>(transitions: readonly { from: readonly S[]; to: S }[]): S[] {
  const reached = new Set<S>(transitions.filter((t) => t.from.length === 0).map((t) => t.to));
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of transitions) {
      if (!reached.has(t.to) && t.from.some((s) => reached.has(s))) {
        reached.add(t.to);
        grew = true;
      }
    }
  }
  return [...reached].sort();
}

/** Every Worker source file under `root`/worker, tests, declarations and the status-SQL modules left out. */
export function workerSources(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!["test", "test-chain"].includes(entry.name)) walk(rel);
      } else if (rel.endsWith(".ts") && !rel.endsWith(".test.ts") && !rel.endsWith(".d.ts") && !/(status|ledger)-sql\.ts$/.test(rel)) files.push(rel);
    }
  };
  walk("worker");
  return files;
}

/** "file:line: text" for each line of `files` (relative to `root`) that `found` accepts; comment lines are skipped. */
export function linesWhere(root: string, files: string[], found: (line: string) => boolean): string[] {
  return files.flatMap((f) =>
    fs
      .readFileSync(path.join(root, f), "utf8")
      .split("\n")
      .flatMap((line, i) => (found(line) && !/^\s*(\/\/|\*|\/\*\*)/.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
  );
}
