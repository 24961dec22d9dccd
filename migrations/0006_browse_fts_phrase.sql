-- The trigram index again, now with token positions (detail=full, the default): a search of three characters
-- or more becomes a phrase query answered from the index alone, where detail='none' (0003) had to read every
-- candidate's address to confirm it. The triggers are recreated unchanged around the new table.
DROP TRIGGER `addresses_fts_ai`;
--> statement-breakpoint
DROP TRIGGER `addresses_fts_ad`;
--> statement-breakpoint
DROP TRIGGER `addresses_fts_au`;
--> statement-breakpoint
DROP TABLE `addresses_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `addresses_fts` USING fts5(`address`, content='addresses', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `addresses_fts_ai` AFTER INSERT ON `addresses` BEGIN
  INSERT INTO `addresses_fts` (rowid, `address`) VALUES (NEW.`id`, NEW.`address`);
END;
--> statement-breakpoint
CREATE TRIGGER `addresses_fts_ad` AFTER DELETE ON `addresses` BEGIN
  INSERT INTO `addresses_fts` (`addresses_fts`, rowid, `address`) VALUES ('delete', OLD.`id`, OLD.`address`);
END;
--> statement-breakpoint
CREATE TRIGGER `addresses_fts_au` AFTER UPDATE OF `address` ON `addresses` BEGIN
  INSERT INTO `addresses_fts` (`addresses_fts`, rowid, `address`) VALUES ('delete', OLD.`id`, OLD.`address`);
  INSERT INTO `addresses_fts` (rowid, `address`) VALUES (NEW.`id`, NEW.`address`);
END;
--> statement-breakpoint
INSERT INTO `addresses_fts` (`addresses_fts`) VALUES ('rebuild');
