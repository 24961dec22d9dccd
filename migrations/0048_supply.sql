-- Supply that runs itself (docs/supply.md): an admin's targets (keep N listings of a category and length at a
-- price) and the grinders' claims on them, each a lease its reports renew and the cron job closes. The partial
-- indexes keep the bounds' counts of open claims and the cron's expiry to the open rows.
CREATE TABLE `supply_claims` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`target_id` integer NOT NULL,
	`grinder_id` text NOT NULL,
	`admin_id` integer NOT NULL,
	`label` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`rate` real,
	`listed` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`reported_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`closed_at` integer,
	FOREIGN KEY (`target_id`) REFERENCES `supply_targets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`admin_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `supply_claims_open_target` ON `supply_claims` (`target_id`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `supply_claims_open_grinder` ON `supply_claims` (`grinder_id`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `supply_claims_open_expiry` ON `supply_claims` (`expires_at`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `supply_claims_closed` ON `supply_claims` (`closed_at`) WHERE status <> 'open';--> statement-breakpoint
CREATE TABLE `supply_targets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`network` text NOT NULL,
	`category` text NOT NULL,
	`pattern_length` integer NOT NULL,
	`price` text NOT NULL,
	`price_units` integer NOT NULL,
	`currency` text NOT NULL,
	`wanted` integer NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `supply_targets_shape` ON `supply_targets` (`network`,`category`,`pattern_length`);