// A visitor who chooses "Save search" is sent to connect a wallet first. The search they asked to save is kept
// here (sessionStorage: this tab only, gone with it) so that when they come back signed in to the same search it
// is saved then, once, rather than leaving them to find the button again. A pending save is dropped when taken,
// when they come back to other filters, or after PENDING_SEARCH_MS.
import type { SavedFilters } from "../../../../schema/collectors";

const PENDING_KEY = "pendingSavedSearch";
/** Connecting takes a minute at most; a pending save older than this is not what the visitor is doing now. */
export const PENDING_SEARCH_MS = 15 * 60_000;

type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** The same filters give the same key whatever order their fields were set in. */
function keyOf(filters: SavedFilters): string {
  return JSON.stringify(Object.entries(filters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function rememberPendingSearch(store: Store, filters: SavedFilters, now: number) {
  try {
    store.setItem(PENDING_KEY, JSON.stringify({ key: keyOf(filters), at: now }));
  } catch {
    /* private mode or storage full: they choose Save search again once back */
  }
}

/** Whether a save of exactly these filters is pending (and recent); a pending save is removed either way. */
export function takePendingSearch(store: Store, filters: SavedFilters, now: number): boolean {
  try {
    const raw = store.getItem(PENDING_KEY);
    if (raw === null) return false;
    store.removeItem(PENDING_KEY);
    const pending: unknown = JSON.parse(raw);
    if (typeof pending !== "object" || pending === null) return false;
    const { key, at } = pending as { key?: unknown; at?: unknown };
    return key === keyOf(filters) && typeof at === "number" && now - at >= 0 && now - at < PENDING_SEARCH_MS;
  } catch {
    return false;
  }
}
