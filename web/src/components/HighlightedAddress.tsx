/** An address in monospace with the matched pattern's [start, end) ranges highlighted. */
export function HighlightedAddress({
  address,
  ranges,
  className = "",
}: {
  address: string;
  ranges: readonly (readonly [number, number])[];
  className?: string;
}) {
  const parts: { text: string; hit: boolean }[] = [];
  let at = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (start > at) parts.push({ text: address.slice(at, start), hit: false });
    if (end > Math.max(start, at)) parts.push({ text: address.slice(Math.max(start, at), end), hit: true });
    at = Math.max(at, end);
  }
  if (at < address.length) parts.push({ text: address.slice(at), hit: false });
  return (
    <span className={`font-mono break-all ${className}`}>
      {parts.map((p, i) =>
        p.hit ? (
          <mark key={i} className="rounded bg-violet-500/30 px-0.5 font-bold text-violet-200">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </span>
  );
}
