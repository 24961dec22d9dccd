-- The rarity scale changes from 10 x log2(D) / 64 to log2(D) / 4 (docs/rarity.md). SQL cannot recompute a
-- score (it needs the rarity engine, and the old scores are rounded), so existing rows are marked as being on
-- scale 1 and the cron job worker/jobs/rescore-rarity.ts rescores them in batches; new rows default to scale 2.
ALTER TABLE `addresses` ADD `rarity_scale` integer DEFAULT 2 NOT NULL;--> statement-breakpoint
UPDATE `addresses` SET `rarity_scale` = 1;--> statement-breakpoint
CREATE INDEX `addresses_rarity_scale_pending` ON `addresses` (`id`) WHERE rarity_scale < 2;
