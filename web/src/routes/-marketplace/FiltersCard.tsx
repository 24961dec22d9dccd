// The collapsible "Advanced Filters" card. Selects apply at once; the number and
// text boxes apply after a short pause in typing, and only with a value the search accepts.
import { useEffect, useId, useState } from "react";
import { PATTERN_FILTERS, SORT_FIELDS, type SortField } from "../../../../schema/browse";
import { useDebounced } from "../../components/use-debounced";
import { categoryLabel } from "../../lib/category-words";
import {
  activeFilterCount,
  CATEGORY_OPTIONS,
  filtersDiffer,
  lengthDraft,
  lengthRangeInverted,
  type MarketSearch,
  marketState,
  NETWORK_OPTIONS,
} from "../../server-rendered/marketplace-search";

export const TYPING_PAUSE_MS = 400;

const PATTERN_LABELS = { prefix: "Prefix", suffix: "Suffix", either: "Either end" } as const;
const SORT_LABELS: Record<SortField, string> = { rarity: "Rarity", price: "Price", createdAt: "Date Listed" };
const NETWORK_LABELS = { all: "All networks", ethereum: "Ethereum", solana: "Solana" } as const;
const categoryOption = (c: string) => (c === "all" ? "All categories" : categoryLabel(c));

const field = "w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-slate-100 focus:border-violet-500 focus:outline-none";
const labelClass = "mb-1 block text-xs font-semibold tracking-wide text-slate-400 uppercase";

type Props = { search: MarketSearch; onChange: (patch: Partial<MarketSearch>) => void; onReset: () => void };

export function FiltersCard({ search, onChange, onReset }: Props) {
  const active = activeFilterCount(search);
  const [open, setOpen] = useState(active > 0);
  const st = marketState(search);
  const ids = useId();
  const id = (name: string) => `${ids}-${name}`;

  return (
    <section aria-labelledby={id("title")} className="rounded-2xl border border-slate-800 bg-slate-900/60">
      <div className="flex flex-wrap items-center gap-3 p-4">
        <h2 id={id("title")} className="text-lg font-bold">
          Advanced Filters
        </h2>
        {active > 0 && (
          <span className="rounded-full bg-violet-500/20 px-2.5 py-0.5 text-xs font-semibold text-violet-200" data-testid="active-filters">
            {active} active
          </span>
        )}
        <button
          type="button"
          aria-expanded={open}
          aria-controls={id("panel")}
          onClick={() => setOpen(!open)}
          className="ml-auto rounded-lg border border-slate-700 px-3 py-1.5 text-sm font-semibold text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400"
        >
          {open ? "Hide Filters" : "Show Filters"}
        </button>
      </div>
      <div id={id("panel")} hidden={!open} className="border-t border-slate-800 p-4">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <LengthBox id={id("min")} label="Min Character Length" value={search.minCharLength} onCommit={(v) => onChange({ minCharLength: v })} />
          <LengthBox id={id("max")} label="Max Character Length" value={search.maxCharLength} onCommit={(v) => onChange({ maxCharLength: v })} />
          <div>
            <label htmlFor={id("pattern-filter")} className={labelClass}>
              Pattern Position
            </label>
            <select
              id={id("pattern-filter")}
              className={field}
              value={st.patternFilter}
              onChange={(e) => onChange({ patternFilter: e.target.value as MarketSearch["patternFilter"] })}
            >
              {PATTERN_FILTERS.map((p) => (
                <option key={p} value={p}>
                  {PATTERN_LABELS[p]}
                </option>
              ))}
            </select>
          </div>
          <TextBox
            id={id("pattern-value")}
            label="Pattern"
            value={search.patternValue ?? ""}
            hint="e.g. dead, 0000"
            onCommit={(v) => onChange({ patternValue: v || undefined })}
          />
          <div>
            <label htmlFor={id("category")} className={labelClass}>
              Category
            </label>
            <select
              id={id("category")}
              className={field}
              value={st.category}
              onChange={(e) => onChange({ category: e.target.value as MarketSearch["category"] })}
            >
              {CATEGORY_OPTIONS.map((c) => (
                <option key={c} value={c}>
                  {categoryOption(c)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={id("network")} className={labelClass}>
              Network
            </label>
            <select id={id("network")} className={field} value={st.network} onChange={(e) => onChange({ network: e.target.value as MarketSearch["network"] })}>
              {NETWORK_OPTIONS.map((n) => (
                <option key={n} value={n}>
                  {NETWORK_LABELS[n]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={id("sort-by")} className={labelClass}>
              Sort By
            </label>
            <select id={id("sort-by")} className={field} value={st.sortBy} onChange={(e) => onChange({ sortBy: e.target.value as SortField })}>
              {SORT_FIELDS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={id("sort-order")} className={labelClass}>
              Sort Order
            </label>
            <select
              id={id("sort-order")}
              className={field}
              value={st.sortOrder}
              onChange={(e) => onChange({ sortOrder: e.target.value as MarketSearch["sortOrder"] })}
            >
              <option value="desc">Highest First</option>
              <option value="asc">Lowest First</option>
            </select>
          </div>
        </div>
        {lengthRangeInverted(search) && (
          <p role="alert" className="mt-3 text-sm text-amber-300">
            The minimum length is above the maximum, so the length filter is not applied.
          </p>
        )}
        <div className="mt-4 flex justify-end">
          <button
            type="button"
            onClick={onReset}
            disabled={!filtersDiffer(search)}
            className="rounded-lg border border-slate-700 px-3 py-1.5 text-sm font-semibold text-slate-300 hover:bg-slate-800 disabled:opacity-50"
          >
            Reset Filters
          </button>
        </div>
      </div>
    </section>
  );
}

/** Calls `commit` once the value has stopped changing for a moment and differs from what is applied. */
function useCommitAfterPause<T>(value: T, committed: T, commit: (v: T) => void) {
  const settled = useDebounced(value, TYPING_PAUSE_MS);
  useEffect(() => {
    if (settled === value && settled !== committed) commit(settled);
    // `commit` is a fresh closure each render: only a settled value commits.
  }, [settled]);
}

/** A character-count box: a whole number from 1 to 100, or empty for no bound. */
function LengthBox({ id, label, value, onCommit }: { id: string; label: string; value: number | undefined; onCommit: (v: number | undefined) => void }) {
  const [draft, setDraft] = useState(value === undefined ? "" : String(value));
  // Follow the URL when it changes from elsewhere (Reset, back button).
  useEffect(() => setDraft(value === undefined ? "" : String(value)), [value]);
  const parsed = lengthDraft(draft);
  const valid = parsed.ok;
  useCommitAfterPause(parsed.ok ? parsed.value : value, value, onCommit);
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        // Text, not type=number: a number box reports "" for input it cannot parse, which would clear the
        // filter silently instead of saying what is wrong.
        type="text"
        inputMode="numeric"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        aria-invalid={!valid}
        aria-describedby={valid ? undefined : `${id}-error`}
        className={field}
      />
      {!parsed.ok && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-xs text-amber-300">
          {parsed.message}
        </p>
      )}
    </div>
  );
}

function TextBox({ id, label, value, hint, onCommit }: { id: string; label: string; value: string; hint: string; onCommit: (v: string) => void }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft((d) => (d.trim() === value ? d : value)), [value]);
  useCommitAfterPause(draft.trim(), value, onCommit);
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        type="text"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        placeholder={hint}
        spellCheck={false}
        autoComplete="off"
        maxLength={100}
        className={`${field} font-mono`}
      />
    </div>
  );
}
