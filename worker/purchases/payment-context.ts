// One payment of one purchase being decided and settled: what every step of the settling path reads
// (verify.ts, settle.ts, ledger.ts), handed down as one value instead of a row of positional parameters.
import type { PaymentVerifier } from "../chain/payment-verifier";
import type { Db } from "../db/database";
import type { Deployment } from "../deployment/deployment";
import type { PurchaseRow } from "./purchase-row";

export type PaymentContext = {
  db: Db;
  /** What this Worker was deployed with, read once per request or cron run. */
  deployment: Deployment;
  /** The purchase's network's verifier, built from the deployment's nodes. */
  verifier: PaymentVerifier;
  /** The purchase as last read (read again after a write that lost a race). */
  purchase: PurchaseRow;
  /** The payment's transaction hash or signature. */
  hash: string;
  /** The time every write of this decision records. */
  now: number;
};
