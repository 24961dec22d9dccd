// /admin: the privilege check, the access-denied state with
// debug info, and its tabs (Radix Tabs). The tab and the listings filters live in the URL (-admin/admin-search.ts).
import { createFileRoute } from "@tanstack/react-router";
import * as Tabs from "@radix-ui/react-tabs";
import { lazy, Suspense } from "react";
import { ConnectWalletButton } from "../components/ConnectWalletButton";
import { Spinner } from "../components/Spinner";
import { useAdminGate } from "../components/use-admin-gate";
import { type AdminSearch, adminState, parseAdminSearch, patchAdminSearch } from "./-admin/admin-search";
import { AnalyticsTab } from "./-admin/AnalyticsTab";
import { CustomOrdersTab } from "./-admin/CustomOrdersTab";
import { HealthTab } from "./-admin/HealthTab";
import { ListingsTab } from "./-admin/ListingsTab";
import { OffersTab } from "./-admin/OffersTab";
import { pageTitle } from "../server-rendered/page-title";
import { PaymentsAttentionTab } from "./-admin/PaymentsAttentionTab";
import { SettingsTab } from "./-admin/SettingsTab";
import { SupplyTab } from "./-admin/SupplyTab";

const BulkUpload = lazy(() => import("../components/bulk-upload/BulkUpload").then((m) => ({ default: m.BulkUpload })));

export const Route = createFileRoute("/admin")({
  head: () => pageTitle("Admin Panel"),
  validateSearch: (raw: Record<string, unknown>): AdminSearch => parseAdminSearch(raw),
  component: AdminPage,
});

const TABS = [
  { key: "listings", label: "Listings Management" },
  { key: "bulk", label: "Bulk Upload" },
  { key: "payments", label: "Payments" },
  { key: "orders", label: "Custom Orders" },
  { key: "supply", label: "Supply" },
  { key: "offers", label: "Offers" },
  { key: "analytics", label: "Analytics" },
  { key: "health", label: "Health" },
  { key: "settings", label: "Settings" },
] as const;

function AdminPage() {
  const { gate, address, network } = useAdminGate();
  if (gate === "loading") return <Spinner label="Checking admin privileges…" />;
  if (gate !== "admin") {
    return (
      <section className="mx-auto max-w-xl space-y-6 px-4 py-20">
        <div role="alert" className="rounded-2xl border border-red-500/40 bg-red-950/30 p-5">
          <h1 className="text-xl font-semibold text-red-200">Access denied</h1>
          <p className="mt-2 text-slate-300">Admin access required. Please connect with an authorized admin wallet.</p>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-xl border border-slate-800 bg-slate-900/60 p-4 text-sm" aria-label="Debug info">
          <dt className="text-slate-400">Connected wallet</dt>
          <dd className="font-mono break-all text-slate-300">{address ?? "Not connected"}</dd>
          <dt className="text-slate-400">Network</dt>
          <dd className="text-slate-300">{address ? (network ?? "unknown") : "—"}</dd>
          <dt className="text-slate-400">Admin access</dt>
          <dd className="text-slate-300">{address ? "No: this wallet is not one of the store's admin wallets" : "No wallet connected"}</dd>
        </dl>
        {!address && (
          <div className="flex justify-center">
            <ConnectWalletButton />
          </div>
        )}
      </section>
    );
  }
  return <AdminPanel />;
}

function AdminPanel() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const state = adminState(search);
  const update = (patch: Partial<Record<keyof AdminSearch, unknown>>, replace = false) =>
    navigate({ search: (prev) => patchAdminSearch(prev, patch), replace, resetScroll: false });

  // Radix Tabs: arrow keys, Home and End move between tabs; the open tab is in the URL.
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold text-white">Admin Panel</h1>
      <p className="mt-2 text-slate-400">Manage listings, upload in bulk and review the marketplace.</p>
      <Tabs.Root value={state.tab} onValueChange={(tab) => update({ tab })} activationMode="automatic">
        <Tabs.List aria-label="Admin sections" className="mt-6 flex flex-wrap gap-1 border-b border-slate-800">
          {TABS.map((t) => (
            <Tabs.Trigger
              key={t.key}
              value={t.key}
              className="-mb-px border-b-2 border-transparent px-4 py-2 text-sm font-medium text-slate-400 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400 data-[state=active]:border-violet-500 data-[state=active]:text-white"
            >
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="listings" className="mt-6 focus:outline-none">
          <ListingsTab search={search} onChange={update} />
        </Tabs.Content>
        <Tabs.Content value="bulk" className="mt-6 focus:outline-none">
          <Suspense fallback={<Spinner label="Loading bulk upload…" />}>
            <BulkUpload />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content value="payments" className="mt-6 focus:outline-none">
          <PaymentsAttentionTab />
        </Tabs.Content>
        <Tabs.Content value="orders" className="mt-6 focus:outline-none">
          <CustomOrdersTab />
        </Tabs.Content>
        <Tabs.Content value="supply" className="mt-6 focus:outline-none">
          <SupplyTab />
        </Tabs.Content>
        <Tabs.Content value="offers" className="mt-6 focus:outline-none">
          <OffersTab />
        </Tabs.Content>
        <Tabs.Content value="analytics" className="mt-6 focus:outline-none">
          <AnalyticsTab />
        </Tabs.Content>
        <Tabs.Content value="health" className="mt-6 focus:outline-none">
          <HealthTab />
        </Tabs.Content>
        <Tabs.Content value="settings" className="mt-6 focus:outline-none">
          <SettingsTab />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
