-- Orders ground where the marketplace runs (docs/custom-orders.md#several-grinders): a grinder's take is a claim
-- with a lease that progress reports renew, so a grinder that dies frees its order; every running grinder has a
-- row with its last rate; an order not found by its grind deadline expires unfilled; and the quote's defaults
-- move from the CPU grinder to one production GPU.
ALTER TABLE `custom_orders` ADD `claim_id` text;--> statement-breakpoint
ALTER TABLE `custom_orders` ADD `claim_expires_at` integer;--> statement-breakpoint
ALTER TABLE `custom_orders` ADD `attempts_before` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `custom_orders` ADD `grind_deadline` integer;--> statement-breakpoint
-- Orders waiting when this runs get the whole grinding week from now (CUSTOM_ORDER_GRIND_HOURS = 168), not from
-- when they were placed: the rule is new to them. Grinding ones are held by the admin who took them, with the
-- lease (GRINDER_LEASE_MS, 2 minutes) counted from their last report.
UPDATE `custom_orders`
SET `grind_deadline` = cast(unixepoch('subsec') * 1000 as integer) + 168 * 3600000
WHERE `status` IN ('open', 'grinding');--> statement-breakpoint
UPDATE `custom_orders`
SET `claim_id` = 'admin-' || `taken_by`, `claim_expires_at` = coalesce(`progress_at`, `taken_at`, `updated_at`) + 120000
WHERE `status` = 'grinding';--> statement-breakpoint
CREATE INDEX `custom_orders_grind_deadline` ON `custom_orders` (`grind_deadline`) WHERE status IN ('open', 'grinding');--> statement-breakpoint
CREATE TABLE `order_grinders` (
	`id` text PRIMARY KEY NOT NULL,
	`admin_id` integer NOT NULL,
	`label` text NOT NULL,
	`rate` real,
	`order_id` integer,
	`started_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	FOREIGN KEY (`admin_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `order_grinders_seen` ON `order_grinders` (`last_seen_at`);--> statement-breakpoint
-- The quote's defaults for one production GPU (docs/custom-orders.md#the-quote): 2,000,000,000 candidates/s (the
-- split-key kernel measured 2,700 M/s on an H200, docs/benchmarks.md) and orders up to 2^44 expected attempts
-- (about 2.4 hours at that rate). Only where an admin never changed the quote: the row in force is still the one
-- migration 0018 seeded. A quote an admin set stays as it is.
INSERT INTO `custom_order_quote_settings` (`base_price`, `price_per_billion`, `max_price`, `max_difficulty_bits`, `grind_rate`, `created_by`, `created_at`)
SELECT `base_price`, `price_per_billion`, `max_price`, 44, 2000000000, 'migration 0025', cast(unixepoch('subsec') * 1000 as integer)
FROM `custom_order_quote_settings`
WHERE `id` = (SELECT `id` FROM `custom_order_quote_settings` ORDER BY `created_at` DESC, `id` DESC LIMIT 1)
  AND `created_by` = 'migration 0018';
