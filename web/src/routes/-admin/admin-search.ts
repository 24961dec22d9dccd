// The admin panel's state lives in the URL like the marketplace's: the open tab, the listings
// search, network and status filters, the page and the page size, so a filtered view survives a reload and
// can be shared. Only values that differ from the defaults are kept; anything malformed is dropped.
import { ADMIN_NETWORK_FILTERS, ADMIN_PAGE_SIZES, ADMIN_STATUS_FILTERS } from "../../../../schema/listings";
import { MAX_SEARCH_LENGTH } from "../../../../schema/browse";

export const ADMIN_TABS = ["listings", "bulk", "payments", "orders", "supply", "offers", "analytics", "health", "settings"] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

export type AdminSearch = {
  tab?: Exclude<AdminTab, "listings">;
  q?: string;
  network?: Exclude<(typeof ADMIN_NETWORK_FILTERS)[number], "all">;
  status?: Exclude<(typeof ADMIN_STATUS_FILTERS)[number], "all">;
  page?: number;
  limit?: Exclude<(typeof ADMIN_PAGE_SIZES)[number], 20>;
};

/** The listings tab's effective state, defaults filled in. */
export type AdminListingsState = {
  tab: AdminTab;
  q: string;
  network: (typeof ADMIN_NETWORK_FILTERS)[number];
  status: (typeof ADMIN_STATUS_FILTERS)[number];
  page: number;
  limit: number;
};

function oneOf<T extends string | number>(value: unknown, options: readonly T[], fallback: T): T | undefined {
  const found = options.find((o) => String(o) === String(value));
  return found === undefined || found === fallback ? undefined : found;
}

export function parseAdminSearch(raw: Record<string, unknown>): AdminSearch {
  const q = typeof raw.q === "string" ? raw.q.trim().slice(0, MAX_SEARCH_LENGTH) : "";
  const page = typeof raw.page === "number" || (typeof raw.page === "string" && /^\d{1,6}$/.test(raw.page)) ? Number(raw.page) : NaN;
  const out: AdminSearch = {
    tab: oneOf(raw.tab, ADMIN_TABS, "listings") as AdminSearch["tab"],
    q: q || undefined,
    network: oneOf(raw.network, ADMIN_NETWORK_FILTERS, "all") as AdminSearch["network"],
    status: oneOf(raw.status, ADMIN_STATUS_FILTERS, "all") as AdminSearch["status"],
    page: Number.isSafeInteger(page) && page > 1 && page <= 100_000 ? page : undefined,
    limit: oneOf(raw.limit, ADMIN_PAGE_SIZES, 20) as AdminSearch["limit"],
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as AdminSearch;
}

export function adminState(s: AdminSearch): AdminListingsState {
  return { tab: s.tab ?? "listings", q: s.q ?? "", network: s.network ?? "all", status: s.status ?? "all", page: s.page ?? 1, limit: s.limit ?? 20 };
}

/** Applies a change; any change of search, filter or page size goes back to page 1. */
export function patchAdminSearch(prev: AdminSearch, patch: Partial<Record<keyof AdminSearch, unknown>>): AdminSearch {
  const next: Record<string, unknown> = { ...prev, ...patch };
  if (!("page" in patch) && ["q", "network", "status", "limit"].some((k) => k in patch)) delete next.page;
  return parseAdminSearch(next);
}
