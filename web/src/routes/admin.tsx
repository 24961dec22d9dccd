// /admin (transactions-profile-admin.md §2 Admin panel): the privilege check, the access-denied state with
// debug info, and four tabs (a hand-written tablist: arrow keys, Home and End move between tabs).
import { createFileRoute } from "@tanstack/react-router";
import { type KeyboardEvent, lazy, Suspense, useId, useRef, useState } from "react";
import { ConnectWalletButton } from "../components/ConnectWalletButton";
import { Spinner } from "../components/Spinner";
import { useAdminGate } from "../components/use-admin-gate";
import { CustomOrdersTab } from "./-admin/CustomOrdersTab";
import { ListingsTab } from "./-admin/ListingsTab";

const BulkUpload = lazy(() => import("../components/bulk-upload/BulkUpload").then((m) => ({ default: m.BulkUpload })));

export const Route = createFileRoute("/admin")({
  component: AdminPage,
});

const TABS = [
  { key: "listings", label: "Listings Management" },
  { key: "bulk", label: "Bulk Upload" },
  { key: "orders", label: "Custom Orders" },
  { key: "analytics", label: "Analytics" },
  { key: "settings", label: "Settings" },
] as const;
type TabKey = (typeof TABS)[number]["key"];

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
          <dt className="text-slate-500">Connected wallet</dt>
          <dd className="font-mono break-all text-slate-300">{address ?? "Not connected"}</dd>
          <dt className="text-slate-500">Network</dt>
          <dd className="text-slate-300">{address ? (network ?? "unknown") : "—"}</dd>
          <dt className="text-slate-500">isAdmin</dt>
          <dd className="font-mono text-slate-300">false</dd>
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
  const id = useId();
  const [tab, setTab] = useState<TabKey>("listings");
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});

  const onKeyDown = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.key === tab);
    const next = { ArrowRight: (i + 1) % TABS.length, ArrowLeft: (i - 1 + TABS.length) % TABS.length, Home: 0, End: TABS.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    setTab(TABS[next].key);
    refs.current[TABS[next].key]?.focus();
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold text-white">Admin Panel</h1>
      <p className="mt-2 text-slate-400">Manage listings, upload in bulk and review the marketplace.</p>
      <div role="tablist" aria-label="Admin sections" className="mt-6 flex flex-wrap gap-1 border-b border-slate-800" onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button
            key={t.key}
            ref={(el) => {
              refs.current[t.key] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${t.key}`}
            aria-selected={tab === t.key}
            aria-controls={`${id}-panel-${t.key}`}
            tabIndex={tab === t.key ? 0 : -1}
            onClick={() => setTab(t.key)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-violet-400 ${
              tab === t.key ? "border-violet-500 text-white" : "border-transparent text-slate-400 hover:text-white"
            }`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel-${tab}`} aria-labelledby={`${id}-tab-${tab}`} tabIndex={0} className="mt-6 focus:outline-none">
        {tab === "listings" && <ListingsTab />}
        {tab === "bulk" && (
          <Suspense fallback={<Spinner label="Loading bulk upload…" />}>
            <BulkUpload />
          </Suspense>
        )}
        {tab === "orders" && <CustomOrdersTab />}
        {tab === "analytics" && <ComingSoon title="Analytics" text="Sales and listing analytics are coming soon." />}
        {tab === "settings" && <ComingSoon title="Settings" text="Marketplace settings are coming soon." />}
      </div>
    </div>
  );
}

function ComingSoon({ title, text }: { title: string; text: string }) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-700 p-10 text-center">
      <h2 className="text-lg font-semibold text-white">{title}</h2>
      <p className="mt-2 text-slate-400">{text}</p>
    </div>
  );
}
