-- Bounds per client network, not per wallet (docs/public-surface.md#client-networks).
--
-- Sign-in nonces become stateless (worker/auth/nonce.ts): a nonce is HMAC-signed over its expiry and the message
-- issued with it, so issuing one stores nothing and no number of clients can fill a table for everyone. Only used
-- nonces are kept, by their 128 random bits, until they expire. The old table held unused nonces, each good for
-- ten minutes: a sign-in in progress at the deploy asks for a new nonce.
DROP TABLE `auth_nonces`;--> statement-breakpoint
CREATE TABLE `used_sign_in_nonces` (
	`nonce` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL,
	CONSTRAINT "used_sign_in_nonces_random" CHECK(length("used_sign_in_nonces"."nonce") = 32 AND "used_sign_in_nonces"."nonce" NOT GLOB '*[^0-9a-f]*')
);
--> statement-breakpoint
CREATE INDEX `used_sign_in_nonces_expiry` ON `used_sign_in_nonces` (`expires_at`);--> statement-breakpoint
-- Each reservation records the client network it was made from (an IPv4 address or an IPv6 /48); the reservation's
-- INSERT counts that network's open purchases (worker/purchases/reserve.ts). Older rows have none and count for no
-- network.
ALTER TABLE `transactions` ADD `client_network` text;--> statement-breakpoint
CREATE INDEX `transactions_network_open` ON `transactions` (`client_network`,`status`);
