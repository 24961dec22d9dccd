import { createApp } from "./app";
import { runScheduledJobs } from "./jobs/scheduled";

const app = createApp();

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      runScheduledJobs(env).then(
        (report) => console.log("scheduled run", JSON.stringify(report)),
        (err: unknown) => console.error("scheduled run failed", err instanceof Error ? err.message : String(err)),
      ),
    );
  },
} satisfies ExportedHandler<Env>;
