DROP INDEX `addresses_search_prefix`;--> statement-breakpoint
DROP INDEX `addresses_search_suffix`;--> statement-breakpoint
CREATE INDEX `addresses_search_prefix` ON `addresses` (`search_key`,`network`,`category`,`pattern_length`,`status`,`is_listed`,`rarity_score`,`created_at`,`currency`,`price_units`) WHERE status in ('active', 'sold');--> statement-breakpoint
CREATE INDEX `addresses_search_suffix` ON `addresses` (`search_key_rev`,`network`,`category`,`pattern_length`,`status`,`is_listed`,`rarity_score`,`created_at`,`currency`,`price_units`) WHERE status in ('active', 'sold');