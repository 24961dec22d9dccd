-- No purchase is ever written as `verified` (docs/payments.md#the-lifecycle): settling goes pending -> completed and
-- releases the key in the same write, and schema/purchase-lifecycle.ts declares no transition into it. The value
-- stays in the column's vocabulary (the product specification's transactions table names it; a row holding it
-- would count as paid and as holding its listing), and these triggers make "never written" the database's rule
-- rather than an assumption about the code. A row that already held it keeps it (its other columns may change).
CREATE TRIGGER `purchase_never_verified_insert` BEFORE INSERT ON `transactions`
WHEN NEW.`status` = 'verified'
BEGIN
  SELECT RAISE(ABORT, 'purchase lifecycle: no transition leads to verified');
END;
--> statement-breakpoint
CREATE TRIGGER `purchase_never_verified_update` BEFORE UPDATE OF `status` ON `transactions`
WHEN NEW.`status` = 'verified' AND OLD.`status` IS NOT 'verified'
BEGIN
  SELECT RAISE(ABORT, 'purchase lifecycle: no transition leads to verified');
END;
