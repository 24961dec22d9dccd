// The cron job (every minute in production, every 10 s under `npm start`). Each task is idempotent and
// bounded, so two overlapping runs do no harm.
import { lt } from "drizzle-orm";
import { authNonces, sessions } from "../../schema/db";
import { createDb } from "../db";
import { expireUnpaidOrders } from "../orders/orders";

export type JobReport = { expiredNonces: number; expiredSessions: number; expiredCustomOrders: number };

export async function runScheduledJobs(env: Env, now = Date.now()): Promise<JobReport> {
  const db = createDb(env.DB);
  const [nonces, expired] = await db.batch([
    db.delete(authNonces).where(lt(authNonces.expiresAt, now)),
    db.delete(sessions).where(lt(sessions.expiresAt, now)),
  ]);
  const expiredCustomOrders = await expireUnpaidOrders(db, now);
  return { expiredNonces: nonces.meta.changes ?? 0, expiredSessions: expired.meta.changes ?? 0, expiredCustomOrders };
}
