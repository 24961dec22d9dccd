CREATE TABLE `listing_counts` (
	`state` text NOT NULL,
	`network` text NOT NULL,
	`currency` text NOT NULL,
	`category` text NOT NULL,
	`pattern_length` integer NOT NULL,
	`listings` integer DEFAULT 0 NOT NULL,
	`price_units` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`state`, `network`, `currency`, `category`, `pattern_length`)
);
--> statement-breakpoint
ALTER TABLE `addresses` ADD `search_key` text GENERATED ALWAYS AS (CASE WHEN network = 'ethereum' THEN lower(CASE WHEN substr(address, 1, 2) IN ('0x', '0X') THEN substr(address, 3) ELSE address END) ELSE address END) VIRTUAL;--> statement-breakpoint
ALTER TABLE `addresses` ADD `search_key_rev` text GENERATED ALWAYS AS (substr(search_key, 48, 1) || substr(search_key, 47, 1) || substr(search_key, 46, 1) || substr(search_key, 45, 1) || substr(search_key, 44, 1) || substr(search_key, 43, 1) || substr(search_key, 42, 1) || substr(search_key, 41, 1) || substr(search_key, 40, 1) || substr(search_key, 39, 1) || substr(search_key, 38, 1) || substr(search_key, 37, 1) || substr(search_key, 36, 1) || substr(search_key, 35, 1) || substr(search_key, 34, 1) || substr(search_key, 33, 1) || substr(search_key, 32, 1) || substr(search_key, 31, 1) || substr(search_key, 30, 1) || substr(search_key, 29, 1) || substr(search_key, 28, 1) || substr(search_key, 27, 1) || substr(search_key, 26, 1) || substr(search_key, 25, 1) || substr(search_key, 24, 1) || substr(search_key, 23, 1) || substr(search_key, 22, 1) || substr(search_key, 21, 1) || substr(search_key, 20, 1) || substr(search_key, 19, 1) || substr(search_key, 18, 1) || substr(search_key, 17, 1) || substr(search_key, 16, 1) || substr(search_key, 15, 1) || substr(search_key, 14, 1) || substr(search_key, 13, 1) || substr(search_key, 12, 1) || substr(search_key, 11, 1) || substr(search_key, 10, 1) || substr(search_key, 9, 1) || substr(search_key, 8, 1) || substr(search_key, 7, 1) || substr(search_key, 6, 1) || substr(search_key, 5, 1) || substr(search_key, 4, 1) || substr(search_key, 3, 1) || substr(search_key, 2, 1) || substr(search_key, 1, 1)) VIRTUAL;--> statement-breakpoint
CREATE INDEX `addresses_search_rarity` ON `addresses` (`rarity_score`,`id`,`network`,`category`,`pattern_length`,`status`,`is_listed`) WHERE status in ('active', 'sold');--> statement-breakpoint
CREATE INDEX `addresses_search_created` ON `addresses` (`created_at`,`id`,`network`,`category`,`pattern_length`,`status`,`is_listed`) WHERE status in ('active', 'sold');--> statement-breakpoint
CREATE INDEX `addresses_search_price` ON `addresses` (`network`,`currency`,`price_units`,`id`,`category`,`pattern_length`,`status`,`is_listed`) WHERE status in ('active', 'sold');--> statement-breakpoint
CREATE INDEX `addresses_search_prefix` ON `addresses` (`search_key`,`network`,`category`,`pattern_length`,`status`,`is_listed`) WHERE status in ('active', 'sold');--> statement-breakpoint
CREATE INDEX `addresses_search_suffix` ON `addresses` (`search_key_rev`,`network`,`category`,`pattern_length`,`status`,`is_listed`) WHERE status in ('active', 'sold');