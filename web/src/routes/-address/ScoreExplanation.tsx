// What the rarity score means for this listing: the expected attempts, "as hard as N fixed hex characters",
// the time on one CPU core and on one GPU, and which characters make the pattern.
import type { ListingView } from "../../../../schema/browse";
import type { ListingDifficulty } from "../../../../schema/listing-context";
import { formatRarity } from "../../lib/rarity-display";
import { categoryWords } from "../../lib/category-words";
import { aboutDuration, compactNumber } from "../../lib/duration";

const keysPerSecond = (n: number) => `${compactNumber(n)} keys a second`;

export function ScoreExplanation({ listing, difficulty }: { listing: ListingView; difficulty: ListingDifficulty }) {
  const hasPattern = listing.pattern !== "custom" && listing.patternLength > 0;
  return (
    <section aria-labelledby="score-title" className="space-y-3 rounded-2xl border border-slate-800 bg-slate-900/60 p-5 sm:p-6">
      <h2 id="score-title" className="text-lg font-bold text-white">
        What the score {formatRarity(listing.rarityScore)} means
      </h2>
      {hasPattern ? (
        <p className="text-sm text-slate-300">
          The highlighted characters are the pattern <span className="font-mono font-semibold text-violet-200">{listing.pattern}</span> (
          {categoryWords(listing.category)}, {listing.patternLength} characters). A generator has to try random keys until one lands on it.
        </p>
      ) : (
        <p className="text-sm text-slate-300">This address has no notable pattern, so it is as easy to generate as any random address.</p>
      )}
      <dl className="grid gap-3 text-sm sm:grid-cols-2" data-testid="score-explanation">
        <Fact label="Expected attempts">
          {difficulty.attempts < 2 ? (
            "a single key"
          ) : (
            <>
              about {compactNumber(difficulty.attempts)} keys (2<sup className="text-xs">{Number(difficulty.log2.toFixed(1))}</sup>)
            </>
          )}
        </Fact>
        <Fact label="As hard as">{Number(difficulty.hexCharacters.toFixed(1))} fixed hex characters</Fact>
        <Fact label="On one CPU core of our grinder">
          {aboutDuration(difficulty.cpuCoreSeconds)} <span className="text-slate-400">at {keysPerSecond(difficulty.referenceRates.cpuCore)}</span>
        </Fact>
        <Fact label="On one high-end GPU (our grinder's kernel)">
          {aboutDuration(difficulty.gpuSeconds)} <span className="text-slate-400">at {keysPerSecond(difficulty.referenceRates.gpu)}</span>
        </Fact>
      </dl>
    </section>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="rounded-lg bg-slate-950/60 p-3">
      <dt className="text-xs tracking-wide text-slate-400 uppercase">{label}</dt>
      <dd className="mt-1 text-slate-100">{children}</dd>
    </div>
  );
}
