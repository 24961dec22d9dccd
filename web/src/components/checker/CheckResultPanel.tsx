import type { AddressCheckResponse, AddressCheckValid } from "../../../../schema/api";
import { compactNumber, formatDuration } from "../../lib/duration";
import { HighlightedAddress } from "../HighlightedAddress";

const rate = (n: number) => `${n.toLocaleString("en-US")} keys/s`;

function Stat({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="rounded-lg bg-slate-950/60 p-3">
      <dt className="text-xs tracking-wide text-slate-400 uppercase">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-white">{children}</dd>
    </div>
  );
}

/** Why the score is what it is: the pattern, the expected attempts, and the time at reference rates. */
function Explanation({ r }: { r: AddressCheckValid }) {
  if (r.pattern === "custom" || r.patternPosition === "none") {
    return (
      <p className="text-sm text-slate-300">
        No notable pattern: this address looks like any random one, so it takes a single attempt to generate something as rare.
      </p>
    );
  }
  const where = r.patternPosition === "prefix+suffix" ? "at both ends" : `as a ${r.patternPosition}`;
  return (
    <div className="space-y-2 text-sm text-slate-300" data-testid="rarity-explanation">
      <p>
        Pattern found: <span className="font-mono font-semibold text-violet-200">{r.pattern}</span> ({r.category}) {where}
        {r.caseSensitivePattern ? ", letter case included" : ""}.
      </p>
      <p>
        Expected attempts to generate it: <strong className="text-white">{compactNumber(r.difficulty.attempts)}</strong> (2
        <sup className="text-xs">{Number(r.difficulty.log2.toFixed(1))}</sup> random keys). The score is 10 × log₂(attempts) / 64, so 10 means 2<sup className="text-xs">64</sup>.
      </p>
      <ul className="list-inside list-disc">
        <li>
          One CPU core ({rate(r.referenceRates.cpuCore)}): about <strong className="text-white">{formatDuration(r.expectedTime.cpuCoreSeconds)}</strong>
        </li>
        <li>
          One high-end GPU ({rate(r.referenceRates.gpu)}): about <strong className="text-white">{formatDuration(r.expectedTime.gpuSeconds)}</strong>
        </li>
      </ul>
    </div>
  );
}

export function CheckResultPanel({ result }: { result: AddressCheckResponse }) {
  if (!result.isValid) {
    return (
      <div role="status" className="mt-5 rounded-xl border border-red-700/60 bg-red-950/40 p-4" data-testid="check-result">
        <h3 className="font-bold text-red-300">Invalid Address</h3>
        <p className="mt-1 text-sm text-red-100">{result.message}</p>
      </div>
    );
  }
  return (
    <div role="status" className="mt-5 space-y-4 rounded-xl border border-emerald-700/50 bg-emerald-950/20 p-4" data-testid="check-result">
      <h3 className="font-bold text-emerald-300">Valid Address</h3>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat label="Rarity Score">{result.rarityScore}/10</Stat>
        <Stat label="Est. Value">
          {result.estimatedValue} {result.currency}
        </Stat>
        <Stat label="Category">{result.category}</Stat>
        <Stat label="Network">{result.network === "ethereum" ? "Ethereum" : "Solana"}</Stat>
      </dl>
      <div>
        <div className="text-xs tracking-wide text-slate-400 uppercase">Address</div>
        <HighlightedAddress address={result.address} ranges={result.matchRanges} className="text-sm text-slate-200" />
      </div>
      <Explanation r={result} />
    </div>
  );
}
