// Admin > Supply (docs/supply.md): the targets the grinders keep stocked ("keep 20 Ethereum listings with 7 leading
// zeros at 0.05 ETH"), each with its stock (active listings of its shape), the grinders' rate and the time to fill,
// refreshed every 15 s; a form for a new target, and per target: change its price or count, pause, resume, delete.
// The grinders work through the same API (`npm run grind -- --supply`); this is for setting and watching them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { MAX_SUPPLY_WANTED, SUPPLY_CATEGORIES, SUPPLY_LENGTHS, type SupplyCategory, type SupplyTargetView } from "../../../../schema/supply";
import { errorMessage } from "../../api/error-message";
import { createTargetMutation, editTargetMutation, type SupplyTargets, supplyTargetsQuery, targetActionMutation } from "../../api/supply";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { toast } from "../../components/toast-store";
import { compactNumber } from "../../lib/duration";
import { type FieldErrors, fieldErrors, firstRefused, NO_ERRORS } from "./field-errors";
import { CATEGORY_NAME, fillWords, targetWords } from "./supply-words";
import { currencyOf } from "../../../../schema/network";

const input =
  "mt-1 w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-white focus-visible:outline-2 focus-visible:outline-violet-400";
const button =
  "rounded-lg bg-violet-600 px-4 py-2 text-sm font-medium text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-violet-300 disabled:opacity-50";
const quiet =
  "rounded-lg border border-slate-700 px-3 py-1.5 text-sm text-slate-200 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-violet-300 disabled:opacity-50";

type Network = "ethereum" | "solana";

export function SupplyTab() {
  const id = useId();
  const targets = useQuery(supplyTargetsQuery());
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-6">
      <div>
        <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
          Supply
        </h2>
        <p className="text-sm text-slate-400">
          Targets the grinders keep in stock. Each grinder started with <span className="font-mono">npm run grind -- --supply</span> takes the target that lacks
          most, and lists what it finds sealed, at the target's price; stock counts every active listing of the target's shape.
        </p>
      </div>
      <NewTargetForm count={targets.data?.targets.length ?? 0} max={targets.data?.maxTargets ?? null} />
      {targets.isPending && <p className="text-slate-400">Loading the targets…</p>}
      {targets.isError && <p className="text-red-300">The targets could not be loaded: {errorMessage(targets.error)}</p>}
      {targets.isSuccess && targets.data.targets.length === 0 && (
        <p className="rounded-xl border border-dashed border-slate-700 p-6 text-center text-slate-400">
          No targets yet. Add one above, and start a grinder with --supply.
        </p>
      )}
      {targets.isSuccess && targets.data.targets.length > 0 && <TargetList targets={targets.data.targets} />}
    </section>
  );
}

/**
 * A target form's refusal (docs/supply.md#the-routes): each problem the API names in `fields` under its field, whose
 * label already names it ("Ethereum leading zeros take 3 to 12 characters"), that field marked invalid and described
 * by it, and the focus on the first; a problem of no field (a 409) above the buttons. A field's problem stays until
 * the field is edited.
 */
function useRefusal<Name extends string>(order: readonly Name[]) {
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const form = useRef<HTMLFormElement>(null);
  const id = useId();
  const problemId = (name: Name) => `${id}-${name}-problem`;
  return {
    form,
    formError: errors.form,
    clear: () => setErrors(NO_ERRORS),
    refused: (err: unknown) => {
      const next = fieldErrors(err, Object.fromEntries(order.map((name) => [name, name])), (_, problem) => problem);
      setErrors(next);
      const first = firstRefused(next, order);
      // After the render that marks it invalid, so its problem is read out when the focus lands.
      if (first) requestAnimationFrame(() => form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus());
    },
    edited: (e: FormEvent<HTMLFormElement>) => {
      const name = (e.target as HTMLInputElement).name;
      if (name in errors.fields)
        setErrors((prev) => {
          const { [name]: _, ...rest } = prev.fields;
          return { ...prev, fields: rest };
        });
    },
    /** The field's attributes while it is refused. */
    invalid: (name: Name) => (errors.fields[name] ? { "aria-invalid": true as const, "aria-describedby": problemId(name) } : {}),
    problem: (name: Name) =>
      errors.fields[name] && (
        <p id={problemId(name)} className="mt-1 text-sm text-red-300" data-testid={`error-${name}`}>
          {errors.fields[name]}
        </p>
      ),
  };
}

function FormError({ error, className = "" }: { error: string | null; className?: string }) {
  return error ? (
    <p role="alert" className={`text-sm text-red-300 ${className}`}>
      {error}
    </p>
  ) : null;
}

function NewTargetForm({ count, max }: { count: number; max: number | null }) {
  const qc = useQueryClient();
  const mutation = useMutation(createTargetMutation(qc));
  const [network, setNetwork] = useState<Network>("ethereum");
  const [category, setCategory] = useState<SupplyCategory>("leading-zeros");
  const refusal = useRefusal(["patternLength", "price", "wanted"]);
  const f = useId();
  const range = SUPPLY_LENGTHS[network][category];
  const full = max !== null && count >= max;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (k: string) => String(data.get(k) ?? "").trim();
    refusal.clear();
    mutation.mutate(
      { network, category, patternLength: Number(text("patternLength")), price: text("price"), wanted: Number(text("wanted")) },
      {
        onSuccess: (t) => toast({ title: `Target added: ${targetWords(t)}`, variant: "success" }),
        onError: refusal.refused,
      },
    );
  };
  return (
    <form
      ref={refusal.form}
      onSubmit={submit}
      onChange={refusal.edited}
      aria-label="Add a supply target"
      className="space-y-4 rounded-xl border border-slate-800 bg-slate-900/60 p-4"
      noValidate
    >
      <h3 className="font-medium text-white">Add a target</h3>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <label className="text-sm text-slate-300" htmlFor={`${f}-network`}>
          Network
          <select id={`${f}-network`} value={network} onChange={(e) => setNetwork(e.target.value as Network)} className={input}>
            <option value="ethereum">Ethereum</option>
            <option value="solana">Solana</option>
          </select>
        </label>
        <label className="text-sm text-slate-300" htmlFor={`${f}-category`}>
          Pattern
          <select id={`${f}-category`} value={category} onChange={(e) => setCategory(e.target.value as SupplyCategory)} className={input}>
            {SUPPLY_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_NAME[c]}
              </option>
            ))}
          </select>
        </label>
        <div>
          <label className="text-sm text-slate-300" htmlFor={`${f}-length`}>
            Characters ({range.min} to {range.max})
          </label>
          <input
            id={`${f}-length`}
            name="patternLength"
            type="number"
            inputMode="numeric"
            min={range.min}
            max={range.max}
            defaultValue={range.min + 2}
            className={input}
            {...refusal.invalid("patternLength")}
          />
          {refusal.problem("patternLength")}
        </div>
        <PriceAndStock f={f} currency={currencyOf(network)} price={{ placeholder: "0.05" }} wanted={20} refusal={refusal} />
      </div>
      <FormError error={refusal.formError} />
      {full && <p className="text-sm text-amber-300">The store has {max} targets, the most it keeps; delete one to add another.</p>}
      <button type="submit" className={button} disabled={mutation.isPending || full}>
        {mutation.isPending ? "Adding…" : "Add target"}
      </button>
    </form>
  );
}

function TargetList({ targets }: { targets: SupplyTargets["targets"] }) {
  return (
    <ul className="space-y-3" data-testid="supply-targets">
      {targets.map((t) => (
        <TargetCard key={t.id} target={t} />
      ))}
    </ul>
  );
}

function TargetCard({ target: t }: { target: SupplyTargetView }) {
  const qc = useQueryClient();
  const action = useMutation(targetActionMutation(qc));
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const filled = Math.min(100, Math.round((t.stock / t.wanted) * 100));
  const run = (what: "pause" | "resume" | "delete") =>
    action.mutate(
      { id: t.id, action: what },
      {
        onSuccess: () => {
          setConfirming(false);
          toast({ title: what === "delete" ? "Target deleted" : what === "pause" ? "Target paused" : "Target resumed", variant: "success" });
        },
        onError: (err) => toast({ title: `Could not ${what} the target: ${errorMessage(err)}`, variant: "destructive" }),
      },
    );
  return (
    <li className="rounded-xl border border-slate-800 bg-slate-900/60 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium break-words text-white">{targetWords(t)}</p>
          <p className="text-sm text-slate-400">
            at {t.price} {t.currency} each{t.status === "paused" ? " · paused" : ""}
          </p>
        </div>
        <p className="text-sm text-slate-200">
          <span className="text-lg font-semibold text-white">{t.stock}</span> of {t.wanted} in stock
        </p>
      </div>
      <div className="mt-3 h-2 overflow-hidden rounded bg-slate-800" aria-hidden="true">
        <div className="h-full bg-violet-500" style={{ width: `${filled}%` }} />
      </div>
      <p className="mt-2 text-sm text-slate-300">
        {t.rate > 0 ? `${compactNumber(t.rate)} keys a second from ${t.openClaims} grinder${t.openClaims === 1 ? "" : "s"}` : "No grinder is reporting on it"}
        {" · "}about {compactNumber(Number(t.expectedAttempts))} keys per listing · {fillWords(t)}
      </p>
      {editing ? (
        <EditForm target={t} onDone={() => setEditing(false)} />
      ) : (
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className={quiet} onClick={() => setEditing(true)}>
            Change price or count
          </button>
          <button type="button" className={quiet} disabled={action.isPending} onClick={() => run(t.status === "active" ? "pause" : "resume")}>
            {t.status === "active" ? "Pause" : "Resume"}
          </button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title="Delete this target?"
            confirmLabel="Delete target"
            pendingLabel="Deleting…"
            pending={action.isPending}
            tone="danger"
            onConfirm={() => run("delete")}
            trigger={
              <button type="button" className={`${quiet} text-red-300`}>
                Delete
              </button>
            }
          >
            Grinders working on it stop at their next report. The {t.stock} listing{t.stock === 1 ? "" : "s"} in stock stay listed. This cannot be undone; you
            can add the target again.
          </ConfirmDialog>
        </div>
      )}
    </li>
  );
}

function EditForm({ target: t, onDone }: { target: SupplyTargetView; onDone: () => void }) {
  const qc = useQueryClient();
  const mutation = useMutation(editTargetMutation(qc));
  const refusal = useRefusal(["price", "wanted"]);
  const f = useId();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const price = String(data.get("price") ?? "").trim();
    const wanted = Number(String(data.get("wanted") ?? "").trim());
    refusal.clear();
    mutation.mutate(
      { id: t.id, json: { price, wanted } },
      {
        onSuccess: () => {
          toast({ title: "Target changed", variant: "success" });
          onDone();
        },
        onError: refusal.refused,
      },
    );
  };
  return (
    <form ref={refusal.form} onSubmit={submit} onChange={refusal.edited} aria-label="Change the target" className="mt-3 grid gap-3 sm:grid-cols-3" noValidate>
      <PriceAndStock f={f} currency={t.currency} price={{ defaultValue: t.price }} wanted={t.wanted} refusal={refusal} />
      <div className="flex items-end gap-2">
        <button type="submit" className={button} disabled={mutation.isPending}>
          {mutation.isPending ? "Saving…" : "Save"}
        </button>
        <button type="button" className={quiet} onClick={onDone}>
          Cancel
        </button>
      </div>
      <FormError error={refusal.formError} className="sm:col-span-3" />
    </form>
  );
}

/** A target's price and how many to keep in stock: the same two fields when a target is added and when it is changed. */
function PriceAndStock({
  f,
  currency,
  price,
  wanted,
  refusal,
}: {
  f: string;
  currency: string;
  price: { placeholder?: string; defaultValue?: string };
  wanted: number;
  refusal: Pick<ReturnType<typeof useRefusal<"price" | "wanted">>, "invalid" | "problem">;
}) {
  return (
    <>
      <div>
        <label className="text-sm text-slate-300" htmlFor={`${f}-price`}>
          Price ({currency})
        </label>
        <input id={`${f}-price`} name="price" inputMode="decimal" {...price} className={input} {...refusal.invalid("price")} />
        {refusal.problem("price")}
      </div>
      <div>
        <label className="text-sm text-slate-300" htmlFor={`${f}-wanted`}>
          Keep in stock (1 to {MAX_SUPPLY_WANTED})
        </label>
        <input
          id={`${f}-wanted`}
          name="wanted"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_SUPPLY_WANTED}
          defaultValue={wanted}
          className={input}
          {...refusal.invalid("wanted")}
        />
        {refusal.problem("wanted")}
      </div>
    </>
  );
}
