-- The task each cron run is in, written before the task starts and cleared when the run finishes
-- (docs/buying.md#the-cron-job): a run stopped by the platform (memory, CPU time) leaves it set, and the next run
-- records that task as failed, so the health page and the alerts tell of it.
ALTER TABLE `cron_runs` ADD `running_task` text;
