// Reading one's notifications and marking them read (docs/collectors.md#notifications). Every query names the
// caller's user id: another wallet's notification is not found (404), never forbidden (which would say it exists).
import { and, count, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { NotificationsResponse, NotificationView } from "../../schema/collectors";
import { notifications, savedSearches } from "../../schema/db";
import { describeNotification, type NotificationKind } from "../../schema/notifications";
import type { Db } from "../db/database";
import { ApiError } from "../http/errors";
import { filtersOf } from "./saved-searches";

const n = notifications;

/** A page's cursor: "<createdAt>-<id>" of its last notification. */
const CURSOR = /^(\d{1,15})-(\d{1,15})$/;
export const isCursor = (text: string) => CURSOR.test(text);

/** A saved-search notification's data with the search's name and filters now (a deleted search says so). */
function withSearch(data: Record<string, unknown>, name: string | null, query: string | null): Record<string, unknown> {
  return { ...data, name: name ?? "a search you deleted", filters: query === null ? {} : filtersOf(query) };
}

export async function unreadCount(db: Db, userId: number): Promise<number> {
  // Counted in the partial index notifications_unread (user_id first), at most NOTIFICATIONS_PER_WALLET entries.
  const [{ unread }] = await db
    .select({ unread: count() })
    .from(n)
    .where(and(eq(n.userId, userId), isNull(n.readAt)));
  return unread;
}

export async function listNotifications(db: Db, userId: number, limit: number, before: string | null): Promise<NotificationsResponse> {
  const where: SQL[] = [eq(n.userId, userId)];
  const c = before === null ? null : CURSOR.exec(before);
  if (c) where.push(sql`(${n.createdAt}, ${n.id}) < (${Number(c[1])}, ${Number(c[2])})`);
  const s = savedSearches;
  const [rows, unread] = await Promise.all([
    db
      .select({ id: n.id, kind: n.kind, data: n.data, createdAt: n.createdAt, readAt: n.readAt, searchName: s.name, searchQuery: s.query })
      .from(n)
      // A saved search's notification says the search's name and opens its filters as they are now.
      .leftJoin(s, and(sql`${n.subject} LIKE 'search:%'`, eq(s.id, sql`CAST(substr(${n.subject}, 8) AS INTEGER)`), eq(s.userId, n.userId)))
      .where(and(...where))
      .orderBy(desc(n.createdAt), desc(n.id))
      .limit(limit + 1),
    unreadCount(db, userId),
  ]);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    notifications: page.map(
      (r): NotificationView => ({
        id: r.id,
        kind: r.kind as NotificationKind,
        ...describeNotification(r.kind, r.kind === "saved_search_match" ? withSearch(r.data, r.searchName, r.searchQuery) : r.data),
        createdAt: new Date(r.createdAt).toISOString(),
        read: r.readAt !== null,
      }),
    ),
    unread,
    nextCursor: rows.length > limit && last ? `${last.createdAt}-${last.id}` : null,
  };
}

/** Marks one of the caller's notifications read (again is fine); 404 for any other id. */
export async function markRead(db: Db, userId: number, id: number, now: number): Promise<void> {
  const [found] = await db
    .update(n)
    .set({ readAt: sql`coalesce(${n.readAt}, ${now})` })
    .where(and(eq(n.id, id), eq(n.userId, userId)))
    .returning({ id: n.id });
  if (!found) throw new ApiError(404, "Notification not found");
}

export async function markAllRead(db: Db, userId: number, now: number): Promise<void> {
  await db
    .update(n)
    .set({ readAt: now })
    .where(and(eq(n.userId, userId), isNull(n.readAt)));
}
