import type { Db } from "./db";

/** Hono environment shared by every route: bindings from wrangler.toml and per-request variables. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    db: Db;
  };
};
