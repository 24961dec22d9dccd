// Several raw SQL writes as one D1 batch (one transaction: all or nothing). drizzle's db.batch cannot take
// raw `sql` with parameters, so they are compiled with drizzle's SQLite dialect and handed to D1 directly.
import type { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "../db";

const dialect = new SQLiteAsyncDialect();

export async function writeBatch(db: Db, queries: SQL[]): Promise<D1Result[]> {
  const d1 = db.$client;
  return d1.batch(
    queries.map((q) => {
      const { sql, params } = dialect.sqlToQuery(q);
      return d1.prepare(sql).bind(...params);
    }),
  );
}
