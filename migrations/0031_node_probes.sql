-- Each chain node's last probe by the cron, by host (docs/operations.md#health): every configured node is asked
-- each run, so a node that is down is named even while another answers.
CREATE TABLE `chain_node_status` (
	`network` text NOT NULL,
	`node` text NOT NULL,
	`ok` integer NOT NULL,
	`head` integer,
	`head_time` integer,
	`checked_at` integer NOT NULL,
	`failing_since` integer,
	`error` text,
	PRIMARY KEY(`network`, `node`)
);
