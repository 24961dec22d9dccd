CREATE TABLE `addresses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`address` text NOT NULL,
	`network` text NOT NULL,
	`seller_id` integer,
	`price` text NOT NULL,
	`price_units` integer NOT NULL,
	`currency` text NOT NULL,
	`rarity_score` real DEFAULT 0 NOT NULL,
	`difficulty_log2` real DEFAULT 0 NOT NULL,
	`category` text DEFAULT 'custom' NOT NULL,
	`pattern` text DEFAULT 'custom' NOT NULL,
	`is_listed` integer DEFAULT true NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`is_featured` integer DEFAULT false NOT NULL,
	`featured_until` integer,
	`listing_tier` text DEFAULT 'basic' NOT NULL,
	`is_premium_listing` integer DEFAULT false NOT NULL,
	`is_promoted` integer DEFAULT false NOT NULL,
	`promotion_type` text DEFAULT 'standard' NOT NULL,
	`promotion_weight` integer DEFAULT 0 NOT NULL,
	`search_tags` text,
	`pattern_length` integer DEFAULT 0 NOT NULL,
	`repeating_digits` integer DEFAULT 0 NOT NULL,
	`has_leading_zeros` integer DEFAULT false NOT NULL,
	`leading_zero_count` integer DEFAULT 0 NOT NULL,
	`has_trailing_zeros` integer DEFAULT false NOT NULL,
	`trailing_zero_count` integer DEFAULT 0 NOT NULL,
	`has_palindrome` integer DEFAULT false NOT NULL,
	`has_sequence` integer DEFAULT false NOT NULL,
	`has_word_pattern` integer DEFAULT false NOT NULL,
	`case_sensitive_pattern` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`seller_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `addresses_address_unique` ON `addresses` (`address`);--> statement-breakpoint
CREATE INDEX `addresses_browse_rarity` ON `addresses` (`status`,`is_listed`,`rarity_score`);--> statement-breakpoint
CREATE INDEX `addresses_browse_price` ON `addresses` (`status`,`is_listed`,`price_units`);--> statement-breakpoint
CREATE INDEX `addresses_browse_created` ON `addresses` (`status`,`is_listed`,`created_at`);--> statement-breakpoint
CREATE INDEX `addresses_network` ON `addresses` (`network`);--> statement-breakpoint
CREATE INDEX `addresses_category` ON `addresses` (`category`);--> statement-breakpoint
CREATE INDEX `addresses_seller` ON `addresses` (`seller_id`);--> statement-breakpoint
CREATE INDEX `addresses_featured` ON `addresses` (`is_featured`,`status`);--> statement-breakpoint
CREATE TABLE `algorithm_adjustments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`network` text NOT NULL,
	`base_value_multiplier` real DEFAULT 1 NOT NULL,
	`sales_data_period` integer DEFAULT 30 NOT NULL,
	`sales_count` integer DEFAULT 0 NOT NULL,
	`average_actual_price` text,
	`average_estimated_price` text,
	`adjustment_reason` text,
	`confidence_score` real DEFAULT 0.5 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `algorithm_adjustments_active` ON `algorithm_adjustments` (`network`,`is_active`);--> statement-breakpoint
CREATE TABLE `auth_nonces` (
	`nonce` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `auth_nonces_expiry` ON `auth_nonces` (`expires_at`);--> statement-breakpoint
CREATE TABLE `blockchain_transaction_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` text,
	`tx_hash` text,
	`block_number` integer,
	`block_hash` text,
	`confirmations` integer,
	`gas_used` text,
	`gas_price` text,
	`gas_limit` text,
	`effective_gas_price` text,
	`from_address` text,
	`to_address` text,
	`value` text,
	`recipients` text,
	`status` text,
	`network_status` text,
	`error_message` text,
	`network` text,
	`currency` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`confirmed_at` integer,
	`raw_data` text,
	`explorer_urls` text
);
--> statement-breakpoint
CREATE INDEX `blockchain_audit_transaction` ON `blockchain_transaction_audit` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `blockchain_audit_hash` ON `blockchain_transaction_audit` (`tx_hash`);--> statement-breakpoint
CREATE TABLE `encrypted_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`address_id` integer NOT NULL,
	`encrypted_private_key` text NOT NULL,
	`salt` text NOT NULL,
	`iv` text NOT NULL,
	`wrapped_key` text NOT NULL,
	`mac` text NOT NULL,
	`key_version` integer DEFAULT 1 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `encrypted_keys_address_unique` ON `encrypted_keys` (`address_id`);--> statement-breakpoint
CREATE INDEX `encrypted_keys_version` ON `encrypted_keys` (`key_version`);--> statement-breakpoint
CREATE TABLE `escrow_transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`network` text NOT NULL,
	`amount` text NOT NULL,
	`currency` text NOT NULL,
	`sender_address` text,
	`recipient_address` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`tx_hash` text,
	`release_tx_hash` text,
	`release_time` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `fee_config` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`network` text NOT NULL,
	`exchange_fee_percentage` text DEFAULT '0' NOT NULL,
	`commission_fee_percentage` text DEFAULT '0' NOT NULL,
	`minimum_fee` text DEFAULT '0' NOT NULL,
	`maximum_fee` text,
	`gas_fee_multiplier` text DEFAULT '1.20' NOT NULL,
	`effective_from` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`is_active` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fee_config_one_active_per_network` ON `fee_config` (`network`) WHERE is_active = 1;--> statement-breakpoint
CREATE TABLE `fee_structure` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`service` text NOT NULL,
	`tier` text DEFAULT 'basic' NOT NULL,
	`fee_type` text NOT NULL,
	`amount` text,
	`percentage` text,
	`currency` text,
	`description` text,
	`is_active` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE `gas_estimation_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` text,
	`network` text,
	`estimated_gas` text,
	`estimated_gas_price` text,
	`estimated_cost` text,
	`actual_gas` text,
	`actual_gas_price` text,
	`actual_cost` text,
	`accuracy` real,
	`success` integer,
	`failure_reason` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `listing_promotions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`address_id` integer NOT NULL,
	`promotion_type` text NOT NULL,
	`price` text DEFAULT '0' NOT NULL,
	`currency` text DEFAULT 'ETH' NOT NULL,
	`duration` integer,
	`start_time` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`end_time` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`purchased_by` integer,
	FOREIGN KEY (`address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`purchased_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `listing_promotions_address` ON `listing_promotions` (`address_id`);--> statement-breakpoint
CREATE TABLE `market_trends` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`category` text NOT NULL,
	`network` text NOT NULL,
	`avg_price` text,
	`median_price` text,
	`min_price` text,
	`max_price` text,
	`total_volume` text,
	`active_listings` integer DEFAULT 0 NOT NULL,
	`sold_count` integer DEFAULT 0 NOT NULL,
	`price_change_24h` text,
	`price_change_7d` text,
	`volume_change_24h` text,
	`period` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `market_trends_category` ON `market_trends` (`category`,`network`,`period`);--> statement-breakpoint
CREATE TABLE `membership_tiers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`price` text DEFAULT '0' NOT NULL,
	`currency` text DEFAULT 'ETH' NOT NULL,
	`billing_period` text DEFAULT 'monthly' NOT NULL,
	`features` text,
	`max_listings` integer,
	`featured_listings_included` integer DEFAULT 0 NOT NULL,
	`commission_discount` text DEFAULT '0' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `membership_tiers_name_unique` ON `membership_tiers` (`name`);--> statement-breakpoint
CREATE TABLE `price_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`address_id` integer NOT NULL,
	`price` text NOT NULL,
	`currency` text NOT NULL,
	`price_usd` text,
	`change_type` text NOT NULL,
	`previous_price` text,
	`change_percentage` text,
	`market_cap` text,
	`volume_24h` text,
	`transaction_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `price_history_address` ON `price_history` (`address_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `sales_analytics` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` text NOT NULL,
	`address_id` integer NOT NULL,
	`network` text NOT NULL,
	`rarity_score` real,
	`category` text,
	`estimated_value` text,
	`actual_sale_price` text NOT NULL,
	`price_variance` text,
	`sale_date` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`leading_zeros` integer DEFAULT 0 NOT NULL,
	`patterns` text,
	FOREIGN KEY (`address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sales_analytics_transaction_unique` ON `sales_analytics` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `sales_analytics_date` ON `sales_analytics` (`network`,`sale_date`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`network` text NOT NULL,
	`wallet_address` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sessions_user` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expiry` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `transaction_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` text,
	`address_id` integer,
	`action` text NOT NULL,
	`performed_by` text,
	`metadata` text,
	`ip_address` text,
	`user_agent` text,
	`timestamp` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `transaction_audit_transaction` ON `transaction_audit` (`transaction_id`,`timestamp`);--> statement-breakpoint
CREATE TABLE `transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`address_id` integer NOT NULL,
	`buyer_id` integer,
	`seller_id` integer,
	`buyer_wallet` text,
	`network` text NOT NULL,
	`price` text NOT NULL,
	`price_units` integer NOT NULL,
	`currency` text NOT NULL,
	`exchange_fee` text DEFAULT '0' NOT NULL,
	`commission_fee` text DEFAULT '0' NOT NULL,
	`total_amount` text NOT NULL,
	`total_units` integer NOT NULL,
	`status` text DEFAULT 'initiated' NOT NULL,
	`tx_hash` text,
	`verification_hash` text,
	`payment_reference` text,
	`dispute_reason` text,
	`failure_reason` text,
	`is_test_data` integer DEFAULT false NOT NULL,
	`private_key_destroyed` integer DEFAULT false NOT NULL,
	`expires_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`completed_at` integer,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`buyer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`seller_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_one_open_per_listing` ON `transactions` (`address_id`) WHERE status in ('initiated', 'pending', 'verified');--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_payment_unique` ON `transactions` (`network`,`tx_hash`) WHERE tx_hash is not null;--> statement-breakpoint
CREATE INDEX `transactions_buyer` ON `transactions` (`buyer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `transactions_seller` ON `transactions` (`seller_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `transactions_status` ON `transactions` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `transactions_created` ON `transactions` (`created_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`wallet_address` text NOT NULL,
	`network` text NOT NULL,
	`email` text,
	`membership_tier` text DEFAULT 'basic' NOT NULL,
	`is_verified` integer DEFAULT false NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`reputation_score` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_wallet_unique` ON `users` (`wallet_address`);--> statement-breakpoint
CREATE TABLE `watchlist` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`address_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `watchlist_user_address_unique` ON `watchlist` (`user_id`,`address_id`);