CREATE TABLE `custom_orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`buyer_id` integer NOT NULL,
	`buyer_wallet` text NOT NULL,
	`public_key` text NOT NULL,
	`prefix` text NOT NULL,
	`suffix` text NOT NULL,
	`case_sensitive` integer NOT NULL,
	`difficulty_bits` integer NOT NULL,
	`price` text NOT NULL,
	`price_units` integer NOT NULL,
	`currency` text DEFAULT 'ETH' NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`taken_by` integer,
	`taken_at` integer,
	`progress_attempts` integer,
	`progress_rate` real,
	`progress_at` integer,
	`found_address` text,
	`found_offset` text,
	`found_variant` integer,
	`found_at` integer,
	`payment_deadline` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`buyer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`taken_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_orders_found_address` ON `custom_orders` (`found_address`) WHERE found_address is not null;--> statement-breakpoint
CREATE INDEX `custom_orders_buyer` ON `custom_orders` (`buyer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `custom_orders_status` ON `custom_orders` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `custom_orders_deadline` ON `custom_orders` (`payment_deadline`) WHERE status = 'found';
