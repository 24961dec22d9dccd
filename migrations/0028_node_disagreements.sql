-- Nodes that contradicted the other nodes of their chain (docs/payments.md#trust-no-single-node).
CREATE TABLE `node_disagreements` (
	`network` text NOT NULL,
	`node` text NOT NULL,
	`first_seen_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`times` integer DEFAULT 1 NOT NULL,
	`tx_hash` text,
	`detail` text NOT NULL,
	PRIMARY KEY(`network`, `node`)
);
