-- Sealed intake (docs/key-custody.md#sealed-intake): each HPKE-sealed row that became a listing, by its one-time
-- enc, so a replayed sealed row is refused by the primary key; written in the listing's own batch.
CREATE TABLE `sealed_intake` (
	`enc` text PRIMARY KEY NOT NULL,
	`key_id` text NOT NULL,
	`address_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE no action
);
