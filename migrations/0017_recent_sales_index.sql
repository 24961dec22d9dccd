-- The public feed of recent sales (GET /api/transactions/recent) lists completed purchases only, newest
-- completion first (open reservations are not public activity: docs/public-surface.md#the-public-activity-feed); this index walks them in that order.
CREATE INDEX `transactions_completed_sales` ON `transactions` (`status`,`completed_at`);
