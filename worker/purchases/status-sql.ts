// The one way SQL names purchase statuses: a named set of schema/purchase-lifecycle.ts, or a declared transition's
// from-set (worker/db/status-sql.ts writes them as literals, which the partial indexes need).
import { PURCHASE_STATUSES, PURCHASE_TRANSITIONS } from "../../schema/purchase-lifecycle";
import { lifecycleSql } from "../db/status-sql";

export const { statusIn, statusIs, canMove, statusAfter } = lifecycleSql("purchase", PURCHASE_STATUSES, PURCHASE_TRANSITIONS);
