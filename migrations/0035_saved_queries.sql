-- Identical saved searches are stored once (docs/collectors.md#how-matching-stays-cheap): saved_queries holds each
-- canonical query with its validated criteria and is what the keys file and the cron job match; saved_searches is
-- each wallet's subscription to one (its name, its network's key, its last match), ids and the web's shapes as
-- before. A search with no filters saved by ten thousand wallets is one query with ten thousand subscribers, which
-- the cron job tells a chunk at a time instead of matching ten thousand searches against every listing.
CREATE TABLE `saved_queries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`query` text NOT NULL,
	`criteria` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `saved_queries_query` ON `saved_queries` (`query`);--> statement-breakpoint
CREATE TABLE `saved_query_keys` (
	`key` text NOT NULL,
	`query_id` integer NOT NULL,
	`exact` integer NOT NULL,
	PRIMARY KEY(`key`, `query_id`),
	FOREIGN KEY (`query_id`) REFERENCES `saved_queries`(`id`) ON UPDATE no action ON DELETE no action
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `saved_query_keys_query` ON `saved_query_keys` (`query_id`);--> statement-breakpoint
INSERT INTO `saved_queries` (`query`, `criteria`) SELECT `query`, min(`criteria`) FROM `saved_searches` GROUP BY `query` ORDER BY min(`id`);--> statement-breakpoint
INSERT INTO `saved_query_keys` (`key`, `query_id`, `exact`)
  SELECT k.`key`, q.`id`, max(k.`exact`) FROM `saved_search_keys` k
  JOIN `saved_searches` s ON s.`id` = k.`search_id` JOIN `saved_queries` q ON q.`query` = s.`query`
  GROUP BY k.`key`, q.`id`;--> statement-breakpoint
DROP TABLE `saved_search_keys`;--> statement-breakpoint
CREATE TABLE `__new_saved_searches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`query` text NOT NULL,
	`query_id` integer NOT NULL,
	`client_key` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_match_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`query_id`) REFERENCES `saved_queries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_saved_searches` (`id`, `user_id`, `name`, `query`, `query_id`, `client_key`, `created_at`, `last_match_at`)
  SELECT s.`id`, s.`user_id`, s.`name`, s.`query`, q.`id`, s.`client_key`, s.`created_at`, s.`last_match_at`
  FROM `saved_searches` s JOIN `saved_queries` q ON q.`query` = s.`query`;--> statement-breakpoint
DROP TABLE `saved_searches`;--> statement-breakpoint
ALTER TABLE `__new_saved_searches` RENAME TO `saved_searches`;--> statement-breakpoint
CREATE UNIQUE INDEX `saved_searches_user_query` ON `saved_searches` (`user_id`,`query`);--> statement-breakpoint
CREATE INDEX `saved_searches_user_created` ON `saved_searches` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `saved_searches_client` ON `saved_searches` (`client_key`);--> statement-breakpoint
CREATE INDEX `saved_searches_query` ON `saved_searches` (`query_id`,`id`);--> statement-breakpoint
ALTER TABLE `collector_cursor` ADD `batch_to` integer;--> statement-breakpoint
ALTER TABLE `collector_cursor` ADD `match_query` integer;--> statement-breakpoint
ALTER TABLE `collector_cursor` ADD `match_search` integer;
