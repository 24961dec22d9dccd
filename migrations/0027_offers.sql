CREATE TABLE `offers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`address_id` integer NOT NULL,
	`buyer_id` integer NOT NULL,
	`amount` text NOT NULL,
	`amount_units` integer NOT NULL,
	`currency` text NOT NULL,
	`ask_units` integer NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`end_reason` text,
	`expires_at` integer NOT NULL,
	`transaction_id` text,
	`client_network` text NOT NULL,
	`notified_status` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`buyer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `offers_one_open_per_buyer` ON `offers` (`address_id`,`buyer_id`) WHERE status = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX `offers_one_accepted_per_listing` ON `offers` (`address_id`) WHERE status = 'accepted';--> statement-breakpoint
CREATE INDEX `offers_listing_open` ON `offers` (`address_id`,`amount_units`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `offers_buyer` ON `offers` (`buyer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `offers_buyer_open` ON `offers` (`buyer_id`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `offers_client_open` ON `offers` (`client_network`,`address_id`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `offers_client_created` ON `offers` (`client_network`,`created_at`);--> statement-breakpoint
CREATE INDEX `offers_open_expiry` ON `offers` (`expires_at`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `offers_transaction` ON `offers` (`transaction_id`) WHERE transaction_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `offers_untold` ON `offers` (`id`) WHERE notified_status IS NOT status;--> statement-breakpoint
CREATE INDEX `offers_updated` ON `offers` (`updated_at`);--> statement-breakpoint
-- Offers end with what ends them, in the same transaction as the write that does (docs/offers.md#states), whoever
-- writes it: the admin panel, a seller's price change, bulk import, settlement, the cron job's expiry. A price change,
-- a sale or an unlisting expires the listing's open offers.
CREATE TRIGGER `offers_end_on_listing_change` AFTER UPDATE OF `price_units`, `status`, `is_listed` ON `addresses`
WHEN NEW.`price_units` IS NOT OLD.`price_units` OR NEW.`status` <> 'active' OR NEW.`is_listed` = 0 BEGIN
  UPDATE `offers` SET `status` = 'expired',
    `end_reason` = CASE WHEN NEW.`status` = 'sold' THEN 'sold' WHEN NEW.`status` <> 'active' OR NEW.`is_listed` = 0 THEN 'unlisted' ELSE 'price_changed' END,
    `updated_at` = cast(unixepoch('subsec') * 1000 as integer)
  WHERE `address_id` = NEW.`id` AND `status` = 'open';
END;
--> statement-breakpoint
-- An accepted offer follows its reservation: unpaid to its end (expired, cancelled, failed), the offer lapses and the
-- listing is for sale again at its ask.
CREATE TRIGGER `offers_lapse_with_purchase` AFTER UPDATE OF `status` ON `transactions`
WHEN OLD.`status` IN ('initiated', 'pending', 'verified') AND NEW.`status` IN ('expired', 'cancelled', 'failed') BEGIN
  UPDATE `offers` SET `status` = 'lapsed', `end_reason` = 'payment_lapsed', `updated_at` = cast(unixepoch('subsec') * 1000 as integer)
  WHERE `transaction_id` = NEW.`id` AND `status` = 'accepted';
END;
--> statement-breakpoint
-- Paid: the offer is completed (the buyer is told by the purchase's own notification, so nothing is left to tell).
CREATE TRIGGER `offers_complete_with_purchase` AFTER UPDATE OF `status` ON `transactions`
WHEN NEW.`status` IN ('verified', 'completed') AND OLD.`status` NOT IN ('verified', 'completed') BEGIN
  UPDATE `offers` SET `status` = 'completed', `end_reason` = 'paid', `notified_status` = 'completed',
    `updated_at` = cast(unixepoch('subsec') * 1000 as integer)
  WHERE `transaction_id` = NEW.`id` AND `status` IN ('accepted', 'lapsed');
END;
