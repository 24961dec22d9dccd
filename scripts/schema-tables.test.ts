// Every table of schema/db is used through its schema object by the Worker (so renaming one of its columns
// breaks the build: schema-rename.test.ts), except the ones listed here, which the spec's data schema names
// and no feature reads or writes yet. A table nothing needs and the spec does
// not name is dropped with a migration instead of being listed.
import fs from "node:fs";
import path from "node:path";
import { getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../schema/db";
import { sourceFiles } from "./import-cycles";

const SPEC_NAMED_UNUSED: Record<string, string> = {
  feeStructure: "the specification's fee_structure: fees come from fee_config (domain/fees.ts)",
};

const root = path.resolve(import.meta.dirname, "..");

describe("schema tables", () => {
  it("each is used through its schema object by worker/ code, or is a spec-named table listed as unused", () => {
    const code = sourceFiles(root, ["worker"])
      .filter((f) => !/\.test\.ts$|\/test(-chain)?\//.test(f))
      .map((f) => fs.readFileSync(f, "utf8"))
      .join("\n");
    const tables = Object.entries(schema).filter(([, value]) => is(value, SQLiteTable));
    expect(tables.length).toBeGreaterThan(20);
    const unused = tables.filter(([name]) => !new RegExp(`\\b${name}\\b`).test(code)).map(([name]) => name);
    expect(unused.sort()).toEqual(Object.keys(SPEC_NAMED_UNUSED).sort());
  });

  it("the listed ones are real tables", () => {
    for (const name of Object.keys(SPEC_NAMED_UNUSED)) {
      const table = (schema as Record<string, unknown>)[name];
      expect(is(table, SQLiteTable), name).toBe(true);
      expect(getTableName(table as SQLiteTable)).toMatch(/^[a-z_]+$/);
    }
  });
});
