-- The cron job's saved-search chunks (worker/collectors/notification-job.ts) select the next subscribers of the
-- matched queries in (query_id, id) order and write their notifications from them, the wallet included, in every
-- statement of a chunk's write: with user_id in the index each of those reads is the index alone, no row lookups.
DROP INDEX `saved_searches_query`;--> statement-breakpoint
CREATE INDEX `saved_searches_query` ON `saved_searches` (`query_id`,`id`,`user_id`);
