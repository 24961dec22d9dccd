// USD rates, shared by the Worker and the web app (one USD rate source). Every USD figure on every
// page is a coin amount times the rate GET /api/prices/live answers (the live feed, or these fallback rates when
// no feed is configured or it stopped answering); a page that has not heard from the API yet uses the same
// fallback. Display only: nothing is paid from a USD figure.

export type UsdRates = { ethPrice: number; solPrice: number };

/** The specification's rates used when no live price is known. The only fallback table. */
export const FALLBACK_USD_RATES: UsdRates = { ethPrice: 3796, solPrice: 184 };

export const usdRate = (rates: UsdRates, currency: string): number => (currency === "ETH" ? rates.ethPrice : rates.solPrice);

/** USD value of a decimal amount of `currency`, rounded to cents. */
export function usdValue(amount: string | number, currency: string, rates: UsdRates): number {
  const n = Number(amount);
  if (!Number.isFinite(n)) return 0;
  return Math.round(n * usdRate(rates, currency) * 100) / 100;
}

/** A positive amount worth less than half a cent reads "<$0.01" rather than a misleading "$0.00". */
export function belowOneCent(amount: string | number, currency: string, rates: UsdRates): boolean {
  const raw = Number(amount) * usdRate(rates, currency);
  return Number.isFinite(raw) && raw > 0 && raw < 0.005;
}
