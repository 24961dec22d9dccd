// Several raw SQL reads in one D1 round trip. drizzle's db.batch cannot take raw `sql` queries that carry
// parameters (it looks for a prepared statement they do not have), so this compiles them with drizzle's own
// SQLite dialect and hands them to the D1 client underneath.
import type { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "../db";

const dialect = new SQLiteAsyncDialect();

export async function batchAll<T extends unknown[][]>(db: Db, queries: { [K in keyof T]: SQL }): Promise<T> {
  const d1 = db.$client;
  const statements = queries.map((q: SQL) => {
    const { sql, params } = dialect.sqlToQuery(q);
    return d1.prepare(sql).bind(...params);
  });
  const results = await d1.batch(statements);
  return results.map((r) => r.results) as T;
}
