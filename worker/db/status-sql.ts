// The one way SQL names a status of a declared lifecycle (schema/purchase-lifecycle.ts, schema/offer-lifecycle.ts): a
// named set of the lifecycle, or a declared transition's from-set, written as `status IN ('a', 'b')`. The statuses are
// inlined as literals, not bound: they are the declared constants only (checked here, so nothing else can reach the
// text), and SQLite proves a partial index's WHERE term (transactions_one_open_per_listing, offers_one_open_per_buyer)
// from literals, never from bound parameters.
import { type AnyColumn, type SQL, type SQLWrapper, sql } from "drizzle-orm";

type StatusColumn = AnyColumn | SQLWrapper;
type Declared<S extends string> = Record<string, { readonly from: readonly S[]; readonly to: S }>;

/** The SQL helpers of one lifecycle: `what` names it in errors ("purchase", "offer"). */
export function lifecycleSql<S extends string, T extends Declared<S>>(what: string, statuses: readonly S[], transitions: T) {
  function literalList(set: readonly S[]): SQL {
    if (set.length === 0) throw new Error(`a status set is never empty (${what})`);
    for (const s of set) if (!statuses.includes(s)) throw new Error(`not a ${what} status: ${String(s)}`);
    return sql.raw(set.map((s) => `'${s}'`).join(", "));
  }
  const statusIn = (column: StatusColumn, set: readonly S[]): SQL => sql`${column} IN (${literalList(set)})`;
  return {
    /** In SQL: `column` is one of `set`. */
    statusIn,
    /** In SQL: `column` is none of `set`. */
    statusNotIn: (column: StatusColumn, set: readonly S[]): SQL => sql`${column} NOT IN (${literalList(set)})`,
    /** In SQL: `column` is exactly `status`, as a literal (one status is a set of one). */
    statusIs: (column: StatusColumn, status: S): SQL => statusIn(column, [status]),
    /** In SQL: the row is in a status transition `name` moves from: the WHERE of that transition's UPDATE. */
    canMove: (column: StatusColumn, name: keyof T): SQL => statusIn(column, transitions[name].from),
    /** In SQL: the status transition `name` writes, as a literal (an INSERT ... SELECT's value, or an EXISTS that checks the write happened). */
    statusAfter: (name: keyof T): SQL => literalList([transitions[name].to]),
    /** In SQL: an ORDER BY key, the index of the first of `ranks` that holds the status (one past the last for none). */
    statusRank: (column: StatusColumn, ranks: readonly (readonly S[])[]): SQL =>
      sql`CASE ${sql.join(
        ranks.map((set, i) => sql`WHEN ${statusIn(column, set)} THEN ${sql.raw(String(i))}`),
        sql` `,
      )} ELSE ${sql.raw(String(ranks.length))} END`,
  };
}
