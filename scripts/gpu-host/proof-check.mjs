// node proof-check.mjs proof.log: checks a proof run of the grinder CLI (measure.sh) against its own figures.
// The CLI prints the attempts a match takes on average, a progress line a second (attempts, keys found) and a
// last line with the attempts and the time. Keys found should be attempts / (attempts per match), give or take
// Poisson noise (one standard deviation is 1 / sqrt(found): 10% at 100 keys, 2.6% at 1,500): more keys than
// that means the kernel reports what it should not, fewer that it misses matches or counts attempts it did
// not make. Prints a table over time, then the verdict: found within 10% of expected, or exit status 1 (10% is
// over three standard deviations from 1,000 keys up, so a sound kernel fails it about once in 700 runs).
// Plain JavaScript: it runs on the GPU host's bare Node.
import { readFileSync } from "node:fs";

const log = readFileSync(process.argv[2], "utf8");
const num = (s) => Number(s.replaceAll(",", ""));
const perMatch = num(/~([\d,]+) attempts per match/.exec(log)?.[1] ?? "NaN");
// the CLI's durations: "12.3s", or "1m05s" from a minute on
const secondsOf = (minutes, seconds) => 60 * Number(minutes ?? 0) + Number(seconds);
const rows = [...log.matchAll(/^(?:(\d+)m)?([\d.]+)s \| ([\d,]+) keys\/s \| attempts ([\d,]+) \| found (\d+)\/\d+/gm)].map((m) => ({
  seconds: secondsOf(m[1], m[2]),
  rate: num(m[3]),
  attempts: num(m[4]),
  found: Number(m[5]),
}));
const done = /^(?:done|stopped): (\d+)\/\d+ written to .* in (?:(\d+)m)?([\d.]+)s, ([\d,]+) attempts \(([\d,]+) keys\/s\)/m.exec(log);
if (!Number.isFinite(perMatch) || !done) {
  console.log("proof: verdict FAIL: no result to check (the run did not finish: see the log above)");
  process.exit(1);
}
const fmt = (n, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const found = Number(done[1]);
const seconds = secondsOf(done[2], done[3]);
const attempts = num(done[4]);
console.log(`proof: ${fmt(perMatch)} attempts per match (the CLI's exact figure for this pattern)`);
console.log("proof: time (s)  keys/s (printed)     attempts            found  expected  found/expected");
for (const r of [...rows, { seconds, rate: num(done[5]), attempts, found }]) {
  const expected = r.attempts / perMatch;
  console.log(
    `proof: ${fmt(r.seconds, 1).padStart(8)}  ${fmt(r.rate).padStart(16)}  ${fmt(r.attempts).padStart(18)}  ${String(r.found).padStart(6)}  ${fmt(expected, 1).padStart(8)}  ${expected > 0 ? fmt(r.found / expected, 3) : "-"}`,
  );
}
// The verdict is taken at the last progress line before the count was reached: the run stops in the middle of
// its last dispatch, whose attempts are all counted while its keys beyond the count are not, so the last line
// would read low by up to one dispatch's keys (tens at 1,500 keys). Attempts and keys both move once per
// dispatch, so any earlier line is a fair sample.
const count = Number(/ (\d+) to find,/.exec(log)?.[1] ?? found);
const before = rows.filter((r) => r.found < count && r.found > 0).at(-1);
const at = before ?? { seconds, attempts, found };
const expected = at.attempts / perMatch;
const sigma = at.found > 0 ? 1 / Math.sqrt(at.found) : 1;
const off = at.found / expected - 1;
console.log(
  `proof: ${found} keys in ${fmt(seconds, 1)} s at ${fmt(attempts / seconds / 1e6, 1)} M attempts/s averaged (ramp-up included); at ${fmt(at.seconds, 1)} s (${before ? "the last progress line before the count" : "the end: no progress line before it, so up to one dispatch's keys low"}): ${at.found} found, ${fmt(expected, 1)} expected at ${fmt(at.attempts)} attempts: ${off >= 0 ? "+" : ""}${fmt(100 * off, 1)}% (Poisson 1 sigma at ${at.found} keys: ${fmt(100 * sigma, 1)}%; within 10%: ${Math.abs(off) <= 0.1 ? "yes" : "no"})`,
);
const printedRate = before ? before.rate : num(done[5]);
console.log(
  `proof: keys found per second ${fmt(at.found / at.seconds, 2)}; the printed rate predicts ${fmt(printedRate / perMatch, 2)} (${fmt(printedRate)} keys/s / ${fmt(perMatch)} attempts per match; the printed rate is smoothed, so this one also carries the ramp-up)`,
);
const within = Math.abs(off) <= 0.1;
console.log(
  `proof: verdict ${within ? "PASS" : "FAIL"}: ${at.found} found, ${fmt(expected, 1)} expected (${off >= 0 ? "+" : ""}${fmt(100 * off, 1)}%, limit ±10%)${at.found < 900 ? `; at ${at.found} keys one Poisson standard deviation is ${fmt(100 * sigma, 1)}%, so 10% says little` : ""}`,
);
process.exit(within ? 0 : 1);
