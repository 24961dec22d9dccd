-- Buying. A reported payment hash is no longer unique on every row: another buyer reporting your
-- hash first (or a failed report) must not block your purchase. The hash is unique only among purchases
-- that it actually paid (verified or completed), which the settle batch relies on.
DROP INDEX IF EXISTS `transactions_payment_unique`;
--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_payment_settles_once` ON `transactions` (`network`,`tx_hash`) WHERE status in ('verified', 'completed');
--> statement-breakpoint
-- The amount to pay in wei or lamports (decimal text: wei exceed 2^53).
ALTER TABLE `transactions` ADD `amount_base_units` text;
--> statement-breakpoint
-- Depth last seen for the reported payment, and where it was seen (a changed block means a reorg).
ALTER TABLE `transactions` ADD `confirmations` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `transactions` ADD `payment_block` text;
--> statement-breakpoint
-- Ethereum: the chain head when the reservation was made; the scan for unreported payments starts there.
ALTER TABLE `transactions` ADD `scan_from_block` integer;
--> statement-breakpoint
-- When the buyer (or the scan) reported a hash; bounds how long an unfound hash keeps the listing.
ALTER TABLE `transactions` ADD `reported_at` integer;
--> statement-breakpoint
-- Two cron runs never verify the same purchase at once: a run claims a row until this time.
ALTER TABLE `transactions` ADD `lease_until` integer;
--> statement-breakpoint
CREATE INDEX `transactions_buyer_open` ON `transactions` (`buyer_id`,`status`);
--> statement-breakpoint
CREATE INDEX `transactions_open_expiry` ON `transactions` (`status`,`expires_at`);
--> statement-breakpoint
-- Every received payment, once: held when seen, released on completion, otherwise marked for refund.
ALTER TABLE `escrow_transactions` ADD `transaction_id` text;
--> statement-breakpoint
ALTER TABLE `escrow_transactions` ADD `amount_base_units` text;
--> statement-breakpoint
ALTER TABLE `escrow_transactions` ADD `expected_base_units` text;
--> statement-breakpoint
-- late | partial | duplicate | over | failed, null when the payment settled a purchase exactly.
ALTER TABLE `escrow_transactions` ADD `attention_reason` text;
--> statement-breakpoint
-- null | needed | refunded (an overpayment's excess, or the whole payment).
ALTER TABLE `escrow_transactions` ADD `refund_status` text;
--> statement-breakpoint
ALTER TABLE `escrow_transactions` ADD `refund_base_units` text;
--> statement-breakpoint
CREATE UNIQUE INDEX `escrow_payment_unique` ON `escrow_transactions` (`network`,`tx_hash`) WHERE tx_hash is not null;
--> statement-breakpoint
CREATE INDEX `escrow_refund` ON `escrow_transactions` (`refund_status`,`created_at`);
