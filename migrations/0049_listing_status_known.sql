-- The listing lifecycle has four statuses (schema/listing-lifecycle.ts, docs/listings.md#states). `pending` was a
-- fifth that nothing in the code writes. A row that holds it (written by hand or by an import from before this
-- code) becomes `inactive`, which is how every rule already treats it: not for sale, not shown to the public, and
-- still changeable by its seller and an admin. It does not become `active`, because nobody ever put it on sale; an
-- admin can activate it. The change adds nothing to the market's counts and fires no "listed" event.
UPDATE `addresses` SET `status` = 'inactive' WHERE `status` = 'pending';
--> statement-breakpoint
-- From here on the database refuses any status outside the four, so a dropped status cannot come back through a
-- write the code's types do not see (a hand-written statement, an old script).
CREATE TRIGGER `addresses_status_known_insert` BEFORE INSERT ON `addresses`
WHEN NEW.`status` NOT IN ('active', 'inactive', 'sold', 'deleted')
BEGIN
  SELECT RAISE(ABORT, 'listing lifecycle: not a listing status');
END;
--> statement-breakpoint
CREATE TRIGGER `addresses_status_known_update` BEFORE UPDATE OF `status` ON `addresses`
WHEN NEW.`status` NOT IN ('active', 'inactive', 'sold', 'deleted')
BEGIN
  SELECT RAISE(ABORT, 'listing lifecycle: not a listing status');
END;
