// /create-listing: admins only, a toggle between the
// single form and the bulk upload (loaded on demand, with its CSV parser).
import { createFileRoute, Link } from "@tanstack/react-router";
import { lazy, Suspense, useState } from "react";
import { ConnectWalletButton } from "../components/ConnectWalletButton";
import { Spinner } from "../components/Spinner";
import { useAdminGate } from "../components/use-admin-gate";
import { shortAddress } from "../lib/short-address";
import { SingleListingForm } from "./-create-listing/SingleListingForm";
import { pageTitle } from "../server-rendered/page-title";

const BulkUpload = lazy(() => import("../components/bulk-upload/BulkUpload").then((m) => ({ default: m.BulkUpload })));

export const Route = createFileRoute("/create-listing")({
  head: () => pageTitle("Create Listing"),
  component: CreateListingPage,
});

function CreateListingPage() {
  const { gate, address } = useAdminGate();
  const [mode, setMode] = useState<"single" | "bulk">("single");

  if (gate === "loading") return <Spinner label="Checking admin access…" />;
  if (gate === "disconnected" || !address) {
    return (
      <section className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold text-white">Connect Your Wallet</h1>
        <p className="mt-3 text-slate-400">Please connect your wallet to create a listing.</p>
        <div className="mt-6 flex justify-center">
          <ConnectWalletButton />
        </div>
      </section>
    );
  }
  if (gate === "not-admin") {
    return (
      <section className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold text-white">Admin Access Required</h1>
        <p className="mt-3 text-slate-400">Only admin wallets can create new listings.</p>
        <p className="mt-2 text-sm text-slate-400">
          The connected wallet <span className="font-mono text-slate-300">{shortAddress(address)}</span> does not have admin privileges.
        </p>
        <Link to="/marketplace" className="mt-6 inline-block rounded-lg bg-violet-600 px-4 py-2 text-sm font-semibold text-white hover:bg-violet-500">
          Browse the Marketplace
        </Link>
      </section>
    );
  }

  const tab = (value: "single" | "bulk", text: string) => (
    <button
      type="button"
      aria-pressed={mode === value}
      onClick={() => setMode(value)}
      className={`rounded-lg px-4 py-2 text-sm font-medium ${mode === value ? "bg-violet-600 text-white" : "text-slate-300 hover:text-white"}`}
    >
      {text}
    </button>
  );

  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold text-white">Create Listing</h1>
      <p className="mt-2 text-slate-400">List a vanity address for sale. The private key is verified, encrypted and released only to the buyer.</p>
      <div className="mt-6 inline-flex gap-1 rounded-xl border border-slate-800 bg-slate-900/60 p-1" role="group" aria-label="Upload mode">
        {tab("single", "Single Upload")}
        {tab("bulk", "Bulk Upload")}
      </div>
      <div className="mt-6">
        {mode === "single" ? (
          <SingleListingForm isAdmin />
        ) : (
          <Suspense fallback={<Spinner label="Loading bulk upload…" />}>
            <BulkUpload />
          </Suspense>
        )}
      </div>
    </div>
  );
}
