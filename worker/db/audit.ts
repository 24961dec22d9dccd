// The audit trail (the specification's transaction_audit table): who did what to which purchase, when, from where. Every row is
// written through auditRow(), as one statement of the batch that makes the change it records, so the row exists
// exactly when the change does.
import { type Column, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { transactionAudit } from "../../schema/db";
import { columnList } from "./database";
import type { RequestInfo } from "../http/request-info";

/** A value for the row, or an SQL expression (a column of `from`, json_object(...)) that computes it. */
type Value<T> = T | SQL | Column;

export type AuditEntry = {
  transactionId: Value<string | null>;
  addressId?: Value<number | null>;
  /** What happened: reserved, cancelled, completed, key_revealed, refund_marked ... */
  action: string;
  /** The wallet that acted, or the job's name; null for a visitor. */
  performedBy: string | null;
  /** Details as JSON: an object (stored as its JSON text) or an SQL expression. */
  metadata?: Record<string, unknown> | SQL | null;
  /** The caller's address and user agent; null for a job. */
  request?: RequestInfo | null;
  timestamp: number;
};

/**
 * The INSERT of one transaction_audit row, for a batch. With `when`, the row is written only where `when.where`
 * holds at that point of the batch (the change it records happened), once per row of `when.from` if given.
 */
export function auditRow(entry: AuditEntry, when?: { from?: SQLiteTable; where: SQLWrapper }): SQL {
  const t = transactionAudit;
  const metadata = entry.metadata == null || isSql(entry.metadata) ? (entry.metadata ?? null) : JSON.stringify(entry.metadata);
  const values = [
    entry.transactionId,
    entry.addressId ?? null,
    entry.action,
    entry.performedBy,
    metadata,
    entry.request?.ip ?? null,
    entry.request?.userAgent ?? null,
    entry.timestamp,
  ].map((v) => sql`${v}`);
  const from = when?.from ? sql` FROM ${when.from}` : sql``;
  const where = when ? sql` WHERE ${when.where}` : sql``;
  return sql`INSERT INTO ${t} ${columnList(t.transactionId, t.addressId, t.action, t.performedBy, t.metadata, t.ipAddress, t.userAgent, t.timestamp)}
             SELECT ${sql.join(values, sql`, `)}${from}${where}`;
}

const isSql = (v: unknown): v is SQL => typeof v === "object" && v !== null && "getSQL" in v;
