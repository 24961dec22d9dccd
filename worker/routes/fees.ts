// POST /api/transactions/calculate-fees {price, currency, membershipTier} -> the fee breakdown the listing
// form and the listing page preview.
// Mounted from routes/transactions.ts.
import { Hono } from "hono";
import * as v from "valibot";
import type { Network } from "../../schema/db";
import type { FeeBreakdown } from "../../schema/listings";
import { checkPrice, unitsToDecimal } from "../../schema/money";
import { ApiError } from "../http/errors";
import { validate } from "../http/validate";
import { quoteFees } from "../purchases/fee-quote";
import type { AppEnv } from "../types";

const body = v.object({
  // Checked by checkPrice, so the messages are the listing form's.
  price: v.optional(v.unknown()),
  currency: v.picklist(["ETH", "SOL"], "currency must be ETH or SOL"),
  membershipTier: v.optional(
    v.pipe(v.string("membershipTier must be a string"), v.trim(), v.minLength(1), v.maxLength(32, "membershipTier is too long")),
    "basic",
  ),
});

export const feeRoutes = new Hono<AppEnv>().post("/calculate-fees", validate("json", body), async (c) => {
  const input = c.req.valid("json");
  const price = checkPrice(input.price);
  if (!price.ok) throw new ApiError(400, price.message);
  const network: Network = input.currency === "ETH" ? "ethereum" : "solana";
  const units = await quoteFees(c.var.db, c.var.deployment.ethereum, network, price.units, input.membershipTier);
  return c.json({
    listingPrice: unitsToDecimal(units.listingPrice),
    gasFee: unitsToDecimal(units.gasFee),
    exchangeFee: unitsToDecimal(units.exchangeFee),
    commissionFee: unitsToDecimal(units.commissionFee),
    totalAmount: unitsToDecimal(units.totalAmount),
    currency: input.currency,
    network,
    gasSource: units.gas.source,
  } satisfies FeeBreakdown);
});
