// The web bundle shares rules with the Worker only through schema/ (the contract): importing worker/ from
// the browser would pull server modules into the SPA and couple the two deployments.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const WEB_SRC = path.join(import.meta.dirname);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("web/src imports", () => {
  it("no module of the SPA imports from worker/", () => {
    const files = sources(WEB_SRC);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((file) =>
      [...fs.readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].some(([, spec]) => {
        if (!spec.startsWith(".")) return false;
        const target = path.relative(path.join(WEB_SRC, "..", ".."), path.resolve(path.dirname(file), spec));
        return target.split(path.sep)[0] === "worker";
      }),
    );
    expect(offenders.map((f) => path.relative(WEB_SRC, f))).toEqual([]);
  });
});
