-- Marketplace search, the parts drizzle cannot express (the tables and indexes are in 0002_browse_search.sql).
--
-- 1. addresses_fts: an FTS5 trigram index over addresses.address for the free-text search (substring anywhere,
--    case-insensitive; the query re-checks Solana matches with their case). External content: the index keeps
--    only trigrams and reads addresses when it verifies a candidate. detail='none' keeps it small; queries use
--    LIKE, which does not need token positions.
-- 2. listing_counts: exact counts and price sums of browsable listings, maintained by the triggers below, so a
--    total over a million listings is a sum over a few hundred rows.
-- Both are kept by triggers on addresses, so every writer (listing creation, admin, settlement) keeps them right
-- without knowing about them.
CREATE VIRTUAL TABLE `addresses_fts` USING fts5(`address`, content='addresses', content_rowid='id', tokenize='trigram', detail='none');
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
CREATE TRIGGER `addresses_counts_ai` AFTER INSERT ON `addresses`
WHEN NEW.`status` = 'sold' OR (NEW.`status` = 'active' AND NEW.`is_listed` = 1) BEGIN
  INSERT INTO `listing_counts` (`state`, `network`, `currency`, `category`, `pattern_length`, `listings`, `price_units`)
  SELECT CASE WHEN NEW.`status` = 'sold' THEN 'sold' ELSE 'available' END, NEW.`network`, NEW.`currency`, NEW.`category`, NEW.`pattern_length`, 1, NEW.`price_units`
  WHERE true
  ON CONFLICT (`state`, `network`, `currency`, `category`, `pattern_length`)
  DO UPDATE SET `listings` = `listings` + 1, `price_units` = `price_units` + excluded.`price_units`;
END;
--> statement-breakpoint
CREATE TRIGGER `addresses_counts_ad` AFTER DELETE ON `addresses`
WHEN OLD.`status` = 'sold' OR (OLD.`status` = 'active' AND OLD.`is_listed` = 1) BEGIN
  UPDATE `listing_counts` SET `listings` = `listings` - 1, `price_units` = `price_units` - OLD.`price_units`
  WHERE `state` = CASE WHEN OLD.`status` = 'sold' THEN 'sold' ELSE 'available' END AND `network` = OLD.`network`
    AND `currency` = OLD.`currency` AND `category` = OLD.`category` AND `pattern_length` = OLD.`pattern_length`;
END;
--> statement-breakpoint
-- An update moves the row from its old bucket to its new one (both steps are no-ops for hidden rows).
CREATE TRIGGER `addresses_counts_au` AFTER UPDATE OF `status`, `is_listed`, `network`, `currency`, `category`, `pattern_length`, `price_units` ON `addresses` BEGIN
  UPDATE `listing_counts` SET `listings` = `listings` - 1, `price_units` = `price_units` - OLD.`price_units`
  WHERE (OLD.`status` = 'sold' OR (OLD.`status` = 'active' AND OLD.`is_listed` = 1))
    AND `state` = CASE WHEN OLD.`status` = 'sold' THEN 'sold' ELSE 'available' END AND `network` = OLD.`network`
    AND `currency` = OLD.`currency` AND `category` = OLD.`category` AND `pattern_length` = OLD.`pattern_length`;
  INSERT INTO `listing_counts` (`state`, `network`, `currency`, `category`, `pattern_length`, `listings`, `price_units`)
  SELECT CASE WHEN NEW.`status` = 'sold' THEN 'sold' ELSE 'available' END, NEW.`network`, NEW.`currency`, NEW.`category`, NEW.`pattern_length`, 1, NEW.`price_units`
  WHERE NEW.`status` = 'sold' OR (NEW.`status` = 'active' AND NEW.`is_listed` = 1)
  ON CONFLICT (`state`, `network`, `currency`, `category`, `pattern_length`)
  DO UPDATE SET `listings` = `listings` + 1, `price_units` = `price_units` + excluded.`price_units`;
END;
--> statement-breakpoint
-- Backfill from the listings that already exist.
INSERT INTO `listing_counts` (`state`, `network`, `currency`, `category`, `pattern_length`, `listings`, `price_units`)
SELECT CASE WHEN `status` = 'sold' THEN 'sold' ELSE 'available' END AS s, `network`, `currency`, `category`, `pattern_length`, count(*), total(`price_units`)
FROM `addresses` WHERE `status` = 'sold' OR (`status` = 'active' AND `is_listed` = 1)
GROUP BY s, `network`, `currency`, `category`, `pattern_length`;
--> statement-breakpoint
INSERT INTO `addresses_fts` (`addresses_fts`) VALUES ('rebuild');
