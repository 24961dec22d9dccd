// The Worker `npm run bench:search` runs: the production app unchanged, plus the naive baseline route on
// /api/bench/naive-search (under /api/ so the app's middleware gives it the same database handle). A request
// with `x-bench-cache: off` goes to a second copy of the app built without the edge cache, for the uncached
// load figures (the header means nothing to the production Worker).
import { createApp } from "../../worker/app";
import { naiveSearchRoutes } from "./naive-search";

const cached = createApp();
cached.route("/api/bench/naive-search", naiveSearchRoutes);
const uncached = createApp({ edgeCache: false });
uncached.route("/api/bench/naive-search", naiveSearchRoutes);

export default {
  fetch: (request, env, ctx) => (request.headers.get("x-bench-cache") === "off" ? uncached : cached).fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
