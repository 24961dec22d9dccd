-- Operating the marketplace. Fee configuration with history, the custom-order quote in D1, the record
-- of each cron run and of each chain node's last answer, and the alert incidents (docs/operations.md).
--
-- fee_config keeps every configuration ever set: the one in force at time t on a network is the active row with
-- the greatest effective_from <= t (worker/settings/fees.ts). One row per (network, effective_from) among the
-- active ones, so "the one in force" is never ambiguous. created_by/created_at say who set it and when.
DROP INDEX IF EXISTS `fee_config_one_active_per_network`;--> statement-breakpoint
ALTER TABLE `fee_config` ADD `created_by` text;--> statement-breakpoint
ALTER TABLE `fee_config` ADD `created_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `fee_config_network_effective` ON `fee_config` (`network`,`effective_from`) WHERE is_active = 1;--> statement-breakpoint
-- Admin > Settings reads its audit trail (settings changes have no purchase) by action, newest first; Admin >
-- Analytics reads the key releases (action key_revealed) of a period with their purchase, from the index alone.
CREATE INDEX `transaction_audit_action` ON `transaction_audit` (`action`,`timestamp`,`transaction_id`);--> statement-breakpoint
-- Admin > Analytics: reservation outcomes of a period, and promotions of a period, each from an index alone.
CREATE INDEX `transactions_created_outcome` ON `transactions` (`created_at`,`status`,`failure_reason`);--> statement-breakpoint
CREATE INDEX `listing_promotions_start` ON `listing_promotions` (`start_time`,`promotion_type`);--> statement-breakpoint
CREATE INDEX `gas_estimation_audit_created` ON `gas_estimation_audit` (`created_at`,`success`,`network`,`accuracy`);--> statement-breakpoint
-- sales_analytics has been written by every settlement; a completed purchase without its row (settled before the
-- table was filled) gets one from the purchase and its listing. Idempotent (NOT EXISTS).
INSERT INTO `sales_analytics` (`transaction_id`, `address_id`, `network`, `rarity_score`, `category`, `actual_sale_price`, `sale_date`, `leading_zeros`, `patterns`)
SELECT t.`id`, a.`id`, t.`network`, a.`rarity_score`, a.`category`, t.`price`, coalesce(t.`completed_at`, t.`updated_at`), a.`leading_zero_count`, json_array(a.`pattern`)
FROM `transactions` t JOIN `addresses` a ON a.`id` = t.`address_id`
WHERE t.`status` = 'completed' AND NOT EXISTS (SELECT 1 FROM `sales_analytics` s WHERE s.`transaction_id` = t.`id`);--> statement-breakpoint
-- The custom-order quote (worker/domain/custom-orders/quote.ts), moved from [vars]: one row per change, the newest
-- in force. The CHECKs repeat the API's validation, so no write path can store a quote that misprices orders.
CREATE TABLE `custom_order_quote_settings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`base_price` text NOT NULL,
	`price_per_billion` text NOT NULL,
	`max_price` text NOT NULL,
	`max_difficulty_bits` integer NOT NULL CHECK (`max_difficulty_bits` BETWEEN 1 AND 44),
	`grind_rate` integer NOT NULL CHECK (`grind_rate` BETWEEN 1 AND 1000000000000),
	`created_by` text,
	`created_at` integer NOT NULL
);--> statement-breakpoint
-- Seeded from the former [vars] defaults (QUOTE_DEFAULTS), so quotes do not change on deploy.
INSERT INTO `custom_order_quote_settings` (`base_price`, `price_per_billion`, `max_price`, `max_difficulty_bits`, `grind_rate`, `created_by`, `created_at`)
VALUES ('0.005', '0.002', '0.5', 36, 2400000, 'migration 0018', 0);--> statement-breakpoint
-- One row per cron run: when, and which tasks failed (a JSON array of task names).
CREATE TABLE `cron_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer NOT NULL,
	`failed_tasks` text DEFAULT '[]' NOT NULL,
	`errors` text DEFAULT '[]' NOT NULL
);--> statement-breakpoint
CREATE INDEX `cron_runs_started` ON `cron_runs` (`started_at`);--> statement-breakpoint
-- Each chain node's last probe by the cron: its head (block or slot) and the head's time, or since when it fails.
CREATE TABLE `chain_status` (
	`network` text PRIMARY KEY NOT NULL,
	`ok` integer NOT NULL,
	`head` integer,
	`head_time` integer,
	`checked_at` integer NOT NULL,
	`failing_since` integer,
	`error` text
);--> statement-breakpoint
-- Alert incidents: one row per incident, sent once (sent_at), retried with backoff (attempts, next_attempt_at).
-- At most one open incident per key, so a node that recovers and fails again opens a new row.
CREATE TABLE `alert_incidents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`kind` text NOT NULL,
	`state` text DEFAULT 'open' NOT NULL CHECK (`state` IN ('open', 'resolved')),
	`text` text NOT NULL,
	`opened_at` integer NOT NULL,
	`resolved_at` integer,
	`sent_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`last_error` text
);--> statement-breakpoint
CREATE UNIQUE INDEX `alert_incidents_open_key` ON `alert_incidents` (`key`) WHERE state = 'open';--> statement-breakpoint
CREATE INDEX `alert_incidents_key` ON `alert_incidents` (`key`,`opened_at`);--> statement-breakpoint
CREATE INDEX `alert_incidents_unsent` ON `alert_incidents` (`next_attempt_at`) WHERE sent_at IS NULL;
--> statement-breakpoint
-- Estimated value calibrated by sales (worker/jobs/calibrate-values.ts): a multiplier per network (category and
-- pattern_length NULL, as before) and per network, category and pattern length, fitted from recorded sales.
ALTER TABLE `algorithm_adjustments` ADD `category` text;--> statement-breakpoint
ALTER TABLE `algorithm_adjustments` ADD `pattern_length` integer;--> statement-breakpoint
CREATE INDEX `algorithm_adjustments_kind` ON `algorithm_adjustments` (`network`,`category`,`pattern_length`,`is_active`);
