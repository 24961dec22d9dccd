// An address in monospace with its matched pattern highlighted. It breaks only at its quarters (never inside a
// highlighted run when that can be helped: lib/address-parts.ts breakPoints), with its lines balanced, so a box
// too narrow for it shows two even halves (or, narrower still, even pieces) rather than a line with one or two
// highlighted characters left over. `compact` shows the compact form on one line (tight lists). `data-address`
// and `data-breaks` let the layout check (e2e/layout.ts) see where it broke.
import { type AddressPart, addressParts, breakPoints, compactParts, splitParts } from "../lib/address-parts";

type Ranges = readonly (readonly [number, number])[];

export function HighlightedAddress({
  address,
  ranges,
  className = "",
  compact = false,
}: {
  address: string;
  ranges: Ranges;
  className?: string;
  compact?: boolean;
}) {
  if (compact) {
    return (
      <span className={`font-mono whitespace-nowrap ${className}`} data-address={address} title={address}>
        <Parts parts={compactParts(address, ranges)} />
      </span>
    );
  }
  const at = breakPoints(address, ranges);
  const pieces = splitParts(addressParts(address, ranges), at);
  // inline-block: its own lines, which text-wrap: balance evens out (the box's other text is not balanced with it).
  return (
    <span className={`inline-block max-w-full font-mono text-balance ${className}`} data-address={address} data-breaks={at.join(",")}>
      {pieces.map((piece, i) => (
        <span key={i}>
          {i > 0 && <wbr />}
          <span className="whitespace-nowrap">
            <Parts parts={piece} />
          </span>
        </span>
      ))}
    </span>
  );
}

function Parts({ parts }: { parts: AddressPart[] }) {
  return parts.map((p, i) =>
    p.hit ? (
      <mark key={i} className="rounded bg-violet-500/30 px-0.5 font-bold text-violet-200">
        {p.text}
      </mark>
    ) : p.elided ? (
      <span key={i} className="text-slate-400">
        {p.text}
      </span>
    ) : (
      <span key={i}>{p.text}</span>
    ),
  );
}
