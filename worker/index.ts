import { createApp } from "./app";
import { runScheduledJobs } from "./jobs/scheduled";
import { servePrerenderedPage } from "./landing/pages";

const app = createApp();

export default {
  async fetch(request, env, ctx) {
    return (await servePrerenderedPage(request, env, (req) => Promise.resolve(app.fetch(req, env, ctx)))) ?? app.fetch(request, env, ctx);
  },
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      runScheduledJobs(env).then(
        (report) => console.log("scheduled run", JSON.stringify(report)),
        (err: unknown) => console.error("scheduled run failed", err instanceof Error ? err.message : String(err)),
      ),
    );
  },
} satisfies ExportedHandler<Env>;
