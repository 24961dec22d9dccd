// The API: one Hono app, created by a factory so tests can mount it with their own bindings.
import { Hono } from "hono";
import { ROW_ID_PATTERN, UUID_PATTERN } from "../schema/ids";
import { loadSession } from "./auth/middleware";
import { createDb } from "./db/database";
import { deployment } from "./deployment/middleware";
import { bodyLimit } from "./http/body-limit";
import { edgeCache } from "./http/edge-cache";
import { requestInfo } from "./http/request-info";
import { errorBody, handleError } from "./http/errors";
import { securityHeaders } from "./http/security-headers";
import { varyPublicByCookie } from "./http/vary-cookie";
import { authRoutes } from "./routes/auth";
import { addressRoutes } from "./routes/addresses";
import { adminRoutes } from "./routes/admin";
import { adminPaymentRoutes } from "./routes/admin-payments";
import { adminPurchaseRoutes } from "./routes/admin-purchases";
import { adminAnalyticsRoutes } from "./routes/admin-analytics";
import { adminSettingsRoutes } from "./routes/admin-settings";
import { configRoutes } from "./routes/config";
import { customOrderRoutes } from "./routes/custom-orders";
import { devChainRoutes } from "./routes/dev-chains";
import { healthRoutes } from "./routes/health";
import { marketRoutes } from "./routes/market";
import { notificationRoutes } from "./routes/notifications";
import { offerRoutes } from "./routes/offers";
import { savedSearchRoutes } from "./routes/saved-searches";
import { supplyRoutes } from "./routes/supply";
import { transactionRoutes } from "./routes/transactions";
import { userRoutes } from "./routes/users";
import { watchlistRoutes } from "./routes/watchlist";
import type { AppEnv } from "./types";

/** Largest JSON body an ordinary call may send. */
export const BODY_LIMIT_BYTES = 256 * 1024;
/** Bulk listing uploads send rows in chunks; one chunk may be larger. */
export const BULK_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

const ordinaryLimit = bodyLimit(BODY_LIMIT_BYTES);
const bulkLimit = bodyLimit(BULK_BODY_LIMIT_BYTES);

/**
 * Public browse reads may be answered by the nearest D1 read replica; every other call (writes, keys,
 * payments, sign-in, an owner's or admin's reads) starts on the primary, so it sees its own writes (docs/api.md#replica-reads).
 */
const REPLICA_READS = [
  new RegExp(`^/api/addresses/(search|featured|validate|${ROW_ID_PATTERN}|${ROW_ID_PATTERN}/context)$`),
  /^\/api\/(market-stats|prices\/live|config|transactions\/recent|transactions\/sales)$/,
  new RegExp(`^/api/transactions/sales/${UUID_PATTERN}$`),
  new RegExp(`^/api/watchlist/${ROW_ID_PATTERN}/watchers$`),
];

export function sessionConstraint(method: string, path: string): D1SessionConstraint {
  const browse = (method === "GET" || method === "HEAD") && REPLICA_READS.some((re) => re.test(path));
  return browse ? "first-unconstrained" : "first-primary";
}

/**
 * Anonymous GET answers kept in the edge cache (http/edge-cache.ts); all are also REPLICA_READS. One listing is
 * matched by its id's rule here, not by the route's `/:id`, which would also take /validate and /user.
 */
const EDGE_CACHED = new RegExp(`^/api/(addresses/(search|featured|${ROW_ID_PATTERN})|market-stats|transactions/recent)$`);

/** `edgeCache: false` only for the search benchmark's uncached run. */
export function createApp(options: { edgeCache?: boolean } = {}) {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.notFound((c) => c.json(errorBody(404, `No API route for ${c.req.method} ${new URL(c.req.url).pathname}`), 404));

  app.use("/api/*", securityHeaders);
  app.use("/api/*", deployment);
  app.use("/api/*", requestInfo);
  app.use("/api/*", varyPublicByCookie);
  app.use("/api/*", (c, next) => (c.req.path === "/api/admin/addresses/bulk" ? bulkLimit(c, next) : ordinaryLimit(c, next)));
  app.use("/api/*", async (c, next) => {
    c.set("db", createDb(c.env.DB.withSession(sessionConstraint(c.req.method, c.req.path))));
    await next();
  });
  // Routes that need a secret say so themselves (requireSecrets / requireSessionSecret from deployment/secrets.ts).
  app.use("/api/*", loadSession);
  const cached = edgeCache({ enabled: options.edgeCache ?? true });
  app.use("/api/*", (c, next) => (EDGE_CACHED.test(c.req.path) ? cached(c, next) : next()));

  const routes = app
    .route("/api/health", healthRoutes)
    .route("/api/config", configRoutes)
    .route("/api/auth", authRoutes)
    .route("/api/users", userRoutes)
    .route("/api/addresses", addressRoutes)
    .route("/api/admin/payments", adminPaymentRoutes)
    .route("/api/admin/purchases", adminPurchaseRoutes)
    .route("/api/admin/settings", adminSettingsRoutes)
    .route("/api/admin/analytics", adminAnalyticsRoutes)
    .route("/api/admin", adminRoutes)
    .route("/api/custom-orders", customOrderRoutes)
    .route("/api/supply", supplyRoutes)
    .route("/api/transactions", transactionRoutes)
    .route("/api/watchlist", watchlistRoutes)
    .route("/api/saved-searches", savedSearchRoutes)
    .route("/api/notifications", notificationRoutes)
    .route("/api/offers", offerRoutes)
    .route("/api/dev-chains", devChainRoutes)
    .route("/api", marketRoutes);
  return routes;
}

/** The API as the web's typed client sees it (web/src/api/http.ts: `hc<AppType>`): every route, its input and its answer. */
export type AppType = ReturnType<typeof createApp>;
