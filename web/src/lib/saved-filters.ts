// A saved search's filters in words ("Starts with dead · Ethereum · 6+ characters") and as the marketplace URL's
// search, for Profile > Saved searches and the marketplace's Save search form.
import type { SavedFilters } from "../../../schema/collectors";
import { categoryWords } from "./category-words";

const SORT_WORDS: Record<string, string> = { rarity: "rarity", price: "price", createdAt: "newest" };

export function describeFilters(f: SavedFilters): string {
  const parts: string[] = [];
  if (f.patternValue) {
    const mode = f.patternFilter === "prefix" ? "Starts with" : f.patternFilter === "suffix" ? "Ends with" : "Starts or ends with";
    parts.push(`${mode} ${f.patternValue}`);
  }
  if (f.search) parts.push(`Contains ${f.search}`);
  if (f.network && f.network !== "all") parts.push(f.network === "ethereum" ? "Ethereum" : "Solana");
  if (f.category && f.category !== "all") parts.push(categoryWords(f.category));
  if (f.minCharLength && f.maxCharLength) parts.push(`${f.minCharLength}–${f.maxCharLength} characters`);
  else if (f.minCharLength) parts.push(`${f.minCharLength}+ characters`);
  else if (f.maxCharLength) parts.push(`up to ${f.maxCharLength} characters`);
  if (f.excludeSold === "false") parts.push("sold ones too");
  if (parts.length === 0) parts.push("Every listing");
  if (f.sortBy) parts.push(`by ${SORT_WORDS[f.sortBy] ?? f.sortBy}${f.sortOrder === "asc" ? ", ascending" : ""}`);
  return parts.join(" · ");
}

/** The marketplace's URL search for these filters (the route's validateSearch reads it). */
export const marketplaceSearch = (f: SavedFilters): Record<string, string> =>
  Object.fromEntries(Object.entries(f).filter(([, value]) => typeof value === "string" && value !== "")) as Record<string, string>;
