-- One payment scan per network for every reservation (docs/payments.md#finding-payments): each run reads the chain's
-- new part once (Ethereum blocks, the platform's Solana signatures) and finds each transfer's purchase by its sender
-- or reference key, so its cost follows the transfers, not the open reservations. Its cursor:
CREATE TABLE `payment_scan_cursors` (
	`network` text PRIMARY KEY NOT NULL,
	`next_block` integer,
	`last_signature` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
-- A transfer's purchases by its sender, and a payment's purchase by its hash or reference key, without reading the table.
CREATE INDEX `transactions_buyer_wallet` ON `transactions` (`network`,`buyer_wallet`,`created_at`);--> statement-breakpoint
CREATE INDEX `transactions_payment_hash` ON `transactions` (`network`,`tx_hash`) WHERE tx_hash IS NOT NULL;--> statement-breakpoint
CREATE INDEX `transactions_payment_reference` ON `transactions` (`payment_reference`) WHERE payment_reference IS NOT NULL;--> statement-breakpoint
-- How far behind the head the reconciliation is (docs/operations.md#health): everything up to through_block is read,
-- and caught_up_at is the last run that read up to the final head. Existing cursors were last caught up when they
-- last moved, so a reconciliation that was already stuck is alerted on at once.
ALTER TABLE `reconcile_cursors` ADD `through_block` integer;--> statement-breakpoint
ALTER TABLE `reconcile_cursors` ADD `caught_up_at` integer;--> statement-breakpoint
UPDATE `reconcile_cursors` SET `through_block` = CASE WHEN `next_block` IS NOT NULL THEN `next_block` - 1 END, `caught_up_at` = `updated_at`;--> statement-breakpoint
-- An admin may dismiss a payment listed for refund with a note (refund_status 'dismissed'); dust is 'ignored'.
ALTER TABLE `escrow_transactions` ADD `resolution_note` text;--> statement-breakpoint
ALTER TABLE `escrow_transactions` ADD `resolved_by` text;--> statement-breakpoint
-- Zero-value transfers listed for refund before dust existed cannot be refunded (nothing arrived): ignored.
UPDATE `escrow_transactions` SET `refund_status` = 'ignored' WHERE `refund_status` = 'needed' AND `amount_base_units` = '0';
--> statement-breakpoint
UPDATE `payment_attention` SET `status` = 'resolved', `resolved_at` = cast(unixepoch('subsec') * 1000 as integer), `resolved_by` = 'migration 0021',
	`resolution_note` = 'A zero-value transfer: dust, nothing arrived to refund.'
WHERE `status` = 'open' AND `kind` = 'uncredited' AND `amount_base_units` = '0';
