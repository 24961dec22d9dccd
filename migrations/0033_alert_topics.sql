-- Alerts are sent as one digest per topic and run (docs/operations.md#alerts): a flood of one kind of payment
-- difference is one delivery, beside every other kind's. The topic is the kind, or for payments the kind of
-- difference (refund:<attention reason>, attention:<kind>); the incidents already there get theirs.
ALTER TABLE `alert_incidents` ADD `topic` text DEFAULT '' NOT NULL;
--> statement-breakpoint
UPDATE `alert_incidents` SET `topic` = CASE
  WHEN `key` LIKE 'escrow:%' THEN 'refund:' || coalesce((SELECT `attention_reason` FROM `escrow_transactions` WHERE `id` = substr(`alert_incidents`.`key`, 8)), 'refund')
  WHEN `key` LIKE 'attention:%' THEN 'attention:' || coalesce((SELECT `kind` FROM `payment_attention` WHERE `id` = substr(`alert_incidents`.`key`, 11)), 'difference')
  ELSE `kind` END;
