import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { useDeferredValue, useEffect, useId, useRef, useState } from "react";
import { PAGE_SIZES, type SortField } from "../../../schema/browse";
import type { Network } from "../../../schema/db";
import { errorMessage } from "../api/error-message";
import { featuredQuery, searchQuery } from "../api/listings";
import { AddressChecker } from "../components/checker/AddressChecker";
import { FeaturedListings, FeaturedListingsSkeleton } from "../components/listing/FeaturedListings";
import { currentViewer, useViewer } from "../components/listing/use-viewer";
import { useDebounced } from "../components/use-debounced";
import { FiltersCard } from "./-marketplace/FiltersCard";
import { ListingTable } from "./-marketplace/ListingTable";
import { SaveSearch } from "./-marketplace/SaveSearch";
import {
  featuredNetwork,
  isFiltered,
  type MarketSearch,
  marketState,
  nextSort,
  type PageSize,
  parseMarketSearch,
  patchMarketSearch,
  rangeText,
  resetFilters,
  searchApiParams,
} from "../server-rendered/marketplace-search";
import { pageTitle } from "../server-rendered/page-title";

/** At most this many featured listings on the marketplace. */
const MARKETPLACE_FEATURED = 6;
/** The search box applies after this pause in typing. */
const SEARCH_PAUSE_MS = 300;

export const Route = createFileRoute("/marketplace")({
  head: () => pageTitle("Marketplace"),
  validateSearch: (raw: Record<string, unknown>): MarketSearch => parseMarketSearch(raw),
  // Starts the page's two reads as the route loads (or a link to it is hovered). A prerendered page then renders
  // once, with their answers in (main.tsx waits for the reads in flight), instead of first with its
  // placeholders and a spinner, then again with the rows.
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    const viewer = currentViewer();
    void queryClient.prefetchQuery(featuredQuery(viewer, featuredNetwork(deps)));
    void queryClient.prefetchQuery(searchQuery(searchApiParams(deps, viewer)));
  },
  component: MarketplacePage,
});

function MarketplacePage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const resultsRef = useRef<HTMLElement>(null);
  const viewer = useViewer();

  // Every change goes through the URL. Typing replaces the history entry instead of adding one per pause.
  const update = (patch: Partial<MarketSearch>, opts: { replace?: boolean } = {}) =>
    navigate({ search: (prev) => patchMarketSearch(prev, patch), replace: opts.replace ?? false, resetScroll: false });

  return (
    <>
      <section className="border-b border-slate-800 bg-gradient-to-b from-violet-950/40 to-transparent">
        {/* Tighter on a phone: the results' first rows stay on the first screen with Save search's second line. */}
        <div className="mx-auto max-w-6xl px-4 py-4 text-center sm:py-16">
          <h1 className="text-2xl font-extrabold tracking-tight sm:text-5xl">Premium Vanity Address Marketplace</h1>
          <p className="mx-auto mt-2 max-w-2xl text-sm text-slate-300 sm:mt-3 sm:text-base">
            Ethereum and Solana addresses with patterns worth keeping, each scored for how hard it is to generate.
          </p>
          <SearchBox value={search.search ?? ""} onCommit={(text, replace) => update({ search: text || undefined }, { replace })} />
        </div>
      </section>
      <div className="mx-auto max-w-6xl space-y-5 px-4 py-5 sm:space-y-8 sm:py-10">
        {/* While searching, the results come first: under the featured strip, typing changed nothing visible. */}
        {!search.search && <FeaturedStrip viewer={viewer} network={featuredNetwork(search)} />}
        <FiltersCard
          search={search}
          onChange={(patch) => update(patch)}
          onReset={() => navigate({ search: (prev) => resetFilters(prev), resetScroll: false })}
        />
        <Results
          ref={resultsRef}
          search={search}
          viewer={viewer}
          onPage={(page) => {
            update({ page });
            resultsRef.current?.scrollIntoView({ block: "start", behavior: "smooth" });
          }}
          onPageSize={(limit) => update({ limit })}
          onSort={(column) => update(nextSort(marketState(search), column))}
          onClampPage={(page) => update({ page }, { replace: true })}
        />
        <AddressChecker />
      </div>
    </>
  );
}

function SearchBox({ value, onCommit }: { value: string; onCommit: (text: string, replace: boolean) => void }) {
  const [draft, setDraft] = useState(value);
  const id = useId();
  // Follow the URL when it changes from elsewhere ("Clear search", back button).
  useEffect(() => setDraft((d) => (d.trim() === value ? d : value)), [value]);
  const settled = useDebounced(draft.trim(), SEARCH_PAUSE_MS);
  useEffect(() => {
    if (settled !== value && settled === draft.trim()) onCommit(settled, value !== "");
    // Only a settled change of text commits (onCommit is a fresh closure on every render).
  }, [settled]);
  return (
    <form
      role="search"
      className="mx-auto mt-5 max-w-2xl sm:mt-8"
      onSubmit={(e) => {
        e.preventDefault();
        if (draft.trim() !== value) onCommit(draft.trim(), false);
      }}
    >
      <label htmlFor={id} className="sr-only">
        Search addresses
      </label>
      <input
        id={id}
        type="search"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        placeholder="Search addresses..."
        maxLength={100}
        spellCheck={false}
        autoComplete="off"
        className="w-full rounded-xl border border-slate-700 bg-slate-950/80 px-4 py-3 font-mono text-base text-slate-100 placeholder:font-sans placeholder:text-slate-400 focus:border-violet-500 focus:outline-none"
      />
    </form>
  );
}

/**
 * Up to 6 featured listings, shown only when there are some (a failed read just leaves them out). While they
 * load, placeholders hold their space so the results below do not jump when they arrive.
 */
function FeaturedStrip({ viewer, network }: { viewer: string | null; network: Network | undefined }) {
  const featured = useQuery(featuredQuery(viewer, network));
  // The cards render in the background (React yields to the browser between them), not in the task that
  // takes the answer.
  const data = useDeferredValue(featured.data);
  const pending = featured.isPending || (data === undefined && !featured.isError);
  const listings = Array.isArray(data) ? data.slice(0, MARKETPLACE_FEATURED) : [];
  if (!pending && listings.length === 0) return null;
  return (
    <section aria-labelledby="marketplace-featured-title">
      <h2 id="marketplace-featured-title" className="mb-4 text-xl font-bold sm:text-2xl">
        Featured Addresses
      </h2>
      {pending ? (
        <FeaturedListingsSkeleton count={MARKETPLACE_FEATURED} label="Loading featured addresses" />
      ) : (
        <FeaturedListings listings={listings} label="Featured addresses" />
      )}
    </section>
  );
}

type ResultsProps = {
  ref: React.Ref<HTMLElement>;
  search: MarketSearch;
  viewer: string | null;
  onPage: (page: number) => void;
  onPageSize: (limit: PageSize) => void;
  onSort: (column: SortField) => void;
  onClampPage: (page: number) => void;
};

function Results({ ref, search, viewer, onPage, onPageSize, onSort, onClampPage }: ResultsProps) {
  const st = marketState(search);
  const results = useQuery({ ...searchQuery(searchApiParams(search, viewer)), placeholderData: keepPreviousData });
  const sizeId = useId();
  // A page of rows renders in the background (React yields to the browser between rows); until it has, the
  // loading state stays.
  const data = useDeferredValue(results.data);
  const rendering = data !== results.data;
  const fresh = data && !rendering && !results.isPlaceholderData;

  // A page past the end (an old link, a listing sold meanwhile) moves to the last page there is.
  const totalPages = fresh ? data.pagination.totalPages : 0;
  useEffect(() => {
    if (fresh && totalPages > 0 && st.page > totalPages) onClampPage(totalPages);
  }, [fresh, totalPages, st.page]);

  return (
    // Until the first page arrives the section keeps roughly a page's height, so the footer does not jump.
    <section
      ref={ref}
      aria-labelledby="results-title"
      className={`scroll-mt-20 rounded-2xl border border-slate-800 bg-slate-900/60 ${data ? "" : "min-h-[40rem]"}`}
      aria-busy={results.isFetching || rendering}
    >
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-800 p-4">
        <h2 id="results-title" className="order-1 text-lg font-bold">
          Addresses
        </h2>
        <p className="order-3 text-sm text-slate-400" aria-live="polite" data-testid="results-range">
          {/* Old rows stay on screen (dimmed) while the next ones load; their range would not match the new page. */}
          {fresh && rangeText(data.pagination, st.page, st.limit, data.addresses.length)}
          {fresh && isFiltered(search) && <span className="text-violet-300"> (filtered results)</span>}
        </p>
        <div className="order-3 ml-auto flex items-center gap-2">
          <label htmlFor={sizeId} className="text-sm text-slate-400">
            Show
          </label>
          <select
            id={sizeId}
            value={st.limit}
            onChange={(e) => onPageSize(Number(e.target.value) as PageSize)}
            className="rounded-lg border border-slate-700 bg-slate-950 px-2 py-1 text-sm text-slate-100 focus:border-violet-500 focus:outline-none"
          >
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <SaveSearch search={search} />
      </div>

      {/* Over the previous rows rather than above them, so a new page or filter does not push the table down. */}
      {(results.isFetching || rendering) && (
        <div className="relative">
          <div
            role="status"
            className={`flex items-center justify-center gap-3 py-6 text-slate-300 ${data ? "absolute inset-x-0 top-0 z-10 bg-slate-900/80" : ""}`}
            data-testid="results-loading"
          >
            <span aria-hidden className="h-5 w-5 animate-spin rounded-full border-2 border-violet-400 border-t-transparent" />
            Loading marketplace...
          </div>
        </div>
      )}

      {results.isError && !results.isFetching && (
        <p role="alert" className="p-6 text-center text-red-300">
          The listings could not be loaded: {errorMessage(results.error)}
        </p>
      )}

      {data && !results.isError && data.addresses.length === 0 && !results.isFetching && (
        <div className="px-4 py-14 text-center" data-testid="results-empty">
          <p className="text-slate-300">No addresses found matching your criteria.</p>
          {search.search && (
            <Link
              from="/marketplace"
              to="/marketplace"
              search={(prev) => patchMarketSearch(prev, { search: undefined })}
              resetScroll={false}
              className="mt-3 inline-block rounded font-semibold text-violet-300 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-violet-400"
            >
              Clear search
            </Link>
          )}
        </div>
      )}

      {data && !results.isError && data.addresses.length > 0 && (
        <ListingTable listings={data.addresses} sortBy={st.sortBy} sortOrder={st.sortOrder} onSort={onSort} busy={results.isPlaceholderData} />
      )}

      {data && !results.isError && data.pagination.totalPages > 1 && (
        <nav aria-label="Pagination" className="flex items-center justify-between gap-3 border-t border-slate-800 p-4 text-sm">
          <PageButton disabled={!data.pagination.hasPrevPage || results.isPlaceholderData} onClick={() => onPage(st.page - 1)}>
            Previous
          </PageButton>
          <span className="text-slate-300" data-testid="page-indicator">
            Page {data.pagination.page} of {data.pagination.totalPages}
          </span>
          <PageButton disabled={!data.pagination.hasNextPage || results.isPlaceholderData} onClick={() => onPage(st.page + 1)}>
            Next
          </PageButton>
        </nav>
      )}
    </section>
  );
}

function PageButton({ disabled, onClick, children }: { disabled: boolean; onClick: () => void; children: React.ReactNode }) {
  return (
    <button
      type="button"
      disabled={disabled}
      onClick={onClick}
      className="rounded-lg border border-slate-700 px-4 py-1.5 font-semibold text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-not-allowed disabled:opacity-40"
    >
      {children}
    </button>
  );
}
