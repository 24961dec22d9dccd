import type { AuthSession } from "./auth/session";
import type { Db } from "./db/database";
import type { Deployment } from "./deployment/deployment";
import type { RequestInfo } from "./http/request-info";

/** Hono environment shared by every route: bindings from wrangler.toml and per-request variables. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    db: Db;
    /** What this Worker was deployed with, read once per request (deployment/deployment.ts). */
    deployment: Deployment;
    /** The signed-in wallet (set by auth/middleware.ts loadSession), or null for a visitor. */
    session: AuthSession | null;
    /** The caller's address and user agent (http/request-info.ts). */
    requestInfo: RequestInfo;
  };
};
