-- Collectors' tools (docs/collectors.md): the watchlist, saved searches, notifications, and the journal of listing
-- and purchase events that the cron job turns into notifications.
--
-- The spec's watchlist table has existed since 0000 but nothing ever wrote it, so it is made again with what the
-- feature needs: the price when starred (the change since is shown) and the keyed hash of the client network
-- that starred it (the per-network bound), and indexes for a wallet's list and a listing's watchers.
DROP TABLE `watchlist`;
--> statement-breakpoint
CREATE TABLE `watchlist` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`address_id` integer NOT NULL,
	`price_at_star` text NOT NULL,
	`price_units_at_star` integer NOT NULL,
	`client_key` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `watchlist_user_address_unique` ON `watchlist` (`user_id`,`address_id`);--> statement-breakpoint
CREATE INDEX `watchlist_user_created` ON `watchlist` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `watchlist_address` ON `watchlist` (`address_id`);--> statement-breakpoint
CREATE INDEX `watchlist_client` ON `watchlist` (`client_key`);--> statement-breakpoint
CREATE TABLE `saved_searches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`query` text NOT NULL,
	`criteria` text NOT NULL,
	`client_key` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_match_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `saved_searches_user_query` ON `saved_searches` (`user_id`,`query`);--> statement-breakpoint
CREATE INDEX `saved_searches_user_created` ON `saved_searches` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `saved_searches_client` ON `saved_searches` (`client_key`);--> statement-breakpoint
-- A new listing finds its candidate searches by its probe keys (worker/collectors/search-keys.ts). WITHOUT ROWID:
-- the primary key's b-tree holds the whole row, so a probe reads the owner and whether a hit is already a match
-- from the one lookup.
CREATE TABLE `saved_search_keys` (
	`key` text NOT NULL,
	`search_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`exact` integer NOT NULL,
	PRIMARY KEY(`key`, `search_id`),
	FOREIGN KEY (`search_id`) REFERENCES `saved_searches`(`id`) ON UPDATE no action ON DELETE no action
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `saved_search_keys_search` ON `saved_search_keys` (`search_id`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`grp` text NOT NULL,
	`subject` text NOT NULL,
	`address_id` integer,
	`data` text NOT NULL,
	`created_at` integer NOT NULL,
	`read_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `notifications_user_created` ON `notifications` (`user_id`,`created_at`,`id`);--> statement-breakpoint
-- At most one unread notification per wallet, subject and group: newer news updates it (an upsert on this index).
CREATE UNIQUE INDEX `notifications_unread` ON `notifications` (`user_id`,`subject`,`grp`) WHERE read_at IS NULL;--> statement-breakpoint
CREATE INDEX `notifications_created` ON `notifications` (`created_at`);--> statement-breakpoint
-- The journal. Appended by the triggers below, so every writer (listing changes, the admin panel, bulk import,
-- reservations, settlement, the cron's expiry, custom orders) records what collectors are told about without
-- knowing about it, in the same transaction as the change. AUTOINCREMENT ids follow commit order (D1 has one
-- writer), so the cron job reads it with one cursor and misses nothing.
CREATE TABLE `collector_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`address_id` integer,
	`user_id` integer,
	`ref` text,
	`price` text,
	`previous_price` text,
	`until` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `collector_cursor` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`last_event_id` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `collector_cursor` (`id`, `last_event_id`) VALUES (1, 0);
--> statement-breakpoint
-- A listing that can be bought appears: created so, or listed again.
CREATE TRIGGER `addresses_collector_listed_ai` AFTER INSERT ON `addresses` WHEN NEW.`status` = 'active' AND NEW.`is_listed` = 1 BEGIN
  INSERT INTO `collector_events` (`kind`, `address_id`, `price`) VALUES ('listed', NEW.`id`, NEW.`price`);
END;
--> statement-breakpoint
CREATE TRIGGER `addresses_collector_listed_au` AFTER UPDATE OF `status`, `is_listed` ON `addresses`
WHEN NEW.`status` = 'active' AND NEW.`is_listed` = 1 AND NOT (OLD.`status` = 'active' AND OLD.`is_listed` = 1) BEGIN
  INSERT INTO `collector_events` (`kind`, `address_id`, `price`) VALUES ('listed', NEW.`id`, NEW.`price`);
END;
--> statement-breakpoint
CREATE TRIGGER `addresses_collector_price_drop` AFTER UPDATE OF `price_units` ON `addresses` WHEN NEW.`price_units` < OLD.`price_units` BEGIN
  INSERT INTO `collector_events` (`kind`, `address_id`, `price`, `previous_price`) VALUES ('price_drop', NEW.`id`, NEW.`price`, OLD.`price`);
END;
--> statement-breakpoint
CREATE TRIGGER `transactions_collector_reserved` AFTER INSERT ON `transactions` WHEN NEW.`status` IN ('initiated', 'pending', 'verified') BEGIN
  INSERT INTO `collector_events` (`kind`, `address_id`, `user_id`, `ref`, `until`) VALUES ('reserved', NEW.`address_id`, NEW.`buyer_id`, NEW.`id`, NEW.`expires_at`);
END;
--> statement-breakpoint
CREATE TRIGGER `transactions_collector_freed` AFTER UPDATE OF `status` ON `transactions`
WHEN OLD.`status` IN ('initiated', 'pending', 'verified') AND NEW.`status` IN ('expired', 'cancelled', 'failed') BEGIN
  INSERT INTO `collector_events` (`kind`, `address_id`, `user_id`, `ref`) VALUES ('freed', NEW.`address_id`, NEW.`buyer_id`, NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `transactions_collector_sold` AFTER UPDATE OF `status` ON `transactions` WHEN NEW.`status` = 'completed' AND OLD.`status` <> 'completed' BEGIN
  INSERT INTO `collector_events` (`kind`, `address_id`, `user_id`, `ref`, `price`) VALUES ('sold', NEW.`address_id`, NEW.`buyer_id`, NEW.`id`, NEW.`price`);
END;
--> statement-breakpoint
CREATE TRIGGER `custom_orders_collector_found` AFTER UPDATE OF `status` ON `custom_orders` WHEN NEW.`status` = 'found' AND OLD.`status` <> 'found' BEGIN
  INSERT INTO `collector_events` (`kind`, `user_id`, `ref`, `price`) VALUES ('order_found', NEW.`buyer_id`, CAST(NEW.`id` AS TEXT), NEW.`price`);
END;
