// The one way a visitor types a vanity pattern (the custom-order page, /grind): "Starts with", "Ends with", the
// letter-case box, and the pattern's problems under them. The caller owns the state and reads it with its own rule
// (order-rules.ts readPattern, grind-plan.ts readSolanaPattern); these fields only show and change it.
import type { ReactNode } from "react";

/** What the fields hold: the typed prefix and suffix, and whether letter case must match exactly. */
export type PatternInput = { prefix: string; suffix: string; caseSensitive: boolean };

export const EMPTY_PATTERN: PatternInput = { prefix: "", suffix: "", caseSensitive: false };

const INPUT =
  "mt-1 w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 font-mono text-white focus:border-violet-500 focus:outline-none disabled:opacity-60";

/**
 * The three fields as items of the caller's two-column grid (the case box spans both columns). `prefixLabel`,
 * `placeholders` and `caseHint` are the network's words.
 */
export function PatternFields({
  id,
  value,
  onChange,
  prefixLabel,
  placeholders,
  caseHint,
}: {
  id: string;
  value: PatternInput;
  onChange: (next: PatternInput) => void;
  prefixLabel: string;
  placeholders: { prefix: string; suffix: string };
  caseHint: ReactNode;
}) {
  return (
    <>
      <label className="block text-sm text-slate-300" htmlFor={`${id}-prefix`}>
        {prefixLabel}
        <input
          id={`${id}-prefix`}
          value={value.prefix}
          onChange={(e) => onChange({ ...value, prefix: e.target.value })}
          placeholder={placeholders.prefix}
          spellCheck={false}
          autoComplete="off"
          className={INPUT}
        />
      </label>
      <label className="block text-sm text-slate-300" htmlFor={`${id}-suffix`}>
        Ends with
        <input
          id={`${id}-suffix`}
          value={value.suffix}
          onChange={(e) => onChange({ ...value, suffix: e.target.value })}
          placeholder={placeholders.suffix}
          spellCheck={false}
          autoComplete="off"
          className={INPUT}
        />
      </label>
      <label className="flex items-start gap-2 text-sm text-slate-300 sm:col-span-2">
        <input type="checkbox" checked={value.caseSensitive} onChange={(e) => onChange({ ...value, caseSensitive: e.target.checked })} className="mt-1" />
        <span>{caseHint}</span>
      </label>
    </>
  );
}

/** What is wrong with the typed pattern, once something is typed; nothing while the fields are empty or it is fine. */
export function PatternProblems({ value, problems }: { value: PatternInput; problems: string[] }) {
  if ((!value.prefix && !value.suffix) || problems.length === 0) return null;
  return (
    <ul className="mt-3 list-disc pl-5 text-sm text-amber-300" role="alert">
      {problems.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  );
}
