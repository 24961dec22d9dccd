// The admin panel's API, mounted on /api/admin. Every
// route requires an admin session (requireAdmin on the whole sub-app); x-wallet-address is only compared
// with the session (auth/middleware.ts).
//   GET    /addresses                 the listings table: search, network and status filters, paging
//   GET    /addresses/export          every listing the same filters match (at most ADMIN_EXPORT_CAP), for the CSV export
//   GET    /stats                     the four stat cards
//   POST   /addresses/bulk            bulk CSV rows -> listings, one result per row ({rows, pricing?, confirmNoPattern?})
//   POST   /addresses/bulk/appraise   bulk CSV rows without keys -> each row's prices, estimate and pattern verdict
//   GET    /intake-key                the intake public key grinders seal found keys to
//   POST   /addresses/sealed          sealed intake rows -> listings, one result per row
//   PUT    /addresses/bulk-status     {listingIds, status}
//   PUT    /addresses/bulk-featured   {listingIds, isFeatured}
//   DELETE /addresses/bulk-delete     {listingIds} (JSON body)
//   PUT    /addresses/{id}            {status?, isFeatured?} -> the listing
//   DELETE /addresses/{id}            soft deletion
import { Hono } from "hono";
import * as v from "valibot";
import {
  ADMIN_NETWORK_FILTERS,
  ADMIN_PAGE_SIZES,
  ADMIN_STATUS_FILTERS,
  ADMIN_EXPORT_CAP,
  type AdminExportResponse,
  type AdminListingsResponse,
  type AdminStats,
  BULK_MAX_ROWS,
  type BulkActionResponse,
  type BulkAppraisalResponse,
  type BulkUploadResponse,
  MAX_BULK_IDS,
} from "../../schema/listings";
import { MAX_SEARCH_LENGTH } from "../../schema/browse";
import { requireAdmin } from "../auth/middleware";
import { getUsdPrices } from "../prices/price-feed";
import { queryInt, validId } from "../http/params";
import { noControlCharacters, validate } from "../http/validate";
import {
  adminChangeListing,
  adminDeleteListing,
  adminExport,
  adminListings,
  adminStats,
  bulkDelete,
  bulkSetFeatured,
  bulkSetStatus,
  toAdminListing,
} from "../listings/admin";
import { appraiseRows, importListings } from "../listings/import";
import { BULK_PRICINGS } from "../../schema/price-advice";
import { importSealedRows } from "../listings/sealed-import";
import { currentIntakeKey } from "../vault/intake";
import { type IntakeKeyResponse, SEALED_MAX_CIPHERTEXT, SEALED_MAX_ROWS } from "../../schema/sealed-intake";
import { requireSecrets } from "../deployment/middleware";
import type { AppEnv } from "../types";
import { LISTING_CHANGEABLE } from "../../schema/listing-lifecycle";

const listQuery = v.object({
  limit: v.optional(v.picklist(ADMIN_PAGE_SIZES.map(String) as [string, ...string[]], `limit must be one of ${ADMIN_PAGE_SIZES.join(", ")}`), "20"),
  offset: v.optional(queryInt("offset", 0, 10_000_000), "0"),
  search: v.optional(
    v.pipe(v.string(), v.maxLength(MAX_SEARCH_LENGTH, `search must be at most ${MAX_SEARCH_LENGTH} characters`), noControlCharacters("search"), v.trim()),
  ),
  network: v.optional(v.picklist(ADMIN_NETWORK_FILTERS, "network must be all, ethereum or solana"), "all"),
  status: v.optional(v.picklist(ADMIN_STATUS_FILTERS, `status must be one of ${ADMIN_STATUS_FILTERS.join(", ")}`), "all"),
});

// The table's filters without its page: what the export covers.
const exportQuery = v.object({ search: listQuery.entries.search, network: listQuery.entries.network, status: listQuery.entries.status });

/** listingIds: non-empty, at most MAX_BULK_IDS, positive whole numbers; duplicates are folded. */
const listingIds = v.pipe(
  v.array(
    v.pipe(
      v.number("listingIds must hold listing ids (whole numbers from 1)"),
      v.safeInteger("listingIds must hold whole numbers"),
      v.minValue(1, "listingIds must hold ids from 1"),
    ),
    "listingIds must be an array of listing ids",
  ),
  v.minLength(1, "No Listings Selected: listingIds must name at least one listing"),
  v.maxLength(MAX_BULK_IDS, `listingIds may name at most ${MAX_BULK_IDS} listings at a time`),
  v.transform((ids) => [...new Set(ids)]),
);

const activeOrInactive = v.picklist(LISTING_CHANGEABLE, `status must be ${LISTING_CHANGEABLE.join(" or ")}`);
const featuredFlag = v.boolean("isFeatured must be true or false");

const bulkRows = v.pipe(
  v.array(v.unknown(), "rows must be an array of CSV rows"),
  v.minLength(1, "rows must hold at least one row"),
  v.maxLength(BULK_MAX_ROWS, `rows may hold at most ${BULK_MAX_ROWS} rows per request; send the file in chunks`),
);
const bulkBody = v.object({
  rows: bulkRows,
  pricing: v.optional(v.picklist(BULK_PRICINGS, "pricing must be table or estimate"), "table"),
  confirmNoPattern: v.optional(v.boolean("confirmNoPattern must be true or false"), false),
});

/** One sealed row's form (its contents are checked when it is opened); the supply claims' listing takes it too. */
export const sealedRow = v.object({
  keyId: v.pipe(v.string("keyId must be text"), v.regex(/^[0-9a-f]{16}$/, "keyId must be 16 hex digits (the intake key's id)")),
  enc: v.pipe(v.string("enc must be text"), v.regex(/^[A-Za-z0-9_-]{43}$/, "enc must be 32 bytes in base64url")),
  ciphertext: v.pipe(
    v.string("ciphertext must be text"),
    v.regex(/^[A-Za-z0-9_-]+$/, "ciphertext must be base64url"),
    v.maxLength(SEALED_MAX_CIPHERTEXT, `ciphertext may be at most ${SEALED_MAX_CIPHERTEXT} characters`),
  ),
});

const sealedBody = v.object({
  rows: v.pipe(
    v.array(sealedRow, "rows must be an array of sealed rows {keyId, enc, ciphertext}"),
    v.minLength(1, "rows must hold at least one row"),
    v.maxLength(SEALED_MAX_ROWS, `rows may hold at most ${SEALED_MAX_ROWS} sealed rows per request`),
  ),
});

export const adminRoutes = new Hono<AppEnv>()
  // The bulk upload seals keys: refused up front without KEY_ENCRYPTION_SECRET, before anyone is asked to sign in.
  .use("/addresses/bulk", requireSecrets)
  // The intake key is derived from KEY_ENCRYPTION_SECRET, and sealed rows go into the vault.
  .use("/intake-key", requireSecrets)
  .use("/addresses/sealed", requireSecrets)
  .use("*", requireAdmin)
  .get("/addresses", validate("query", listQuery), async (c) => {
    const q = c.req.valid("query");
    const rates = await getUsdPrices(c.env);
    const result = await adminListings(c.var.db, { ...q, limit: Number(q.limit), offset: Number(q.offset), search: q.search || undefined }, rates);
    return c.json(result satisfies AdminListingsResponse);
  })
  .get("/addresses/export", validate("query", exportQuery), async (c) => {
    const q = c.req.valid("query");
    const rates = await getUsdPrices(c.env);
    const result = await adminExport(c.var.db, { ...q, search: q.search || undefined }, rates, ADMIN_EXPORT_CAP);
    return c.json(result satisfies AdminExportResponse);
  })
  .get("/stats", async (c) => c.json((await adminStats(c.var.db)) satisfies AdminStats))
  .post("/addresses/bulk", validate("json", bulkBody), async (c) => {
    const { rows, pricing, confirmNoPattern } = c.req.valid("json");
    const results = await importListings(c.var.db, c.env, c.var.session.userId, rows, { pricing, confirmNoPattern });
    const succeeded = results.filter((r) => r.status === "success").length;
    return c.json({ results, summary: { total: results.length, succeeded, failed: results.length - succeeded } } satisfies BulkUploadResponse);
  })
  .get("/intake-key", async (c) => c.json((await currentIntakeKey(c.env)) satisfies IntakeKeyResponse))
  .post("/addresses/sealed", validate("json", sealedBody), async (c) => {
    const { rows } = c.req.valid("json");
    const results = await importSealedRows(c.var.db, c.env, c.var.session.userId, rows);
    const succeeded = results.filter((r) => r.status === "success").length;
    return c.json({ results, summary: { total: results.length, succeeded, failed: results.length - succeeded } } satisfies BulkUploadResponse);
  })
  .post("/addresses/bulk/appraise", validate("json", v.object({ rows: bulkRows })), async (c) => {
    return c.json({ results: await appraiseRows(c.var.db, c.req.valid("json").rows) } satisfies BulkAppraisalResponse);
  })
  .put("/addresses/bulk-status", validate("json", v.object({ listingIds, status: activeOrInactive })), async (c) => {
    const { listingIds: ids, status } = c.req.valid("json");
    return c.json((await bulkSetStatus(c.var.db, ids, status)) satisfies BulkActionResponse);
  })
  .put("/addresses/bulk-featured", validate("json", v.object({ listingIds, isFeatured: featuredFlag })), async (c) => {
    const { listingIds: ids, isFeatured } = c.req.valid("json");
    return c.json((await bulkSetFeatured(c.var.db, ids, isFeatured, c.var.session.userId)) satisfies BulkActionResponse);
  })
  .delete("/addresses/bulk-delete", validate("json", v.object({ listingIds })), async (c) => {
    return c.json((await bulkDelete(c.var.db, c.req.valid("json").listingIds)) satisfies BulkActionResponse);
  })
  .put(
    "/addresses/:id",
    validId("listing"),
    validate("json", v.object({ status: v.optional(activeOrInactive), isFeatured: v.optional(featuredFlag) })),
    async (c) => {
      const fresh = await adminChangeListing(c.var.db, c.var.session, c.req.valid("param").id, c.req.valid("json"));
      return c.json(toAdminListing(fresh, await getUsdPrices(c.env)));
    },
  )
  .delete("/addresses/:id", validId("listing"), async (c) => {
    return c.json((await adminDeleteListing(c.var.db, c.var.session, c.req.valid("param").id)) satisfies BulkActionResponse);
  });
