// /api/saved-searches (docs/collectors.md#saved-searches): a signed-in wallet's saved marketplace searches.
//   GET    /        the wallet's saved searches, newest first
//   POST   /        {name, filters}: save one (201); 400 for filters the search refuses, 409 saved already or at a bound
//   DELETE /{id}    delete one of the wallet's (404 for any other id)
import { Hono } from "hono";
import { COLLECTOR_WRITE_LIMIT, SAVED_SEARCH_LIMITS, type SavedSearchesResponse, type SavedSearchView, SaveSearchRequest } from "../../schema/collectors";
import { requireSession } from "../auth/middleware";
import { clientKey } from "../collectors/client-key";
import { deleteSavedSearch, listSavedSearches, saveSearch } from "../collectors/saved-searches";
import { limitSignedIn } from "../http/rate-limit";
import { validId } from "../http/params";
import { validate } from "../http/validate";
import type { AppEnv } from "../types";

const writeLimit = limitSignedIn("collectors", COLLECTOR_WRITE_LIMIT);

export const savedSearchRoutes = new Hono<AppEnv>()
  .get("/", requireSession, async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({ searches: await listSavedSearches(c.var.db, c.var.session.userId), limit: SAVED_SEARCH_LIMITS.perWallet } satisfies SavedSearchesResponse);
  })
  .post("/", requireSession, validate("json", SaveSearchRequest), writeLimit, async (c) => {
    const { name, filters } = c.req.valid("json");
    const key = await clientKey(c.env.SESSION_SECRET, c.var.requestInfo.ip);
    return c.json((await saveSearch(c.var.db, c.var.session, name, filters, key, Date.now())) satisfies SavedSearchView, 201);
  })
  .delete("/:id", validId("saved search"), requireSession, writeLimit, async (c) => {
    await deleteSavedSearch(c.var.db, c.var.session.userId, c.req.valid("param").id);
    return c.json({ success: true as const });
  });
