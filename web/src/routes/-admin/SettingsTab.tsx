// Admin > Settings: the fee configuration per network with an effective-from time (history: in
// force, scheduled, superseded), the custom-order quote settings, and the audit trail of every change (who, when).
// The server holds the rules (schema/settings.ts); when it refuses a value, its problem shows at the field, after
// the field's label (field-errors.ts), with aria-invalid and aria-describedby, and the focus goes to the first.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
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
import { formatDayTime } from "../../lib/date-format";
import { toast } from "../../components/toast-store";
import { AdminSection, AdminTable } from "./AnalyticsTab";
import { type FieldErrors, fieldErrors, firstRefused, NO_ERRORS } from "./field-errors";
import { changeWords, feeStateWords, networkWords, rateWords, setByWords } from "./settings-words";

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
            networkWords(f.network),
            feeStateWords(f.state),
            fromTime(f.effectiveFrom),
            f.exchangeFeePercentage,
            f.commissionFeePercentage,
            f.minimumFee,
            f.maximumFee ?? "none",
            f.gasFeeMultiplier,
            setByWords(f.createdBy),
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
          head={["Set", "Base", "Per billion", "Maximum", "Hardest (bits)", "Grinder rate", "Set by"]}
          rows={s.quote.map((q) => [
            localTime(q.createdAt),
            q.basePrice,
            q.pricePerBillion,
            q.maxPrice,
            String(q.maxDifficultyBits),
            rateWords(q.grindRate),
            setByWords(q.createdBy),
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
            a.action === "fee_config_set" ? "Fee configuration" : "Custom-order quote",
            changeWords(a.details),
          ])}
          empty="No settings have been changed yet."
        />
      </AdminSection>
    </div>
  );
}

const localTime = (iso: string) => formatDayTime(iso);
/** The reference fee rows apply from the start (the epoch in the table): a date of 1970 would mean nothing. */
const fromTime = (iso: string) => (Date.parse(iso) <= 0 ? "from the start" : localTime(iso));

type FieldSpec = { name: string; label: string; errorLabel: string; hint?: string; type?: string };

/** The fee form's fields, top to bottom; `errorLabel` names the field in its error ("Exchange fee: …"). */
const FEE_FIELDS: FieldSpec[] = [
  { name: "exchangeFeePercentage", label: "Exchange fee %", errorLabel: "Exchange fee", hint: "0 to 50, at most 4 decimals" },
  { name: "commissionFeePercentage", label: "Commission fee %", errorLabel: "Commission fee", hint: "0 to 50, at most 4 decimals" },
  { name: "gasFeeMultiplier", label: "Gas multiplier", errorLabel: "Gas multiplier", hint: "1 to 5, at most 2 decimals" },
  { name: "minimumFee", label: "Minimum fee", errorLabel: "Minimum fee", hint: "coin amount, at most 8 decimals" },
  { name: "maximumFee", label: "Maximum fee (optional)", errorLabel: "Maximum fee", hint: "empty: no maximum" },
  { name: "effectiveFrom", label: "Effective from (optional)", errorLabel: "Effective from", hint: "empty: now; at most a year ahead", type: "datetime-local" },
];

const QUOTE_FIELDS: FieldSpec[] = [
  { name: "basePrice", label: "Base price (ETH)", errorLabel: "Base price", hint: "at most 1000, 8 decimals" },
  { name: "pricePerBillion", label: "Price per billion attempts (ETH)", errorLabel: "Price per billion attempts" },
  { name: "maxPrice", label: "Maximum price (ETH)", errorLabel: "Maximum price", hint: "not below the base" },
  { name: "maxDifficultyBits", label: "Hardest pattern (bits)", errorLabel: "Hardest pattern", hint: "1 to 44" },
  { name: "grindRate", label: "Grinding rate (candidates/s)", errorLabel: "Grinding rate", hint: "for time estimates" },
];

const labelsOf = (fields: FieldSpec[], extra: Record<string, string> = {}) => ({
  ...Object.fromEntries(fields.map((f) => [f.name, f.errorLabel])),
  ...extra,
});

/**
 * A form's refusal state: the errors by field, cleared field by field as the person edits it; after a refusal the
 * focus goes to the first refused field (its label and error are then read out).
 */
function useFieldErrors(order: readonly string[]) {
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const form = useRef<HTMLFormElement>(null);
  return {
    errors,
    form,
    clear: () => setErrors(NO_ERRORS),
    clearField: (name: string) =>
      setErrors((e) => {
        if (!(name in e.fields)) return e;
        const { [name]: _, ...rest } = e.fields;
        return { ...e, fields: rest };
      }),
    refused: (next: FieldErrors) => {
      setErrors(next);
      const first = firstRefused(next, order);
      // After the render that marks it invalid, so its description is the error when the focus lands.
      if (first) requestAnimationFrame(() => form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus());
    },
  };
}

/** The name of the control a form's change event came from. */
const fieldName = (target: EventTarget) => (target instanceof HTMLInputElement || target instanceof HTMLSelectElement ? target.name : "");

function Field({ spec, defaultValue, error }: { spec: FieldSpec; defaultValue?: string; error?: string }) {
  const id = useId();
  const { label, name, hint, type = "text" } = spec;
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ");
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
        className={`${input} ${error ? "border-red-500" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-300" data-testid={`error-${name}`}>
          {error}
        </p>
      )}
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

const FEE_LABELS = labelsOf(FEE_FIELDS, { network: "Network" });

function FeeForm({ current }: { current: Settings["fees"] }) {
  const qc = useQueryClient();
  const mutation = useMutation(setFeeConfigMutation(qc));
  const [network, setNetwork] = useState<"ethereum" | "solana">("ethereum");
  const { errors, form, clear, clearField, refused } = useFieldErrors(["network", ...FEE_FIELDS.map((f) => f.name)]);
  const inForce = current.find((f) => f.network === network && f.state === "in-force");
  const networkId = useId();
  const defaults: Record<string, string | undefined> = {
    exchangeFeePercentage: inForce?.exchangeFeePercentage ?? "0",
    commissionFeePercentage: inForce?.commissionFeePercentage ?? "0",
    gasFeeMultiplier: inForce?.gasFeeMultiplier ?? "1.2",
    minimumFee: inForce?.minimumFee ?? "0",
    maximumFee: inForce?.maximumFee ?? "",
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (k: string) => String(data.get(k) ?? "").trim();
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
    clear();
    mutation.mutate(body, {
      onSuccess: (row) =>
        toast({
          title: row.state === "scheduled" ? `Fee change for ${networkWords(row.network)} scheduled` : `Fees for ${networkWords(row.network)} changed`,
          variant: "success",
        }),
      onError: (err) => refused(fieldErrors(err, FEE_LABELS)),
    });
  };
  const networkError = errors.fields.network;
  return (
    <form
      ref={form}
      onSubmit={submit}
      onChange={(e) => clearField(fieldName(e.target))}
      aria-label="Change the fee configuration"
      className="space-y-4 rounded-xl border border-slate-800 bg-slate-900/60 p-4"
      key={`${network}-${inForce?.id}`}
      noValidate
    >
      <div>
        <label htmlFor={networkId} className="text-sm text-slate-300">
          Network
        </label>
        <select
          id={networkId}
          name="network"
          value={network}
          onChange={(e) => {
            setNetwork(e.target.value as "ethereum" | "solana");
            clear();
          }}
          className={input}
          aria-invalid={networkError ? true : undefined}
          aria-describedby={networkError ? `${networkId}-error` : undefined}
        >
          <option value="ethereum">Ethereum</option>
          <option value="solana">Solana</option>
        </select>
        {networkError && (
          <p id={`${networkId}-error`} className="mt-1 text-sm text-red-300">
            {networkError}
          </p>
        )}
      </div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {FEE_FIELDS.map((f) => (
          <Field key={f.name} spec={f} defaultValue={defaults[f.name]} error={errors.fields[f.name]} />
        ))}
      </div>
      <FormError error={errors.form} />
      <button type="submit" className={button} disabled={mutation.isPending}>
        {mutation.isPending ? "Saving…" : "Save fee configuration"}
      </button>
    </form>
  );
}

const QUOTE_LABELS = labelsOf(QUOTE_FIELDS);

function QuoteForm({ current }: { current: Settings["quote"][number] | undefined }) {
  const qc = useQueryClient();
  const mutation = useMutation(setQuoteSettingsMutation(qc));
  const { errors, form, clear, clearField, refused } = useFieldErrors(QUOTE_FIELDS.map((f) => f.name));
  const defaults: Record<string, string | undefined> = {
    basePrice: current?.basePrice,
    pricePerBillion: current?.pricePerBillion,
    maxPrice: current?.maxPrice,
    maxDifficultyBits: current ? String(current.maxDifficultyBits) : undefined,
    grindRate: current ? String(current.grindRate) : undefined,
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (k: string) => String(data.get(k) ?? "").trim();
    // Not a whole number: NaN, which JSON sends as null, and the server names the field ("enter a whole number of bits").
    const whole = (k: string) => (/^[0-9]+$/.test(text(k)) ? Number(text(k)) : Number.NaN);
    const body: QuoteSettingsInput = {
      basePrice: text("basePrice"),
      pricePerBillion: text("pricePerBillion"),
      maxPrice: text("maxPrice"),
      maxDifficultyBits: whole("maxDifficultyBits"),
      grindRate: whole("grindRate"),
    };
    clear();
    mutation.mutate(body, {
      onSuccess: () => toast({ title: "Custom-order quote changed", variant: "success" }),
      onError: (err) => refused(fieldErrors(err, QUOTE_LABELS)),
    });
  };
  return (
    <form
      ref={form}
      onSubmit={submit}
      onChange={(e) => clearField(fieldName(e.target))}
      aria-label="Change the custom-order quote"
      className="space-y-4 rounded-xl border border-slate-800 bg-slate-900/60 p-4"
      key={current?.id}
      noValidate
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {QUOTE_FIELDS.map((f) => (
          <Field key={f.name} spec={f} defaultValue={defaults[f.name]} error={errors.fields[f.name]} />
        ))}
      </div>
      <FormError error={errors.form} />
      <button type="submit" className={button} disabled={mutation.isPending}>
        {mutation.isPending ? "Saving…" : "Save quote settings"}
      </button>
    </form>
  );
}
