// The one way SQL names a ledger row's status or refund status: the sets and transitions of
// schema/ledger-lifecycle.ts, as literals (worker/db/status-sql.ts).
import { LEDGER_STATUSES, LEDGER_TRANSITIONS, REFUND_STATUSES, REFUND_TRANSITIONS } from "../../schema/ledger-lifecycle";
import { lifecycleSql } from "../db/status-sql";

const ledger = lifecycleSql("ledger", LEDGER_STATUSES, LEDGER_TRANSITIONS);
const refund = lifecycleSql("refund", REFUND_STATUSES, REFUND_TRANSITIONS);

/** In SQL: the ledger row's status is one of `set`. */
export const ledgerIn = ledger.statusIn;
/** In SQL: the ledger status transition `name` writes, as a literal. */
export const ledgerAfter = ledger.statusAfter;
/** In SQL: the refund status is one of `set`. */
export const refundIn = refund.statusIn;
/** In SQL: the row's refund status is one transition `name` moves from (its UPDATE's WHERE). */
export const refundCanMove = refund.canMove;
