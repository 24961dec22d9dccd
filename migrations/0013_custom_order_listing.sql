-- Custom orders paid through the purchase machinery (issue 14 step 2): a found order owns one hidden listing
-- (seller_id NULL, is_listed = 0, no sealed key) that only the order's buyer can reserve.
ALTER TABLE `custom_orders` ADD `listing_id` integer REFERENCES `addresses`(`id`);--> statement-breakpoint
ALTER TABLE `custom_orders` ADD `delivered_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `custom_orders_listing` ON `custom_orders` (`listing_id`) WHERE listing_id is not null;
