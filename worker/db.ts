import { type Column, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "../schema/db";

/** A drizzle instance over one request's D1 binding (never a module-level singleton). */
export function createDb(d1: D1Database | D1DatabaseSession) {
  return drizzle(d1 as D1Database, { schema });
}

export type Db = ReturnType<typeof createDb>;

// Hand-written SQL names its tables and columns through the schema objects in schema/db, so a renamed column
// breaks the build (scripts/schema-rename.test.ts): `${addresses}` renders "addresses", `${addresses.price}`
// renders "addresses"."price", and a column of `alias(addresses, "a")` renders "a"."price" (write the alias's
// table as `${addresses} ${a}`). Where SQL wants the bare name (an INSERT's column list, an UPDATE's SET, a
// result column's name) use bare().

/** A column's unqualified name, for an INSERT's column list, an UPDATE's SET or `AS` in a result. */
export const bare = (column: Column): SQL => sql`${sql.identifier(column.name)}`;

/** `(a, b, c)`: an INSERT's column list. */
export const columnList = (...columns: Column[]): SQL => sql`(${sql.join(columns.map(bare), sql`, `)})`;

const dialect = new SQLiteAsyncDialect();

function prepare(db: Db, query: SQLWrapper): D1PreparedStatement {
  const { sql: text, params } = dialect.sqlToQuery(query.getSQL());
  return db.$client.prepare(text).bind(...params);
}

/**
 * Several writes as one D1 batch (one transaction: all or nothing, in order), each a `sql` statement or a drizzle
 * query builder. drizzle's db.batch cannot take raw `sql` with parameters, so everything is compiled with
 * drizzle's SQLite dialect and handed to D1 directly; the results are D1's own (meta.changes, raw rows).
 */
export async function writeBatch(db: Db, queries: SQLWrapper[]): Promise<D1Result[]> {
  return db.$client.batch(queries.map((q) => prepare(db, q)));
}

/** Several reads in one D1 round trip; each answer is its statement's raw rows (column names as the SQL names them). */
export async function batchAll<T extends unknown[][]>(db: Db, queries: { [K in keyof T]: SQLWrapper }): Promise<T> {
  const results = await db.$client.batch(queries.map((q: SQLWrapper) => prepare(db, q)));
  return results.map((r) => r.results) as T;
}
