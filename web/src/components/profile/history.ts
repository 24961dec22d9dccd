import type { UserTransaction } from "../../../../schema/listings";

/** Sales and purchases merged, newest first by createdAt (the server sends them so; this keeps the rule). */
export const newestFirst = <T extends Pick<UserTransaction, "createdAt">>(rows: T[]): T[] =>
  [...rows].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
