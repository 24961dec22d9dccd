import { useQuery } from "@tanstack/react-query";
import { FALLBACK_USD_RATES, type UsdRates } from "../../../schema/prices";
import { livePricesQuery } from "../api/market";

/**
 * The one USD rate source of every price on every page: the rates GET /api/prices/live answers (the
 * live feed, or the server's fallback table), and until it answers (or if it fails) that same fallback table.
 */
export function useUsdRates(): UsdRates {
  const prices = useQuery(livePricesQuery());
  return prices.data ? { ethPrice: prices.data.ethPrice, solPrice: prices.data.solPrice } : FALLBACK_USD_RATES;
}
