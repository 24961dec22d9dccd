// GET /api/addresses/{id}/context: the listing page's explanation of a purchase (schema/listing-context.ts).
// Public like GET /api/addresses/{id}, with the same visibility: a deleted listing is 404 for all but its owner.
import { Hono } from "hono";
import { COMPARABLES_LIMIT, type ListingContext, PRICE_HISTORY_LIMIT, RECENT_SALES_LIMIT } from "../../schema/listing-context";
import { getUsdPrices } from "../prices/price-feed";
import { formatUsd, usdValue } from "../domain/prices";
import { difficultyFromLog2, estimateValue, expectedTimeSeconds, REFERENCE_RATES } from "../domain/rarity";
import { ApiError } from "../http/errors";
import { LISTING_ID_MESSAGE, listingIdParam } from "../http/params";
import { validate } from "../http/validate";
import { comparableListings, difficultyLog2Of, priceHistoryOf, recentSalesLike } from "../listings/context";
import { toListingView } from "../listings/listing-view";
import { listingById } from "../listings/listings";
import { hiddenOrderListing } from "../orders/order-listing";
import type { AppEnv } from "../types";
import { valueMultiplier } from "../listings/address-check";
import { sessionUserId } from "./addresses";

export const listingContextRoutes = new Hono<AppEnv>()
  .get("/:id{[0-9]+}/context", validate("param", listingIdParam), async (c) => {
    const { id } = c.req.valid("param");
    const db = c.var.db;
    const [rates, row] = await Promise.all([getUsdPrices(c.env), listingById(db, id)]);
    const viewer = sessionUserId(c);
    if (!row || (row.status === "deleted" && !(viewer !== null && row.seller_id === viewer))) throw new ApiError(404, "Address not found");
    if (await hiddenOrderListing(db, id, c.var.session)) throw new ApiError(404, "Address not found");

    const kind = { id: row.id, network: row.network, category: row.category, patternLength: row.pattern_length, rarityScore: row.rarity_score };
    const [log2, history, comparables, sales, multiplier] = await Promise.all([
      difficultyLog2Of(db, id),
      priceHistoryOf(db, id, PRICE_HISTORY_LIMIT),
      comparableListings(db, kind, COMPARABLES_LIMIT),
      recentSalesLike(db, kind, RECENT_SALES_LIMIT),
      valueMultiplier(db, row.network),
    ]);
    const difficulty = difficultyFromLog2(log2);
    const reference = REFERENCE_RATES[row.network];
    const estimate = estimateValue(log2, row.network, multiplier);
    const body: ListingContext = {
      listingId: row.id,
      difficulty: {
        log2,
        attempts: difficulty.attempts,
        hexCharacters: log2 / 4,
        cpuCoreSeconds: expectedTimeSeconds(difficulty.attempts, reference.cpuCore),
        gpuSeconds: expectedTimeSeconds(difficulty.attempts, reference.gpu),
        referenceRates: { cpuCore: reference.cpuCore, gpu: reference.gpu },
      },
      estimatedValue: { amount: estimate, currency: row.currency, usd: usdValue(estimate, row.currency, rates), formattedUsd: formatUsd(estimate, row.currency, rates) },
      priceHistory: history.map((h) => ({
        price: h.price,
        currency: h.currency,
        usd: usdValue(h.price, h.currency, rates),
        changeType: h.change_type,
        at: new Date(h.created_at).toISOString(),
      })),
      comparables: comparables.map((r) => toListingView(r, rates, viewer)),
      recentSales: sales.map((s) => ({
        listingId: s.listing_id,
        address: s.address,
        network: s.network,
        price: s.price,
        currency: s.currency,
        formattedUsd: formatUsd(s.price, s.currency, rates),
        soldAt: new Date(s.sold_at).toISOString(),
      })),
      ownershipProvedAt: new Date(row.created_at).toISOString(),
    };
    return c.json(body);
  })
  .get("/:id/context", () => {
    throw new ApiError(400, `id: ${LISTING_ID_MESSAGE}`);
  });
