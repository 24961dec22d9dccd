-- Reference rows every environment needs: the basic membership tier (the only tier the client sends)
-- and the fee configuration per network (0% exchange and commission fees, gas multiplier 1.20).
INSERT OR IGNORE INTO `membership_tiers` (`name`, `price`, `currency`, `billing_period`, `features`, `max_listings`, `featured_listings_included`, `commission_discount`, `is_active`)
VALUES ('basic', '0', 'ETH', 'monthly', '["browse","buy","checker"]', NULL, 0, '0', 1);
--> statement-breakpoint
INSERT OR IGNORE INTO `fee_config` (`network`, `exchange_fee_percentage`, `commission_fee_percentage`, `minimum_fee`, `maximum_fee`, `gas_fee_multiplier`, `is_active`)
VALUES ('ethereum', '0', '0', '0', NULL, '1.20', 1);
--> statement-breakpoint
INSERT OR IGNORE INTO `fee_config` (`network`, `exchange_fee_percentage`, `commission_fee_percentage`, `minimum_fee`, `maximum_fee`, `gas_fee_multiplier`, `is_active`)
VALUES ('solana', '0', '0', '0', NULL, '1.20', 1);
--> statement-breakpoint
INSERT INTO `algorithm_adjustments` (`network`, `base_value_multiplier`, `adjustment_reason`) VALUES ('ethereum', 1.0, 'initial calibration');
--> statement-breakpoint
INSERT INTO `algorithm_adjustments` (`network`, `base_value_multiplier`, `adjustment_reason`) VALUES ('solana', 1.0, 'initial calibration');
