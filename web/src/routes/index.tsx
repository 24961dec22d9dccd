import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { featuredQuery } from "../api/listings";
import { marketStatsQuery, recentTransactionsQuery } from "../api/market";
import { AddressChecker } from "../components/checker/AddressChecker";
import { ListingCard, ListingCardSkeleton } from "../components/listing/ListingCard";
import { currentViewer, useViewer } from "../components/listing/use-viewer";
import { TransactionsTable } from "../components/transactions/TransactionsTable";
import { formatNumber } from "../lib/display";

/** Loading placeholders in the Featured Addresses grid (public-side.md §9). */
const FEATURED_PLACEHOLDERS = 6;

export const Route = createFileRoute("/")({
  // Start the home page's reads while the route loads (and on hover of a link to it); the page shows its own
  // placeholders, so nothing here waits.
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(marketStatsQuery());
    void queryClient.prefetchQuery(recentTransactionsQuery(currentViewer()));
  },
  component: HomePage,
});

function HomePage() {
  return (
    <>
      <Hero />
      <div className="mx-auto max-w-6xl space-y-14 px-4 py-10">
        <FeaturedSection />
        <RecentTransactionsSection />
        <AddressChecker />
      </div>
    </>
  );
}

const integer = new Intl.NumberFormat("en-US");

function Hero() {
  const stats = useQuery(marketStatsQuery());
  return (
    <section className="border-b border-slate-800 bg-gradient-to-b from-violet-950/40 to-transparent">
      <div className="mx-auto max-w-6xl px-4 py-16 text-center sm:py-24">
        <h1 className="text-4xl font-extrabold tracking-tight sm:text-6xl">Vanity Addresses</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-300">From memorable patterns to custom words - find your perfect crypto identity.</p>
        {/* The stats appear only once loaded; the space is kept so the page does not jump. */}
        <div className="mx-auto mt-10 min-h-[5.5rem] max-w-4xl">
          {stats.data && (
            <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid="market-stats">
              <Stat label="Addresses Listed">{integer.format(stats.data.totalAddresses)}</Stat>
              <Stat label="Volume Traded in ETH">{formatNumber(stats.data.totalVolume)}</Stat>
              <Stat label="Active Users">{integer.format(stats.data.activeUsers)}</Stat>
              <Stat label="Avg. Price in ETH">{formatNumber(stats.data.avgPrice)}</Stat>
            </dl>
          )}
        </div>
      </div>
    </section>
  );
}

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col-reverse rounded-xl border border-slate-800 bg-slate-900/60 px-3 py-4">
      <dt className="mt-1 text-xs tracking-wide text-slate-400 uppercase">{label}</dt>
      <dd className="text-2xl font-bold text-white tabular-nums">{children}</dd>
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

function ViewAll() {
  return (
    <Link to="/marketplace" className="rounded text-sm font-semibold text-violet-300 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-violet-400">
      View All <span aria-hidden>→</span>
    </Link>
  );
}

function FeaturedSection() {
  const featured = useQuery(featuredQuery(useViewer()));
  return (
    <section aria-labelledby="featured-title">
      <SectionHeader id="featured-title" title="Featured Addresses">
        <ViewAll />
      </SectionHeader>
      {featured.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true">
          <span className="sr-only">Loading featured addresses</span>
          {Array.from({ length: FEATURED_PLACEHOLDERS }, (_, i) => (
            <ListingCardSkeleton key={i} />
          ))}
        </div>
      ) : featured.isError ? (
        <p role="alert" className="rounded-xl border border-red-800/60 bg-red-950/30 p-4 text-sm text-red-200">
          Featured addresses could not be loaded: {featured.error.message}
        </p>
      ) : featured.data.length === 0 ? (
        <p className="rounded-xl border border-slate-800 bg-slate-900/60 p-8 text-center text-slate-400">No featured addresses available at the moment.</p>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {featured.data.map((listing) => (
            <ListingCard key={listing.id} listing={listing} />
          ))}
        </div>
      )}
    </section>
  );
}

function RecentTransactionsSection() {
  const recent = useQuery(recentTransactionsQuery(useViewer()));
  return (
    <section aria-labelledby="recent-title">
      <SectionHeader id="recent-title" title="Recent Transactions">
        <ViewAll />
      </SectionHeader>
      {recent.isError ? (
        <p role="alert" className="rounded-xl border border-red-800/60 bg-red-950/30 p-4 text-sm text-red-200">
          Recent transactions could not be loaded: {recent.error.message}
        </p>
      ) : (
        <TransactionsTable transactions={recent.data} isLoading={recent.isPending} showBuyer showSeller />
      )}
    </section>
  );
}
