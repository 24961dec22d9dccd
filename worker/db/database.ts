import { type Column, getTableColumns, type SQL, type SQLWrapper, sql, type Table } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "../../schema/db";

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

/**
 * A table's columns as bare names (`"price_units"`), for hand-written SQL whose predicates are shared by statements
 * that read the table unaliased and under an alias (the search planner): each resolves as an unqualified name would.
 */
export function bareColumns<T extends Table>(table: T): { [K in keyof T["_"]["columns"]]: SQL } {
  return Object.fromEntries(Object.entries(getTableColumns(table)).map(([key, column]) => [key, bare(column)])) as { [K in keyof T["_"]["columns"]]: SQL };
}

/**
 * An expression to select from a single-table select. drizzle writes a selected expression's own columns unqualified
 * there, which changes what a correlated subquery's columns name (`t.address_id = addresses.id` would become
 * `address_id = id`, both the subquery's): nested one level down, they stay as written.
 */
export const selected = <T>(expression: SQL<T>): SQL<T> => sql<T>`${expression}`;

/** `(a, b, c)`: an INSERT's column list. */
export const columnList = (...columns: Column[]): SQL => sql`(${sql.join(columns.map(bare), sql`, `)})`;

/** A selection for drizzle's select() (and for hand-written SQL through selectList()/decodeRow()). */
export type Selection = Record<string, Column>;
/** The row a selection reads: each column's TypeScript type, null where the column may be null. */
export type RowOf<S extends Selection> = { [K in keyof S]: S[K]["_"]["notNull"] extends true ? S[K]["_"]["data"] : S[K]["_"]["data"] | null };

/** A selection as hand-written SQL's result columns: `"a"."price_units" AS "priceUnits", ...`. */
export const selectList = (selection: Selection): SQL =>
  sql.join(
    Object.entries(selection).map(([key, column]) => sql`${column} AS ${sql.identifier(key)}`),
    sql`, `,
  );

/** A raw row of a statement that selected `selectList(selection)`, decoded as drizzle's select() would (booleans, JSON). */
export function decodeRow<S extends Selection>(selection: S, raw: Record<string, unknown>): RowOf<S> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(selection)) {
    const value = raw[key];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as RowOf<S>;
}

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

/**
 * The newest migration wrangler recorded as applied (its own table d1_migrations, outside the schema), or
 * databaseReachable false when the database cannot be asked.
 */
export async function latestAppliedMigration(d1: D1Database): Promise<{ databaseReachable: boolean; applied: string | null }> {
  try {
    const row = await d1.prepare("SELECT name FROM d1_migrations ORDER BY id DESC LIMIT 1").first<{ name: string }>();
    return { databaseReachable: true, applied: row?.name ?? null };
  } catch {
    return { databaseReachable: false, applied: null };
  }
}
