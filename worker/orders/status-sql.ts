// The one way SQL names a custom order's status: a named set of schema/order-lifecycle.ts or a declared transition,
// as literals (worker/db/status-sql.ts; the partial indexes custom_orders_deadline and custom_orders_grind_deadline
// are proved from literals).
import { CUSTOM_ORDER_STATUSES, ORDER_TRANSITIONS } from "../../schema/order-lifecycle";
import { lifecycleSql } from "../db/status-sql";

const order = lifecycleSql("custom order", CUSTOM_ORDER_STATUSES, ORDER_TRANSITIONS);

/** In SQL: the order's status is one of `set`. */
export const orderStatusIn = order.statusIn;
/** In SQL: the order's status is exactly `status`. */
export const orderStatusIs = order.statusIs;
/** In SQL: the order is in a status transition `name` moves from. */
export const orderCanMove = order.canMove;
/** In SQL: the status transition `name` writes, as a literal. */
export const orderStatusAfter = order.statusAfter;
