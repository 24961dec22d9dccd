// /grind: grind a short Ethereum or Solana vanity address on the visitor's own GPU with WebGPU. The same kernels
// as our grinder (gpu/), run by the browser; the key is made, checked with @noble/curves and saved (an
// Ethereum V3 keystore; Solana's keypair file and Phantom's base58 key) in this page, and nothing about it is
// ever sent. The expected time comes from a measured rate.
import { createFileRoute, Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { pageTitle } from "../server-rendered/page-title";
import { compactNumber, formatDuration } from "../lib/duration";
import { readPattern } from "./-custom-order/order-rules";
import type { GrindPattern } from "./-grind/browser-kernel";
import { FoundKey } from "./-grind/FoundKey";
import { expectedSeconds, type GrindNetwork, readSolanaPattern, tooHardForBrowser } from "./-grind/grind-plan";
import { type Progress, useBrowserGrind } from "./-grind/use-browser-grind";
import { EMPTY_PATTERN, type PatternInput, PatternFields, PatternProblems } from "../components/PatternFields";
import { PowerOfTwo } from "../components/PowerOfTwo";

export const Route = createFileRoute("/grind")({
  head: () => pageTitle("Grind in Your Browser"),
  component: GrindPage,
});

const primary =
  "rounded-lg bg-violet-600 px-4 py-2 font-semibold text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-violet-300 disabled:cursor-not-allowed disabled:opacity-50";
const secondary =
  "rounded-lg border border-slate-700 px-4 py-2 font-semibold text-slate-200 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-not-allowed disabled:opacity-50";

/** The typed pattern as the network reads it: the kernel's pattern, the problems, the difficulty in bits. */
function readFor(network: GrindNetwork, input: PatternInput): { grind: GrindPattern; problems: string[]; bits: number } {
  if (network === "ethereum") {
    const { pattern, problems, bits } = readPattern(input);
    return { grind: { network, pattern }, problems, bits };
  }
  const { pattern, problems, bits } = readSolanaPattern(input);
  return { grind: { network, pattern }, problems, bits };
}

const showBits = (bits: number) => (Number.isInteger(bits) ? String(bits) : bits.toFixed(1));

const NETWORKS: { value: GrindNetwork; label: string }[] = [
  { value: "ethereum", label: "Ethereum" },
  { value: "solana", label: "Solana" },
];

function GrindPage() {
  const id = useId();
  const [network, setNetwork] = useState<GrindNetwork>("ethereum");
  const [typed, setTyped] = useState<PatternInput>(EMPTY_PATTERN);
  const { grind, problems, bits } = readFor(network, typed);
  const tooHard = problems.length === 0 ? tooHardForBrowser(bits, network) : null;
  const { state, calibrations, adapter, measure, start, stop, reset } = useBrowserGrind();
  const rate = calibrations[network]?.rate ?? null;
  const busy = state.phase === "measuring" || state.phase === "grinding";
  const gpuReady = state.phase !== "checking" && state.phase !== "unavailable";
  const patternReady = problems.length === 0 && tooHard === null;
  const expected = problems.length === 0 ? expectedSeconds(bits, rate ?? 0) : Infinity;
  const ethereum = network === "ethereum";

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-white">Grind an Address in Your Browser</h1>
      <p className="mt-2 text-slate-400">
        Find a short Ethereum or Solana vanity address on your own graphics card. Your browser runs our grinder's GPU kernels (WebGPU); the private key is made
        and checked in this page and <strong className="text-slate-200">never sent to us or anyone</strong>. For a longer Ethereum pattern,{" "}
        <Link to="/custom-order" className="text-violet-300 underline hover:text-violet-200">
          order a custom address
        </Link>
        : our grinder finds it with split keys, so its key is still yours alone.
      </p>

      {state.phase === "unavailable" && (
        <div className="mt-6 rounded-2xl border border-amber-600/60 bg-amber-950/40 p-5 text-amber-100" role="alert" data-testid="webgpu-unavailable">
          <h2 className="text-lg font-semibold">{state.title ?? "WebGPU is not available here"}</h2>
          <p className="mt-2 text-sm">{state.message}</p>
          <p className="mt-2 text-sm">
            You can still{" "}
            <Link to="/custom-order" className="underline">
              order a custom address
            </Link>{" "}
            or{" "}
            <Link to="/marketplace" className="underline">
              browse ready-made ones
            </Link>
            .
          </p>
        </div>
      )}

      <section aria-labelledby={`${id}-pattern`} className="mt-8 rounded-2xl border border-slate-800 bg-slate-900/60 p-5">
        <h2 id={`${id}-pattern`} className="text-lg font-semibold text-white">
          1. Your pattern
        </h2>
        <fieldset disabled={busy} className="mt-4 grid gap-4 sm:grid-cols-2">
          <fieldset className="flex flex-wrap items-center gap-2 sm:col-span-2">
            <legend className="sr-only">Network</legend>
            <span aria-hidden="true" className="text-sm text-slate-300">
              Network
            </span>
            {NETWORKS.map((n) => (
              <label
                key={n.value}
                className="cursor-pointer rounded-lg border border-slate-700 px-4 py-2 text-sm font-semibold text-slate-300 hover:bg-slate-800 has-[:checked]:border-violet-500 has-[:checked]:bg-violet-600/20 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-violet-400"
              >
                <input
                  type="radio"
                  name={`${id}-network`}
                  value={n.value}
                  checked={network === n.value}
                  onChange={() => setNetwork(n.value)}
                  className="sr-only"
                />
                {n.label}
              </label>
            ))}
          </fieldset>
          <PatternFields
            id={id}
            value={typed}
            onChange={setTyped}
            prefixLabel={ethereum ? "Starts with (after 0x)" : "Starts with"}
            placeholders={ethereum ? { prefix: "cafe", suffix: "f00d" } : { prefix: "Moon", suffix: "pay" }}
            caseHint={
              ethereum
                ? "Match letter case exactly (EIP-55 checksum case). Each letter then doubles the work."
                : "Match letter case exactly. Without it a letter matches either case base58 has (o, i and L have one), which is faster."
            }
          />
        </fieldset>
        <PatternProblems value={typed} problems={problems} />
        {tooHard && (
          <p className="mt-3 text-sm text-amber-300" role="alert">
            {tooHard}
          </p>
        )}
        {problems.length === 0 && (
          <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="grind-estimate">
            <Stat label="Difficulty">
              <PowerOfTwo bits={showBits(bits)} />
            </Stat>
            <Stat label="Expected attempts">{compactNumber(2 ** bits)}</Stat>
            <Stat label="Expected time">{rate ? formatDuration(expected) : "measure the speed first"}</Stat>
          </dl>
        )}
      </section>

      <section aria-labelledby={`${id}-gpu`} className="mt-6 rounded-2xl border border-slate-800 bg-slate-900/60 p-5">
        <h2 id={`${id}-gpu`} className="text-lg font-semibold text-white">
          2. Your graphics adapter
        </h2>
        <p className="mt-2 text-sm text-slate-300" data-testid="gpu-status">
          {state.phase === "checking"
            ? "Looking for WebGPU…"
            : !gpuReady
              ? "No graphics adapter available (see above)."
              : state.phase === "measuring"
                ? "Measuring: preparing the kernel (up to a minute the first time), checking the GPU's answers against the CPU, and a short test run…"
                : rate
                  ? `${adapter?.subject ?? "The adapter"} checks about ${compactNumber(Math.round(rate))} ${ethereum ? "Ethereum" : "Solana"} addresses a second in this tab.`
                  : `Found ${adapter?.found ?? "a graphics adapter"}. Measure its speed for ${ethereum ? "Ethereum" : "Solana"} to see how long your pattern takes.`}
        </p>
        <button type="button" className={`${secondary} mt-3`} disabled={!gpuReady || busy} onClick={() => void measure(network)}>
          {state.phase === "measuring" ? "Measuring…" : rate ? "Measure again" : "Measure speed"}
        </button>
      </section>

      <section aria-labelledby={`${id}-grind`} className="mt-6 rounded-2xl border border-slate-800 bg-slate-900/60 p-5">
        <h2 id={`${id}-grind`} className="text-lg font-semibold text-white">
          3. Grind
        </h2>
        {!rate && gpuReady && <p className="mt-2 text-sm text-slate-400">Measure the speed first, so you know the expected time before you start.</p>}
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className={primary} disabled={!gpuReady || busy || !patternReady || !rate} onClick={() => void start(grind)}>
            Start grinding
          </button>
          <button type="button" className={secondary} disabled={state.phase !== "grinding"} onClick={stop}>
            Stop
          </button>
        </div>
        {"progress" in state && <ProgressStats progress={state.progress} expectedAttempts={2 ** bits} live={state.phase === "grinding"} />}
        <p className="mt-3 text-sm text-slate-300" role="status" data-testid="grind-status">
          {state.phase === "grinding"
            ? `Grinding on ${adapter?.on ?? "the graphics adapter"}… keep this tab open.`
            : state.phase === "stopped"
              ? `Stopped after ${compactNumber(state.progress.attempts)} attempts. Nothing was found, and nothing was kept.`
              : state.phase === "found"
                ? `Found after ${compactNumber(state.progress.attempts)} attempts in ${formatDuration(state.progress.seconds)}.`
                : ""}
        </p>
        {state.phase === "failed" && (
          <p className="mt-3 rounded-lg border border-red-700/60 bg-red-950/40 p-3 text-sm text-red-200" role="alert">
            {state.message}
          </p>
        )}
      </section>

      {state.phase === "found" && (
        <div className="mt-6 space-y-3">
          <FoundKey network={state.network} address={state.address} privateKey={state.privateKey} />
          <button type="button" className={secondary} onClick={reset}>
            Grind another (this key is dropped unless you saved it)
          </button>
        </div>
      )}
    </div>
  );
}

function ProgressStats({ progress, expectedAttempts, live }: { progress: Progress; expectedAttempts: number; live: boolean }) {
  const share = progress.attempts / expectedAttempts;
  return (
    <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="grind-progress">
      <Stat label="Attempts">
        <span data-testid="progress-attempts">{compactNumber(progress.attempts)}</span>
        {live && (
          <span className="block text-xs text-slate-400">
            {share < 2 ? `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}% of the expected number` : "past the expected number: luck varies"}
          </span>
        )}
      </Stat>
      <Stat label="Speed">{compactNumber(Math.round(progress.rate))}/s</Stat>
      <Stat label="Elapsed">{formatDuration(progress.seconds)}</Stat>
      {/* every attempt is independent: the expected time left does not shrink as attempts add up */}
      {live && <Stat label="Expected time left">{formatDuration(progress.rate > 0 ? expectedAttempts / progress.rate : Infinity)}</Stat>}
    </dl>
  );
}

function Stat({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-800 bg-slate-950/60 p-3">
      <dt className="text-xs tracking-wide text-slate-400 uppercase">{label}</dt>
      <dd className="mt-1 text-sm text-slate-100">{children}</dd>
    </div>
  );
}
