import { drizzle } from "drizzle-orm/d1";
import * as schema from "../schema/db";

/** A drizzle instance over one request's D1 binding (never a module-level singleton). */
export function createDb(d1: D1Database | D1DatabaseSession) {
  return drizzle(d1 as D1Database, { schema });
}

export type Db = ReturnType<typeof createDb>;
