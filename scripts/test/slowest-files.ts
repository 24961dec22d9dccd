// A vitest reporter that ends every run with its slowest test files, so a file that grows slow is seen the day it
// does (docs/testing.md#tiers-and-their-durations). A file's time is what it held a worker for: its environment,
// setup and import, then its tests and hooks.
import type { Reporter, TestModule } from "vitest/node";

/** One test file's time in a run. */
export type FileTime = { file: string; project: string; ms: number };

/** The `count` slowest files, slowest first, one line each: seconds, project, path. */
export function slowestFiles(files: readonly FileTime[], count = 10): string[] {
  const slowest = [...files].sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file)).slice(0, count);
  const width = Math.max(0, ...slowest.map((f) => f.project.length));
  return slowest.map((f) => `${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.project.padEnd(width)}  ${f.file}`);
}

function fileTime(module: TestModule): FileTime {
  const d = module.diagnostic();
  return {
    file: module.relativeModuleId,
    project: module.project.name,
    ms: d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration,
  };
}

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]) {
    const lines = slowestFiles(testModules.map(fileTime));
    if (lines.length === 0) return;
    process.stdout.write(`\n The ${lines.length} slowest test files (environment, setup, import, tests and hooks):\n${lines.join("\n")}\n\n`);
  }
}
