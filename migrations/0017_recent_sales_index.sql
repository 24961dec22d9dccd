-- The public feed of recent sales (GET /api/transactions/recent) lists completed purchases only, newest
-- completion first (DESIGN §6: open reservations are not public activity); this index walks them in that order.
CREATE INDEX `transactions_completed_sales` ON `transactions` (`status`,`completed_at`);
