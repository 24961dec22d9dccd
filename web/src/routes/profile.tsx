import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";
import { ConnectWalletButton } from "../components/ConnectWalletButton";
import { NetworkBadge } from "../components/NetworkBadge";
import { AdminSections } from "../components/profile/AdminSections";
import { MyPurchases } from "../components/profile/MyPurchases";
import { MyOffers } from "../components/profile/MyOffers";
import { MyOrders } from "../components/profile/MyOrders";
import { SavedSearches } from "../components/profile/SavedSearches";
import { Watchlist } from "../components/profile/Watchlist";
import { useCopy } from "../components/use-copy";
import { formatDay } from "../lib/date-format";
import { shortAddress } from "../lib/short-address";
import { safeReturnPath } from "../lib/return-path";
import { useAdminStatus } from "../wallet/use-admin-status";
import { useWallet } from "../wallet/use-wallet";
import { pageTitle } from "../server-rendered/page-title";

/**
 * `returnTo`: where a wallet-less visitor came from: the listing of a Buy click (its id), or the page
 * of a star or a saved search (a path). Once the wallet is connected they go back there instead of staying here.
 * Only a listing or one of the app's own pages is accepted (lib/return-path.ts), so the parameter cannot send
 * anyone elsewhere.
 */
type ProfileSearch = { returnTo?: number | string };

export const Route = createFileRoute("/profile")({
  head: () => pageTitle("Profile"),
  validateSearch: (raw: Record<string, unknown>): ProfileSearch => {
    const id = Number(raw.returnTo);
    if (Number.isSafeInteger(id) && id > 0) return { returnTo: id };
    return safeReturnPath(raw.returnTo) ? { returnTo: raw.returnTo as string } : {};
  },
  component: ProfilePage,
});

/** How long the copy button says "Copied". */

function ProfilePage() {
  const wallet = useWallet();
  const { returnTo } = Route.useSearch();
  const navigate = useNavigate();
  const connected = wallet.isConnected && Boolean(wallet.address);
  const back = safeReturnPath(returnTo);
  useEffect(() => {
    if (connected && back) void navigate({ href: back, replace: true });
  }, [connected, back, navigate]);
  if (!wallet.isConnected || !wallet.address) return <ConnectPrompt returning={back} />;
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <ProfileHeader address={wallet.address} createdAt={wallet.user?.createdAt ?? null} onDisconnect={() => void wallet.disconnect()} />
      <ProfileBody address={wallet.address} />
      {wallet.network === "ethereum" && <MyOrders wallet={wallet.address} />}
      <MyOffers wallet={wallet.address} />
      <Watchlist wallet={wallet.address} />
      <SavedSearches wallet={wallet.address} />
      <TermsNotice />
    </div>
  );
}

/** Admins see My Listings and Transaction History, buyers My Purchases. */
function ProfileBody({ address }: { address: string }) {
  const { isAdmin } = useAdminStatus(address);
  return isAdmin ? <AdminSections wallet={address} /> : <MyPurchases wallet={address} />;
}

function ConnectPrompt({ returning }: { returning: string | null }) {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-white">Connect Your Wallet</h1>
      <p className="mt-3 text-slate-400">
        {returning?.startsWith("/address/")
          ? "Connect your wallet to go on: you go back to the listing as soon as it is connected."
          : returning
            ? "Connect your wallet to go on: you go back to the page you came from as soon as it is connected."
            : "Connect your wallet to see your profile, your purchases, your watchlist and the private keys you bought."}
      </p>
      <div className="mt-6 flex justify-center">
        <ConnectWalletButton />
      </div>
      <TermsNotice />
    </section>
  );
}

function ProfileHeader({ address, createdAt, onDisconnect }: { address: string; createdAt: string | null; onDisconnect: () => void }) {
  const { isAdmin } = useAdminStatus(address);
  const { copied, copy } = useCopy(address, "Wallet address");
  const network = address.startsWith("0x") ? "ethereum" : "solana";
  const avatar = (network === "ethereum" ? address.slice(2, 4) : address.slice(0, 2)).toUpperCase();
  // "Member since" is when the users row was created; the spec's fallback is the current month.
  const since = formatDay(createdAt ?? Date.now());

  return (
    <section className="flex flex-col gap-6 rounded-2xl border border-slate-800 bg-slate-900/60 p-6 sm:flex-row sm:items-center">
      <div
        aria-hidden
        className="flex h-20 w-20 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-violet-600 to-indigo-700 font-mono text-2xl font-bold text-white"
        data-testid="profile-avatar"
      >
        {avatar}
      </div>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="font-mono text-2xl font-bold text-white" title={address}>
            {shortAddress(address)}
          </h1>
          <NetworkBadge network={network} />
          {isAdmin && (
            <span className="inline-flex items-center gap-1 rounded-full bg-amber-500/15 px-2 py-0.5 text-xs font-semibold text-amber-300">
              ✓ Verified Admin
            </span>
          )}
        </div>
        <p className="mt-1 text-sm text-slate-400">Member since {since}</p>
        <p className="mt-2 font-mono text-xs break-all text-slate-400">{address}</p>
      </div>
      <div className="flex gap-2">
        {/* The visible words are the accessible name (WCAG 2.5.3); no aria-label that says something else. */}
        <button
          type="button"
          onClick={() => void copy()}
          className="rounded-lg border border-slate-700 px-3 py-1.5 text-sm hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400"
        >
          {copied ? "Copied" : "Copy address"}
        </button>
        <button
          type="button"
          onClick={onDisconnect}
          className="rounded-lg border border-slate-700 px-3 py-1.5 text-sm text-slate-300 hover:border-red-500 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400"
        >
          Disconnect
        </button>
      </div>
    </section>
  );
}

function TermsNotice() {
  return (
    <p className="mt-10 text-center text-sm text-slate-400">
      Purchased keys are for collecting and small amounts. Read the{" "}
      <Link to="/terms-of-service" className="text-violet-300 underline underline-offset-2 hover:text-violet-200">
        Terms of Service
      </Link>{" "}
      before you buy, import or destroy a key.
    </p>
  );
}
