// /api/notifications (docs/collectors.md#notifications): the signed-in wallet's own notifications, nobody else's.
//   GET  /?limit=&before=   newest first, with the unread count and the next page's cursor
//   GET  /unread-count      the bell's number (an index count; a visible page asks every 6 s)
//   POST /{id}/read         mark one read (404 for an id that is not the caller's)
//   POST /read-all          mark all read
import { Hono } from "hono";
import * as v from "valibot";
import {
  COLLECTOR_WRITE_LIMIT,
  type MarkReadResponse,
  NOTIFICATIONS_PAGE_DEFAULT,
  NOTIFICATIONS_PAGE_MAX,
  type NotificationsResponse,
  type UnreadCountResponse,
} from "../../schema/collectors";
import { requireSession } from "../auth/middleware";
import { isCursor, listNotifications, markAllRead, markRead, unreadCount } from "../collectors/notifications";
import { queryInt, validId } from "../http/params";
import { limitSignedIn } from "../http/rate-limit";
import { validate } from "../http/validate";
import type { AppEnv } from "../types";

const writeLimit = limitSignedIn("collectors", COLLECTOR_WRITE_LIMIT);
const listQuery = v.object({
  limit: v.optional(queryInt("limit", 1, NOTIFICATIONS_PAGE_MAX)),
  before: v.optional(v.pipe(v.string(), v.check(isCursor, "before must be the nextCursor of a previous page"))),
});

export const notificationRoutes = new Hono<AppEnv>()
  .get("/", requireSession, validate("query", listQuery), async (c) => {
    c.header("Cache-Control", "no-store");
    const { limit = NOTIFICATIONS_PAGE_DEFAULT, before } = c.req.valid("query");
    return c.json((await listNotifications(c.var.db, c.var.session.userId, limit, before ?? null)) satisfies NotificationsResponse);
  })
  .get("/unread-count", requireSession, async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({ unread: await unreadCount(c.var.db, c.var.session.userId) } satisfies UnreadCountResponse);
  })
  .post("/read-all", requireSession, writeLimit, async (c) => {
    await markAllRead(c.var.db, c.var.session.userId, Date.now());
    return c.json({ success: true, unread: 0 } satisfies MarkReadResponse);
  })
  .post("/:id/read", validId("notification"), requireSession, writeLimit, async (c) => {
    const userId = c.var.session.userId;
    await markRead(c.var.db, userId, c.req.valid("param").id, Date.now());
    return c.json({ success: true, unread: await unreadCount(c.var.db, userId) } satisfies MarkReadResponse);
  });
