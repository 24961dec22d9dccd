-- The pattern-walk indexes are keyed by a search key's first character instead of its first four, so a pattern
-- of any length is one range of one start (drizzle-kit would drop the columns without their indexes first,
-- which SQLite refuses; a virtual column is dropped and re-added without rewriting the table).
DROP INDEX `addresses_search_start_rarity`;
--> statement-breakpoint
DROP INDEX `addresses_search_start_created`;
--> statement-breakpoint
DROP INDEX `addresses_search_start_price`;
--> statement-breakpoint
DROP INDEX `addresses_search_end_rarity`;
--> statement-breakpoint
DROP INDEX `addresses_search_end_created`;
--> statement-breakpoint
DROP INDEX `addresses_search_end_price`;
--> statement-breakpoint
ALTER TABLE `addresses` DROP COLUMN `search_key_start`;
--> statement-breakpoint
ALTER TABLE `addresses` DROP COLUMN `search_key_rev_start`;
--> statement-breakpoint
ALTER TABLE `addresses` ADD `search_key_start` text GENERATED ALWAYS AS (substr(search_key, 1, 1)) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `addresses` ADD `search_key_rev_start` text GENERATED ALWAYS AS (substr(search_key_rev, 1, 1)) VIRTUAL;
--> statement-breakpoint
CREATE INDEX `addresses_search_start_rarity` ON `addresses` (`search_key_start`,`rarity_score`,`id`,`network`,`category`,`pattern_length`,`status`,`is_listed`,`search_key`) WHERE status in ('active', 'sold');
--> statement-breakpoint
CREATE INDEX `addresses_search_start_created` ON `addresses` (`search_key_start`,`created_at`,`id`,`network`,`category`,`pattern_length`,`status`,`is_listed`,`search_key`) WHERE status in ('active', 'sold');
--> statement-breakpoint
CREATE INDEX `addresses_search_start_price` ON `addresses` (`search_key_start`,`network`,`currency`,`price_units`,`id`,`category`,`pattern_length`,`status`,`is_listed`,`search_key`) WHERE status in ('active', 'sold');
--> statement-breakpoint
CREATE INDEX `addresses_search_end_rarity` ON `addresses` (`search_key_rev_start`,`rarity_score`,`id`,`network`,`category`,`pattern_length`,`status`,`is_listed`,`search_key_rev`) WHERE status in ('active', 'sold');
--> statement-breakpoint
CREATE INDEX `addresses_search_end_created` ON `addresses` (`search_key_rev_start`,`created_at`,`id`,`network`,`category`,`pattern_length`,`status`,`is_listed`,`search_key_rev`) WHERE status in ('active', 'sold');
--> statement-breakpoint
CREATE INDEX `addresses_search_end_price` ON `addresses` (`search_key_rev_start`,`network`,`currency`,`price_units`,`id`,`category`,`pattern_length`,`status`,`is_listed`,`search_key_rev`) WHERE status in ('active', 'sold');