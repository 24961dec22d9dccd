// The Worker `npm run bench:saved-searches` times: the cron job's collectors task where the cron runs it, inside
// workerd with its D1 binding. Timed from Node through getPlatformProxy, every row the job reads also crossed the
// proxy between Node and workerd: 19,000 saved searches read in ~1 s there against ~40 ms in SQLite, a cost the
// deployed cron does not pay. Two routes, for the bench only (this file is never deployed):
//   POST /reset?count=N  puts the first N recorded events back and clears the notifications (before every run)
//   POST /run?now=T      runs runCollectorJob and answers its report and the notifications held after it
import { runCollectorJob } from "../../worker/collectors/notification-job";
import { createDb } from "../../worker/db/database";

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (request.method !== "POST") return new Response("POST only", { status: 405 });
    if (url.pathname === "/reset") {
      const count = Number(url.searchParams.get("count"));
      await env.DB.batch([
        env.DB.prepare("DELETE FROM notifications"),
        env.DB.prepare("DELETE FROM collector_events"),
        env.DB.prepare("INSERT INTO collector_events SELECT * FROM bench_events ORDER BY id LIMIT ?1").bind(count),
        env.DB.prepare(
          "UPDATE collector_cursor SET last_event_id = (SELECT min(id) - 1 FROM bench_events), batch_to = NULL, match_query = NULL, match_search = NULL WHERE id = 1",
        ),
      ]);
      return new Response(null, { status: 204 });
    }
    if (url.pathname === "/run") {
      const report = await runCollectorJob(createDb(env.DB), Number(url.searchParams.get("now")));
      const notices = (await env.DB.prepare("SELECT count(*) AS n FROM notifications").first<{ n: number }>())!.n;
      return Response.json({ report, notices });
    }
    return new Response("not found", { status: 404 });
  },
} satisfies ExportedHandler<{ DB: D1Database }>;
