/** A centred spinner with its text, announced politely to screen readers. */
export function Spinner({ label }: { label: string }) {
  return (
    <div className="flex flex-col items-center gap-3 py-24 text-slate-400" role="status" aria-live="polite">
      <span className="h-8 w-8 animate-spin rounded-full border-2 border-slate-700 border-t-violet-500" aria-hidden />
      <span>{label}</span>
    </div>
  );
}
