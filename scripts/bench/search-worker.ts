// The Worker `npm run bench:search` runs: the production app unchanged, plus the naive baseline route on
// /api/bench/naive-search (under /api/ so the app's middleware gives it the same database handle).
import { createApp } from "../../worker/app";
import { naiveSearchRoutes } from "./naive-search";

const app = createApp();
app.route("/api/bench/naive-search", naiveSearchRoutes);

export default { fetch: app.fetch } satisfies ExportedHandler<Env>;
