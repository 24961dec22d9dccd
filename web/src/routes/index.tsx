import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { type ReactNode, useDeferredValue } from "react";
import { featuredQuery } from "../api/listings";
import { marketStatsQuery, recentTransactionsQuery } from "../api/market";
import { AddressChecker } from "../components/checker/AddressChecker";
import { FeaturedListings, FeaturedListingsSkeleton } from "../components/listing/FeaturedListings";
import { currentViewer, useViewer } from "../components/listing/use-viewer";
import { TransactionsTable } from "../components/transactions/TransactionsTable";
import { pageTitle } from "../server-rendered/page-title";
import { formatCount, formatNumber } from "../lib/number-format";

/** Loading placeholders in the Featured Addresses grid. */
const FEATURED_PLACEHOLDERS = 6;

export const Route = createFileRoute("/")({
  head: () => pageTitle(),
  // Start the home page's reads while the route loads (and on hover of a link to it); the page shows its own
  // placeholders, so nothing here waits. All three: a prerendered page renders once they have answered
  // (main.tsx), so one left to the component would render the page a second time when it answers.
  loader: ({ context: { queryClient } }) => {
    const viewer = currentViewer();
    void queryClient.prefetchQuery(marketStatsQuery());
    void queryClient.prefetchQuery(featuredQuery(viewer));
    void queryClient.prefetchQuery(recentTransactionsQuery(viewer));
  },
  component: HomePage,
});

function HomePage() {
  return (
    <>
      <Hero />
      <div className="mx-auto max-w-6xl space-y-10 px-4 py-6 sm:space-y-14 sm:py-10">
        <FeaturedSection />
        <RecentTransactionsSection />
        <AddressChecker />
      </div>
    </>
  );
}

function Hero() {
  const stats = useQuery(marketStatsQuery());
  return (
    <section className="border-b border-slate-800 bg-gradient-to-b from-violet-950/40 to-transparent">
      <div className="mx-auto max-w-6xl px-4 py-8 text-center sm:py-24">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-6xl">Vanity Addresses</h1>
        <p className="mx-auto mt-3 max-w-2xl text-base text-slate-300 sm:mt-4 sm:text-lg">
          From memorable patterns to custom words - find your perfect crypto identity.
        </p>
        {/* The stats appear only once loaded; placeholders of the same size keep the space so the page does not jump. */}
        <div className="mx-auto mt-6 max-w-4xl sm:mt-10">
          {stats.data ? (
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 sm:gap-4" data-testid="market-stats">
              <Stat label="Addresses Listed">{formatCount(stats.data.totalAddresses)}</Stat>
              <Stat label="Volume Traded in ETH">{formatNumber(stats.data.totalVolume)}</Stat>
              <Stat label="Active Users">{formatCount(stats.data.activeUsers)}</Stat>
              <Stat label="Avg. Price in ETH">{formatNumber(stats.data.avgPrice)}</Stat>
            </dl>
          ) : (
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 sm:gap-4" aria-hidden>
              {Array.from({ length: 4 }, (_, i) => (
                <div key={i} className={STAT_BOX}>
                  <div className="mx-auto h-8 w-20 rounded bg-slate-800" />
                  <div className="mx-auto mt-1 h-8 w-24 rounded bg-slate-800 sm:h-4" />
                </div>
              ))}
            </div>
          )}
        </div>
      </div>
    </section>
  );
}

const STAT_BOX = "rounded-xl border border-slate-800 bg-slate-900/60 px-3 py-3 sm:py-4";

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={`flex flex-col-reverse ${STAT_BOX}`}>
      <dt className="mt-1 flex min-h-8 items-center justify-center text-xs leading-4 tracking-wide text-slate-400 uppercase sm:min-h-4">{label}</dt>
      <dd className="h-8 truncate text-xl leading-8 font-bold text-white tabular-nums sm:text-2xl">{children}</dd>
    </div>
  );
}

function SectionHeader({ id, title, children }: { id: string; title: string; children?: ReactNode }) {
  return (
    <div className="mb-5 flex items-end justify-between gap-4">
      <h2 id={id} className="text-2xl font-bold">
        {title}
      </h2>
      {children}
    </div>
  );
}

/** "View All": the featured section's to the marketplace, Recent Transactions' to the sales activity page. */
function ViewAll({ to = "/marketplace" }: { to?: "/marketplace" | "/activity" }) {
  return (
    <Link to={to} className="rounded text-sm font-semibold text-violet-300 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-violet-400">
      View All <span aria-hidden>→</span>
    </Link>
  );
}

function FeaturedSection() {
  const featured = useQuery(featuredQuery(useViewer()));
  // The cards render in the background (React yields to the browser between them) rather than in the task that
  // takes the answer: on a slow phone that task would otherwise block input for a few hundred ms.
  const listings = useDeferredValue(featured.data);
  return (
    <section aria-labelledby="featured-title">
      <SectionHeader id="featured-title" title="Featured Addresses">
        <ViewAll />
      </SectionHeader>
      {featured.isError ? (
        <p role="alert" className="rounded-xl border border-red-800/60 bg-red-950/30 p-4 text-sm text-red-200">
          Featured addresses could not be loaded: {featured.error.message}
        </p>
      ) : listings === undefined ? (
        <FeaturedListingsSkeleton count={FEATURED_PLACEHOLDERS} label="Loading featured addresses" />
      ) : listings.length === 0 ? (
        <p className="rounded-xl border border-slate-800 bg-slate-900/60 p-8 text-center text-slate-400">No featured addresses available at the moment.</p>
      ) : (
        <FeaturedListings listings={listings} label="Featured addresses" />
      )}
    </section>
  );
}

function RecentTransactionsSection() {
  const recent = useQuery(recentTransactionsQuery(useViewer()));
  // In the background, like the featured cards.
  const transactions = useDeferredValue(recent.data);
  return (
    // Below the fold: laid out and painted only when it comes near the screen (see AddressChecker).
    <section aria-labelledby="recent-title" className="[contain-intrinsic-size:auto_640px] [content-visibility:auto]">
      <SectionHeader id="recent-title" title="Recent Transactions">
        <ViewAll to="/activity" />
      </SectionHeader>
      {recent.isError ? (
        <p role="alert" className="rounded-xl border border-red-800/60 bg-red-950/30 p-4 text-sm text-red-200">
          Recent transactions could not be loaded: {recent.error.message}
        </p>
      ) : (
        // Completed sales only, naming neither buyer nor seller (docs/public-surface.md#what-a-public-sale-shows; worker/purchases/transaction-list.ts).
        <TransactionsTable transactions={transactions} isLoading={transactions === undefined} />
      )}
    </section>
  );
}
