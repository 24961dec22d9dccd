-- listings_version: one counter that changes whenever anything a public browse answer shows may have changed,
-- so the edge cache (worker/http/edge-cache.ts) can put it in its keys: a new version is a new key, and the
-- old answers are simply never asked for again. Bumped by triggers, not by application code, so every
-- writer (listing changes, admin, bulk import, purchases, settlement jobs) moves it without knowing about it.
-- Listings (search, featured, detail, market stats' counts) and transactions (recent transactions, volume).
CREATE TABLE `listings_version` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`version` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `listings_version` (`id`, `version`) VALUES (1, 1);
--> statement-breakpoint
CREATE TRIGGER `addresses_version_ai` AFTER INSERT ON `addresses` BEGIN
  UPDATE `listings_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `addresses_version_au` AFTER UPDATE ON `addresses` BEGIN
  UPDATE `listings_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `addresses_version_ad` AFTER DELETE ON `addresses` BEGIN
  UPDATE `listings_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `transactions_version_ai` AFTER INSERT ON `transactions` BEGIN
  UPDATE `listings_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `transactions_version_au` AFTER UPDATE ON `transactions` BEGIN
  UPDATE `listings_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `transactions_version_ad` AFTER DELETE ON `transactions` BEGIN
  UPDATE `listings_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
