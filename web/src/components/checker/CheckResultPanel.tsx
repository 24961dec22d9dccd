import { Link } from "@tanstack/react-router";
import type { AddressCheckResponse, AddressCheckValid } from "../../../../schema/api";
import { categoryLabel, categoryWords } from "../../lib/category-words";
import { aboutDuration, compactNumber, formatDuration } from "../../lib/duration";
import { formatPriceTrimmed } from "../../lib/number-format";
import { HighlightedAddress } from "../HighlightedAddress";
import { networkName } from "../../../../schema/network";

const rate = (n: number) => `${n.toLocaleString("en-US")} keys/s`;

function Stat({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="rounded-lg bg-slate-950/60 p-3">
      <dt className="text-xs tracking-wide text-slate-400 uppercase">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-white">{children}</dd>
    </div>
  );
}

/** The checked address is listed here and can be bought: say so, with its price, and link to its page. */
export function ForSaleLink({ listing }: { listing: NonNullable<AddressCheckValid["listing"]> }) {
  return (
    <p className="rounded-lg border border-violet-700/60 bg-violet-950/40 p-3 text-sm text-violet-100" data-testid="for-sale-notice">
      This address is for sale here at{" "}
      <strong className="text-white">
        {formatPriceTrimmed(listing.price)} {listing.currency}
      </strong>
      .{" "}
      <Link
        to="/address/$id"
        params={{ id: String(listing.id) }}
        className="font-semibold text-violet-300 underline underline-offset-2 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        See the listing
      </Link>
    </p>
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
        Pattern found: <span className="font-mono font-semibold text-violet-200">{r.pattern}</span> ({categoryWords(r.category)}) {where}
        {r.caseSensitivePattern ? ", letter case included" : ""}.
      </p>
      <p data-testid="rarity-meaning">
        As hard as <strong className="text-white">{r.hexCharacters.toFixed(1)} fixed hex characters</strong>: about{" "}
        <strong className="text-white">{compactNumber(r.difficulty.attempts)}</strong> attempts (2
        <sup className="text-xs">{Number(r.difficulty.log2.toFixed(1))}</sup> random keys),{" "}
        <strong className="text-white">{formatDuration(r.expectedTime.cpuCoreSeconds)}</strong> on one CPU core of our grinder,{" "}
        <strong className="text-white">{formatDuration(r.expectedTime.gpuSeconds)}</strong> on one high-end GPU. The score is log₂(attempts) / 4: one point per
        fixed hex character, 10 from 2<sup className="text-xs">40</sup> attempts.
      </p>
      <ul className="list-inside list-disc">
        <li>
          One CPU core of our grinder ({rate(r.referenceRates.cpuCore)}): <strong className="text-white">{aboutDuration(r.expectedTime.cpuCoreSeconds)}</strong>
        </li>
        <li>
          One high-end GPU running our grinder's kernel ({rate(r.referenceRates.gpu)}):{" "}
          <strong className="text-white">{aboutDuration(r.expectedTime.gpuSeconds)}</strong>
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
      {result.keyless && (
        <p className="rounded-lg border border-amber-600/60 bg-amber-950/40 p-3 text-sm text-amber-100" data-testid="keyless-notice">
          <strong className="text-amber-300">No private key exists.</strong> {result.keyless.message} It is worth nothing here and cannot be listed.
        </p>
      )}
      {result.listing && <ForSaleLink listing={result.listing} />}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat label="Rarity Score">{result.rarityScore}/10</Stat>
        <Stat label="Est. Value">
          {result.estimatedValue} {result.currency}
        </Stat>
        <Stat label="Category">{categoryLabel(result.category)}</Stat>
        <Stat label="Network">{networkName(result.network)}</Stat>
      </dl>
      <div>
        <div className="text-xs tracking-wide text-slate-400 uppercase">Address</div>
        <HighlightedAddress address={result.address} ranges={result.matchRanges} className="text-sm text-slate-200" />
      </div>
      <Explanation r={result} />
    </div>
  );
}
