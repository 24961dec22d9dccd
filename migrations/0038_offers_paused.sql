-- Accepting an offer pauses the listing's other offers instead of declining them (docs/offers.md#accepting): a buyer
-- who accepts-and-never-pays must not end everyone else's offers. The indexes that held "open" offers now hold the
-- waiting ones (open or paused): one per buyer and listing, the bounds, the clock.
DROP INDEX `offers_one_open_per_buyer`;--> statement-breakpoint
DROP INDEX `offers_buyer_open`;--> statement-breakpoint
DROP INDEX `offers_client_open`;--> statement-breakpoint
DROP INDEX `offers_open_expiry`;--> statement-breakpoint
CREATE UNIQUE INDEX `offers_one_open_per_buyer` ON `offers` (`address_id`,`buyer_id`) WHERE status IN ('open', 'paused');--> statement-breakpoint
CREATE INDEX `offers_buyer_open` ON `offers` (`buyer_id`) WHERE status IN ('open', 'paused');--> statement-breakpoint
CREATE INDEX `offers_client_open` ON `offers` (`client_network`,`address_id`) WHERE status IN ('open', 'paused');--> statement-breakpoint
CREATE INDEX `offers_open_expiry` ON `offers` (`expires_at`) WHERE status IN ('open', 'paused');--> statement-breakpoint
-- A price change, a sale or an unlisting ends the waiting offers: open ones expire as before; a paused one is
-- declined when the listing sells (that is the accepted offer's sale completing), and otherwise expires.
DROP TRIGGER `offers_end_on_listing_change`;--> statement-breakpoint
CREATE TRIGGER `offers_end_on_listing_change` AFTER UPDATE OF `price_units`, `status`, `is_listed` ON `addresses`
WHEN NEW.`price_units` IS NOT OLD.`price_units` OR NEW.`status` <> 'active' OR NEW.`is_listed` = 0 BEGIN
  UPDATE `offers` SET
    `status` = CASE WHEN NEW.`status` = 'sold' AND `status` = 'paused' THEN 'declined' ELSE 'expired' END,
    `end_reason` = CASE WHEN NEW.`status` = 'sold' AND `status` = 'paused' THEN 'other_accepted' WHEN NEW.`status` = 'sold' THEN 'sold'
      WHEN NEW.`status` <> 'active' OR NEW.`is_listed` = 0 THEN 'unlisted' ELSE 'price_changed' END,
    `updated_at` = cast(unixepoch('subsec') * 1000 as integer)
  WHERE `address_id` = NEW.`id` AND `status` IN ('open', 'paused');
END;
--> statement-breakpoint
-- An accepted offer's reservation ends unpaid (expired, cancelled, failed): the offer lapses and the offers it paused
-- are open again, their terms and their own time unchanged (one past its time reads expired and the clock ends it).
DROP TRIGGER `offers_lapse_with_purchase`;--> statement-breakpoint
CREATE TRIGGER `offers_lapse_with_purchase` AFTER UPDATE OF `status` ON `transactions`
WHEN OLD.`status` IN ('initiated', 'pending', 'verified') AND NEW.`status` IN ('expired', 'cancelled', 'failed') BEGIN
  UPDATE `offers` SET `status` = 'lapsed', `end_reason` = 'payment_lapsed', `updated_at` = cast(unixepoch('subsec') * 1000 as integer)
  WHERE `transaction_id` = NEW.`id` AND `status` = 'accepted';
  UPDATE `offers` SET `status` = 'open', `updated_at` = cast(unixepoch('subsec') * 1000 as integer)
  WHERE `address_id` = NEW.`address_id` AND `status` IN ('open', 'paused') AND `status` = 'paused'
    AND NOT EXISTS (SELECT 1 FROM `offers` AS `held` WHERE `held`.`address_id` = NEW.`address_id` AND `held`.`status` = 'accepted');
END;
--> statement-breakpoint
-- Paid: the offer is completed (the buyer is told by the purchase's own notification), and the offers it paused are
-- declined now, for good (the cron job tells their buyers).
DROP TRIGGER `offers_complete_with_purchase`;--> statement-breakpoint
CREATE TRIGGER `offers_complete_with_purchase` AFTER UPDATE OF `status` ON `transactions`
WHEN NEW.`status` IN ('verified', 'completed') AND OLD.`status` NOT IN ('verified', 'completed') BEGIN
  UPDATE `offers` SET `status` = 'completed', `end_reason` = 'paid', `notified_status` = 'completed',
    `updated_at` = cast(unixepoch('subsec') * 1000 as integer)
  WHERE `transaction_id` = NEW.`id` AND `status` IN ('accepted', 'lapsed');
  UPDATE `offers` SET `status` = 'declined', `end_reason` = 'other_accepted', `updated_at` = cast(unixepoch('subsec') * 1000 as integer)
  WHERE `address_id` = NEW.`address_id` AND `status` IN ('open', 'paused') AND `status` = 'paused';
END;
