-- Payment integrity. The invariants of docs/payments.md, held by the database so that no code path
-- (the confirm call, the cron job, the reconciliation, two of them at once) can break them:
--   I1  a (network, hash) pays at most one purchase or one refund, never both: a purchase settles only with a
--       hash whose ledger row (escrow_transactions, one per hash) is absent or held for that same purchase; a
--       ledger row is never a refund, and never another purchase's, for a hash that settled a purchase (the
--       excess of an overpayment is that same purchase's row, status released: explicit below);
--   I2  a listing has at most one verified/completed purchase (a sold listing is never listed again, and a
--       custom order's hidden listing is paid once);
--   I3  a recorded payment never changes owner.
-- Refunds listed only at depth, and re-checked before they are marked done, are the code's (the chain is not
-- in the database); the reconciliation lists what reached the platform address and no row accounts for.
CREATE TABLE `payment_attention` (
	`id` text PRIMARY KEY NOT NULL,
	`network` text NOT NULL,
	`kind` text NOT NULL,
	`ref` text NOT NULL,
	`tx_hash` text,
	`from_block` integer,
	`to_block` integer,
	`amount_base_units` text,
	`sender_address` text,
	`transaction_id` text,
	`escrow_id` text,
	`detail` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`alerted_at` integer,
	`resolved_at` integer,
	`resolved_by` text,
	`resolution_note` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_attention_once` ON `payment_attention` (`network`,`kind`,`ref`);--> statement-breakpoint
CREATE INDEX `payment_attention_open` ON `payment_attention` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `reconcile_cursors` (
	`network` text PRIMARY KEY NOT NULL,
	`next_block` integer,
	`last_signature` text,
	`backlog_before` text,
	`backlog_newest` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `escrow_transactions` ADD `check_failure` text;--> statement-breakpoint
ALTER TABLE `escrow_transactions` ADD `checked_at` integer;--> statement-breakpoint
ALTER TABLE `transactions` ADD `reserved_block` integer;--> statement-breakpoint
ALTER TABLE `transactions` ADD `scanned_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_one_sale_per_listing` ON `transactions` (`address_id`) WHERE status in ('verified', 'completed');
--> statement-breakpoint
-- A refund marked done keeps its ledger status (refund, or released for an overpayment's excess); only
-- refund_status says refunded. Earlier code wrote status = 'refunded'.
UPDATE `escrow_transactions` SET `status` = CASE WHEN `attention_reason` = 'over' THEN 'released' ELSE 'refund' END WHERE `status` = 'refunded';
--> statement-breakpoint
-- I1, on the purchase's side.
CREATE TRIGGER `payment_settles_with_its_own_hash_insert` BEFORE INSERT ON `transactions`
WHEN NEW.`status` IN ('verified', 'completed') AND NEW.`tx_hash` IS NOT NULL AND EXISTS (
  SELECT 1 FROM `escrow_transactions` e WHERE e.`network` = NEW.`network` AND e.`tx_hash` = NEW.`tx_hash`
    AND (e.`transaction_id` IS NOT NEW.`id` OR e.`status` NOT IN ('held', 'released')))
BEGIN
  SELECT RAISE(ABORT, 'payment integrity: this payment is recorded for another purchase or for a refund');
END;
--> statement-breakpoint
CREATE TRIGGER `payment_settles_with_its_own_hash_update` BEFORE UPDATE OF `status`, `tx_hash`, `network` ON `transactions`
WHEN NEW.`status` IN ('verified', 'completed') AND NEW.`tx_hash` IS NOT NULL AND EXISTS (
  SELECT 1 FROM `escrow_transactions` e WHERE e.`network` = NEW.`network` AND e.`tx_hash` = NEW.`tx_hash`
    AND (e.`transaction_id` IS NOT NEW.`id` OR e.`status` NOT IN ('held', 'released')))
BEGIN
  SELECT RAISE(ABORT, 'payment integrity: this payment is recorded for another purchase or for a refund');
END;
--> statement-breakpoint
-- I1, on the ledger's side. An upsert's attempted insert runs this too, so code never even tries.
CREATE TRIGGER `payment_ledger_respects_settlement_insert` BEFORE INSERT ON `escrow_transactions`
WHEN NEW.`tx_hash` IS NOT NULL AND EXISTS (
  SELECT 1 FROM `transactions` t WHERE t.`network` = NEW.`network` AND t.`tx_hash` = NEW.`tx_hash` AND t.`status` IN ('verified', 'completed')
    AND (t.`id` IS NOT NEW.`transaction_id` OR NEW.`status` NOT IN ('held', 'released')))
BEGIN
  SELECT RAISE(ABORT, 'payment integrity: this payment settled a purchase and cannot be recorded otherwise');
END;
--> statement-breakpoint
CREATE TRIGGER `payment_ledger_respects_settlement_update` BEFORE UPDATE OF `status`, `transaction_id`, `tx_hash`, `network` ON `escrow_transactions`
WHEN NEW.`tx_hash` IS NOT NULL AND EXISTS (
  SELECT 1 FROM `transactions` t WHERE t.`network` = NEW.`network` AND t.`tx_hash` = NEW.`tx_hash` AND t.`status` IN ('verified', 'completed')
    AND (t.`id` IS NOT NEW.`transaction_id` OR NEW.`status` NOT IN ('held', 'released')))
BEGIN
  SELECT RAISE(ABORT, 'payment integrity: this payment settled a purchase and cannot be recorded otherwise');
END;
--> statement-breakpoint
-- I3.
CREATE TRIGGER `payment_ledger_owner_is_fixed` BEFORE UPDATE OF `transaction_id` ON `escrow_transactions`
WHEN OLD.`transaction_id` IS NOT NULL AND NEW.`transaction_id` IS NOT OLD.`transaction_id`
BEGIN
  SELECT RAISE(ABORT, 'payment integrity: a recorded payment never changes owner');
END;
