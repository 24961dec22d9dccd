// The one way SQL in worker/offers names offer statuses: a named set of schema/offer-lifecycle.ts or a declared
// transition (worker/db/status-sql.ts writes them as literals, which the partial indexes of migration 0038 need).
import { OFFER_STATUSES, OFFER_TRANSITIONS } from "../../schema/offer-lifecycle";
import { lifecycleSql } from "../db/status-sql";

export const { statusIn, statusIs, canMove, statusAfter, statusRank } = lifecycleSql("offer", OFFER_STATUSES, OFFER_TRANSITIONS);
