// The one way SQL names purchase statuses: a named set of schema/purchase-lifecycle.ts, or a declared transition's
// from-set, written as `status IN ('a', 'b')`. The statuses are inlined as literals, not bound: they are the
// declared constants only (checked here, so nothing else can reach the text), and SQLite proves a partial index's
// WHERE term (transactions_one_open_per_listing, transactions_one_sale_per_listing) from literals, never from
// bound parameters.
import { type AnyColumn, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { PURCHASE_STATUSES, type PurchaseStatus, type StatusSet, type TransitionName, transitionFrom, transitionTo } from "../../schema/purchase-lifecycle";

type StatusColumn = AnyColumn | SQLWrapper;

function literalList(set: StatusSet): SQL {
  if (set.length === 0) throw new Error("a status set is never empty");
  for (const s of set) if (!(PURCHASE_STATUSES as readonly string[]).includes(s)) throw new Error(`not a purchase status: ${String(s)}`);
  return sql.raw(set.map((s) => `'${s}'`).join(", "));
}

/** In SQL: `column` (a purchase's status) is one of `set`. */
export const statusIn = (column: StatusColumn, set: StatusSet): SQL => sql`${column} IN (${literalList(set)})`;
/** In SQL: `column` is exactly `status`, as a literal (one status is a set of one). */
export const statusIs = (column: StatusColumn, status: PurchaseStatus): SQL => statusIn(column, [status]);

/** In SQL: the purchase is in a status transition `name` moves from: the WHERE of that transition's UPDATE. */
export const canMove = (column: StatusColumn, name: TransitionName): SQL => statusIn(column, transitionFrom(name));
/** In SQL: the status transition `name` writes, as a literal (an INSERT ... SELECT's value, or an EXISTS that checks the write happened). */
export const statusAfter = (name: TransitionName): SQL => literalList([transitionTo(name)]);
