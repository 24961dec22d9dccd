// An idle wallet's users row is deleted only when no column names it (forget-idle-users.ts, docs/sign-in.md#idle-wallets-are-forgotten).
// Its list of those columns must be the schema's every reference to users: one left out would either fail the delete
// on its foreign key run after run (the task's cursor never moving on) or, without a key, leave rows naming a user
// that is gone. A new table that names a user fails here until the list names it.
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../schema/db";
import { USER_REFERENCES } from "./forget-idle-users";

const tables = (Object.values(schema) as unknown[]).filter((value): value is SQLiteTable => is(value, SQLiteTable));
const usersTable = getTableConfig(schema.users).name;
const named = (table: SQLiteTable, column: string) => `${getTableConfig(table).name}.${column}`;

describe("the columns that keep a users row", () => {
  it("are every foreign key to users, and every user column without one", () => {
    const referencing = tables.flatMap((table) =>
      getTableConfig(table).foreignKeys.flatMap((fk) => {
        const ref = fk.reference();
        return getTableConfig(ref.foreignTable).name === usersTable ? ref.columns.map((c) => named(table, c.name)) : [];
      }),
    );
    // A column named like a user's id with no foreign key (the collector events keep theirs without one).
    const byName = tables.flatMap((table) =>
      getTableConfig(table)
        .columns.filter((c) => c.columnType === "SQLiteInteger" && /^(user|buyer|seller|admin)_id$/.test(c.name))
        .map((c) => named(table, c.name)),
    );
    const listed = USER_REFERENCES.map((c) => named(c.table as SQLiteTable, c.name));
    expect(referencing.length).toBeGreaterThan(10);
    expect(new Set(listed)).toEqual(new Set([...referencing, ...byName]));
    expect(listed).toHaveLength(new Set(listed).size);
  });
});
