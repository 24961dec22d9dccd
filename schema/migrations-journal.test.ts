// Hand-written migrations (triggers, FTS, backfills) sit beside drizzle-kit's generated ones. drizzle-kit only
// diffs against its newest snapshot and /api/health only knows the journal, so every migrations/*.sql file
// must be in the journal, in file order, and the schema in schema/db must match the newest snapshot
// (`npx drizzle-kit generate` answers "No schema changes").
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.join(import.meta.dirname, "..", "migrations");

describe("migrations journal", () => {
  it("lists every migration file, in order", () => {
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".sql"))
      .map((f) => f.replace(/\.sql$/, ""))
      .sort();
    const journal = JSON.parse(fs.readFileSync(path.join(dir, "meta", "_journal.json"), "utf8")) as { entries: { idx: number; tag: string }[] };
    expect(journal.entries.map((e) => e.tag)).toEqual(files);
    expect(journal.entries.map((e) => e.idx)).toEqual(files.map((_, i) => i));
  });
});
