// Admin > Settings (issue 24 §2): the fee configuration per network with an effective-from time (history: in
// force, scheduled, superseded), the custom-order quote settings, and the audit trail of every change (who, when).
// The server holds the rules (schema/settings.ts); its message is shown as it is when it refuses a value.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { errorMessage } from "../../api/error-message";
import {
  type FeeConfigInput,
  type QuoteSettingsInput,
  type Settings,
  setFeeConfigMutation,
  setQuoteSettingsMutation,
  settingsQuery,
} from "../../api/operations";
import { Spinner } from "../../components/Spinner";
import { toast } from "../../components/toast-store";
import { AdminSection, AdminTable } from "./AnalyticsTab";

const input =
  "mt-1 w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-white focus-visible:outline-2 focus-visible:outline-violet-400";
const button =
  "rounded-lg bg-violet-600 px-4 py-2 text-sm font-medium text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-violet-300 disabled:opacity-50";

export function SettingsTab() {
  const settings = useQuery(settingsQuery());
  if (settings.isPending) return <Spinner label="Loading settings…" />;
  if (settings.isError) {
    return (
      <p role="alert" className="rounded-xl border border-red-700 bg-red-950/40 p-4 text-sm text-red-200">
        Settings could not be loaded: {errorMessage(settings.error)}
      </p>
    );
  }
  const s = settings.data;
  return (
    <div className="space-y-10">
      <AdminSection title="Fee configuration" id="settings-fees">
        <p className="text-sm text-slate-400">
          A reservation is charged the configuration in force when it is made. A change can start now or at a later time; history is kept.
        </p>
        <FeeForm current={s.fees} />
        <AdminTable
          caption="Fee configurations, newest first per network"
          head={["Network", "State", "From", "Exchange %", "Commission %", "Min fee", "Max fee", "Gas ×", "Set by"]}
          rows={s.fees.map((f) => [
            f.network,
            f.state,
            localTime(f.effectiveFrom),
            f.exchangeFeePercentage,
            f.commissionFeePercentage,
            f.minimumFee,
            f.maximumFee ?? "none",
            f.gasFeeMultiplier,
            f.createdBy ?? "reference row",
          ])}
          empty="No fee configuration: no platform fees are charged."
        />
      </AdminSection>
      <AdminSection title="Custom-order quote" id="settings-quote">
        <p className="text-sm text-slate-400">
          price = min(maximum, base + expected attempts × price per billion ÷ 10⁹); patterns above the hardest are refused.
        </p>
        <QuoteForm current={s.quote[0]} />
        <AdminTable
          caption="Quote settings, newest first"
          head={["Set", "Base", "Per billion", "Maximum", "Hardest (bits)", "Rate (/s)", "Set by"]}
          rows={s.quote.map((q) => [
            localTime(q.createdAt),
            q.basePrice,
            q.pricePerBillion,
            q.maxPrice,
            String(q.maxDifficultyBits),
            String(q.grindRate),
            q.createdBy ?? "—",
          ])}
          empty="No quote settings: the defaults apply."
        />
      </AdminSection>
      <AdminSection title="Audit trail" id="settings-audit">
        <AdminTable
          caption="Every settings change, newest first"
          head={["When", "Who", "Change", "Values"]}
          rows={s.audit.map((a) => [
            localTime(a.at),
            a.performedBy ?? "—",
            a.action === "fee_config_set" ? "fee configuration" : "custom-order quote",
            JSON.stringify(a.details),
          ])}
          empty="No settings have been changed yet."
        />
      </AdminSection>
    </div>
  );
}

const localTime = (iso: string) => new Date(iso).toLocaleString();

function Field({ label, name, defaultValue, hint, type = "text" }: { label: string; name: string; defaultValue?: string; hint?: string; type?: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="text-sm text-slate-300">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={defaultValue}
        inputMode={type === "text" ? "decimal" : undefined}
        className={input}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-400">
          {hint}
        </p>
      )}
    </div>
  );
}

function FormError({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="rounded-lg border border-red-700 bg-red-950/40 p-3 text-sm text-red-200">
      {error}
    </p>
  ) : null;
}

function FeeForm({ current }: { current: Settings["fees"] }) {
  const qc = useQueryClient();
  const mutation = useMutation(setFeeConfigMutation(qc));
  const [network, setNetwork] = useState<"ethereum" | "solana">("ethereum");
  const [error, setError] = useState<string | null>(null);
  const inForce = current.find((f) => f.network === network && f.state === "in-force");
  const networkId = useId();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (k: string) => String(form.get(k) ?? "").trim();
    const from = text("effectiveFrom");
    const body: FeeConfigInput = {
      network,
      exchangeFeePercentage: text("exchangeFeePercentage"),
      commissionFeePercentage: text("commissionFeePercentage"),
      minimumFee: text("minimumFee"),
      maximumFee: text("maximumFee") || null,
      gasFeeMultiplier: text("gasFeeMultiplier"),
      // datetime-local is the admin's local time; the server takes ISO 8601 with a zone.
      ...(from ? { effectiveFrom: new Date(from).toISOString() } : {}),
    };
    setError(null);
    mutation.mutate(body, {
      onSuccess: (row) =>
        toast({ title: row.state === "scheduled" ? `Fee change for ${row.network} scheduled` : `Fees for ${row.network} changed`, variant: "success" }),
      onError: (err) => setError(errorMessage(err)),
    });
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Change the fee configuration"
      className="space-y-4 rounded-xl border border-slate-800 bg-slate-900/60 p-4"
      key={`${network}-${inForce?.id}`}
    >
      <div>
        <label htmlFor={networkId} className="text-sm text-slate-300">
          Network
        </label>
        <select id={networkId} value={network} onChange={(e) => setNetwork(e.target.value as "ethereum" | "solana")} className={input}>
          <option value="ethereum">Ethereum</option>
          <option value="solana">Solana</option>
        </select>
      </div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Field label="Exchange fee %" name="exchangeFeePercentage" defaultValue={inForce?.exchangeFeePercentage ?? "0"} hint="0 to 50, at most 4 decimals" />
        <Field
          label="Commission fee %"
          name="commissionFeePercentage"
          defaultValue={inForce?.commissionFeePercentage ?? "0"}
          hint="0 to 50, at most 4 decimals"
        />
        <Field label="Gas multiplier" name="gasFeeMultiplier" defaultValue={inForce?.gasFeeMultiplier ?? "1.2"} hint="1 to 5, at most 2 decimals" />
        <Field label="Minimum fee" name="minimumFee" defaultValue={inForce?.minimumFee ?? "0"} hint="coin amount, at most 8 decimals" />
        <Field label="Maximum fee (optional)" name="maximumFee" defaultValue={inForce?.maximumFee ?? ""} hint="empty: no maximum" />
        <Field label="Effective from (optional)" name="effectiveFrom" type="datetime-local" hint="empty: now; at most a year ahead" />
      </div>
      <FormError error={error} />
      <button type="submit" className={button} disabled={mutation.isPending}>
        {mutation.isPending ? "Saving…" : "Save fee configuration"}
      </button>
    </form>
  );
}

function QuoteForm({ current }: { current: Settings["quote"][number] | undefined }) {
  const qc = useQueryClient();
  const mutation = useMutation(setQuoteSettingsMutation(qc));
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (k: string) => String(form.get(k) ?? "").trim();
    const whole = (k: string) => (/^[0-9]+$/.test(text(k)) ? Number(text(k)) : Number.NaN);
    const body: QuoteSettingsInput = {
      basePrice: text("basePrice"),
      pricePerBillion: text("pricePerBillion"),
      maxPrice: text("maxPrice"),
      maxDifficultyBits: whole("maxDifficultyBits"),
      grindRate: whole("grindRate"),
    };
    setError(null);
    if (Number.isNaN(body.maxDifficultyBits) || Number.isNaN(body.grindRate)) {
      setError("The hardest pattern and the grinding rate must be whole numbers");
      return;
    }
    mutation.mutate(body, {
      onSuccess: () => toast({ title: "Custom-order quote changed", variant: "success" }),
      onError: (err) => setError(errorMessage(err)),
    });
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Change the custom-order quote"
      className="space-y-4 rounded-xl border border-slate-800 bg-slate-900/60 p-4"
      key={current?.id}
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Field label="Base price (ETH)" name="basePrice" defaultValue={current?.basePrice} hint="at most 1000, 8 decimals" />
        <Field label="Price per billion attempts (ETH)" name="pricePerBillion" defaultValue={current?.pricePerBillion} />
        <Field label="Maximum price (ETH)" name="maxPrice" defaultValue={current?.maxPrice} hint="not below the base" />
        <Field label="Hardest pattern (bits)" name="maxDifficultyBits" defaultValue={current ? String(current.maxDifficultyBits) : undefined} hint="1 to 44" />
        <Field label="Grinding rate (candidates/s)" name="grindRate" defaultValue={current ? String(current.grindRate) : undefined} hint="for time estimates" />
      </div>
      <FormError error={error} />
      <button type="submit" className={button} disabled={mutation.isPending}>
        {mutation.isPending ? "Saving…" : "Save quote settings"}
      </button>
    </form>
  );
}
