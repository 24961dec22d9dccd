-- Wallets that never did anything are forgotten (docs/sign-in.md#idle-wallets-are-forgotten): a users row with no
-- listing, purchase, offer, watchlist entry, saved search or session for 30 days is deleted by the cron, a slice of
-- the table per run. Sessions are deleted once they expire, so the latest sign-in is kept on the user; the cursor
-- says where the last run's slice ended.
CREATE TABLE `job_cursors` (
	`name` text PRIMARY KEY NOT NULL,
	`position` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `users` ADD `last_sign_in_at` integer;--> statement-breakpoint
-- The sessions still kept say when their wallets last signed in.
UPDATE `users` SET `last_sign_in_at` = (SELECT max(`created_at`) FROM `sessions` WHERE `sessions`.`user_id` = `users`.`id`);
