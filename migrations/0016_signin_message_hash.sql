-- Sign-in accepts exactly the message it issued: each nonce keeps the SHA-256 (64 lower-case hex
-- characters) of the message the server wrote for it. Nonces live ten minutes and none can be verified
-- without its hash, so the table is recreated rather than copied: a sign-in in progress at the deploy asks
-- for a new nonce.
DROP TABLE `auth_nonces`;
--> statement-breakpoint
CREATE TABLE `auth_nonces` (
	`nonce` text PRIMARY KEY NOT NULL,
	`message_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "auth_nonces_message_hash" CHECK(length("auth_nonces"."message_hash") = 64 AND "auth_nonces"."message_hash" NOT GLOB '*[^0-9a-f]*')
);
--> statement-breakpoint
CREATE INDEX `auth_nonces_expiry` ON `auth_nonces` (`expires_at`);
