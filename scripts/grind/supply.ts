// npm run grind -- --supply [--api URL] [--threads T] [--gpu[=auto]] [--once] [--poll S] [--quiet]
// Keeps the store stocked (docs/supply.md): claims work on the supply target that lacks most listings, grinds its
// pattern on every core (or the GPU), re-derives each hit (verify.ts), seals it to the marketplace's intake key at
// once (HPKE, schema/sealed-intake.ts) and lists it under the claim at the target's price. No key reaches this
// disk. Progress reports every 10 s renew the claim; the server's answer says when the target is full or paused,
// and the grinder claims again. Stopped by a signal it gives the claim up.
import { availableParallelism } from "node:os";
import type { IntakeKeyResponse, SealedRow } from "../../schema/sealed-intake";
import { sealIntakeRow } from "../../schema/sealed-intake";
import type { SupplyClaimAnswer, SupplyClaimView, SupplyProgressAnswer, SupplySealedAnswer } from "../../schema/supply";
import { gpuUnsupported } from "../../gpu/solana-pattern.ts";
import { writeUnsent } from "./list.ts";
import { grinderKey, OrdersApi, OrdersApiError } from "./orders-api.ts";
import type { OrdersOptions } from "./args.ts";
import type { PatternSpec } from "../../schema/grind-pattern.ts";
import { fmtInt, SearchProgress } from "./progress.ts";
import { gpuSource, type OpenGpu, ordersGpu, solanaGpuSource } from "./gpu-source.ts";
import { cpuSource, type SearchSource } from "./search-source.ts";
import { VerificationError, verifiedRow } from "./verify.ts";

export const SUPPLY_USAGE = `Usage: npm run grind -- --supply [--api URL] [--threads T] [--gpu[=auto]] [--once] [--poll S] [--quiet]

Keeps the marketplace's supply targets (Admin > Supply) stocked: signs in as an admin with Sign-In with
Ethereum, claims work on the target that lacks most listings, grinds its pattern, seals each verified key to
the marketplace's intake key and lists it at the target's price. Reports progress every 10 s (which keeps the
claim); when the target is full or paused it claims again. Keys are never written to this disk.

  --api URL        the marketplace (default http://127.0.0.1:8787)
  -t, --threads T  worker threads (default: all ${availableParallelism()} cores)
  --gpu            search on the GPU instead, a software adapter too (exit 4 when no GPU adapter can be opened)
  --gpu=auto       a hardware GPU when there is one, else the CPU threads
  --once           stock the targets that want work now, then exit (default: keep polling)
  --poll S         seconds between claims when no target wants work, 1 to 60 (default 10)
  -q, --quiet      no progress line

Authentication: GRINDER_ADMIN_KEY=0x<64 hex>, the private key of an admin wallet (ADMIN_WALLETS). Against
a local API (localhost, 127.0.0.1) it defaults to anvil's public dev account 0, the local admin.`;

/** The supply calls the loop makes (orders-api.ts implements them over a signed-in admin session). */
export interface SupplyApi {
  intakeKey(): Promise<IntakeKeyResponse>;
  supplyClaim(): Promise<SupplyClaimAnswer>;
  supplyProgress(id: number, attempts: number, rate: number): Promise<SupplyProgressAnswer>;
  supplySealed(id: number, rows: SealedRow[]): Promise<SupplySealedAnswer>;
  supplyRelease(id: number): Promise<unknown>;
}

export type SupplyRun = {
  options: Pick<OrdersOptions, "threads" | "once" | "pollSeconds" | "quiet">;
  api: SupplyApi;
  /** the GPU to grind on, or null for the CPU threads */
  gpu: OpenGpu | null;
  log: (line: string) => void;
  progressEveryMs?: number;
  /** uploads tried per sealed hit before it is kept sealed in `unsentPath` and the run stops */
  uploadAttempts?: number;
  retryMs?: number;
  unsentPath?: string;
  /**
   * Asked after each progress report: true stops the claim ("interrupted"; the caller gives it up). The order
   * grinder asks whether a custom order waits: orders come first.
   */
  interrupt?: () => Promise<boolean>;
};

type Outcome = "stop" | "lost" | "interrupted";

/** What the claim's target asks the search for. */
const specOf = (claim: SupplyClaimView): PatternSpec => ({
  network: claim.network,
  prefix: claim.prefix,
  suffix: claim.suffix,
  caseSensitive: claim.caseSensitive,
});

function sourceFor(spec: PatternSpec, gpu: OpenGpu | null, threads: number): SearchSource {
  if (gpu === null || gpuUnsupported(spec) !== null) return cpuSource({ spec }, threads);
  return spec.network === "solana" ? solanaGpuSource(gpu, { pattern: spec }) : gpuSource(gpu, { pattern: spec });
}

const lostClaim = (e: unknown) => e instanceof OrdersApiError && (e.status === 404 || e.status === 409);

/** Grinds one claim until the server says stop, the claim is no longer ours, it is interrupted, or a hit cannot be listed. */
export async function grindClaim(run: SupplyRun, claim: SupplyClaimView, key: IntakeKeyResponse): Promise<Outcome> {
  const { api, log, options: o } = run;
  const spec = specOf(claim);
  const source = sourceFor(spec, run.gpu, o.threads);
  const name = `claim ${claim.id} (target ${claim.targetId}: ${claim.network} ${claim.category} ${claim.patternLength}+)`;
  log(
    `${name}: ${claim.shortfall} wanted at ${claim.price} ${claim.currency}, ~${fmtInt(Number(claim.expectedAttempts))} attempts each, ${source.description}`,
  );
  const progress = new SearchProgress();
  const seen = new Set<string>();
  const attempts = run.uploadAttempts ?? 3;
  let uploads: Promise<void> = Promise.resolve();

  return await new Promise<Outcome>((resolve, reject) => {
    let done = false;
    /** a hit that could not be listed: the run stops with it once the uploads before it are through */
    let failure: Error | null = null;
    const finish = (outcome: Outcome | Error) => {
      if (done) return;
      done = true;
      clearInterval(reporter);
      source.stop();
      // Hits found before the stop are still sealed and sent (or kept sealed) before the next claim.
      void uploads.then(() => {
        const error = failure ?? (outcome instanceof Error ? outcome : null);
        if (error) reject(error);
        else resolve(outcome as Outcome);
      });
    };
    let lost = false;
    const onError = (e: unknown) => {
      if (lostClaim(e)) {
        lost = true;
        log(`${name}: no longer ours (${(e as Error).message}); claiming again`);
        finish("lost");
      } else finish(e as Error);
    };

    /** Seals the verified row now and lists it after the earlier ones; a hit never waits in plain text. */
    const list = (row: ReturnType<typeof verifiedRow>) => {
      const sealed = sealIntakeRow(key, row);
      const upload = async () => {
        const body = await sealed;
        // After a hit could not be listed, or once the claim is lost, the rest are not sent: they are dropped, sealed.
        if (failure || lost) return;
        for (let attempt = 1; ; attempt++) {
          try {
            const answer = await api.supplySealed(claim.id, [body]);
            const result = answer.results[0];
            if (result?.status === "success") log(`${name}: listed ${row.address} as listing #${result.id} at ${result.price} ${result.currency}`);
            else log(`${name}: refused ${row.address}: ${result ? `${result.reason}: ${result.message}` : "no result"}`);
            if (!answer.continue) {
              log(`${name}: the target needs no more; claiming again`);
              finish("stop");
            }
            return;
          } catch (e) {
            if (lostClaim(e)) return onError(e);
            if (attempt >= attempts) {
              const path = run.unsentPath ?? `unsent-sealed-${Date.now()}.json`;
              writeUnsent(path, [body]);
              failure = new Error(`could not list ${row.address} (${(e as Error).message}); kept sealed in ${path}`);
              return finish(failure);
            }
            await new Promise((r) => setTimeout(r, (run.retryMs ?? 1000) * 2 ** (attempt - 1)));
          }
        }
      };
      uploads = uploads.then(upload).catch((e: Error) => {
        failure ??= e;
        finish(failure);
      });
    };

    source.start({
      ready: () => progress.ready(),
      attempts: (n) => progress.add(n),
      found: (found) => {
        if (done || !("privateKey" in found)) return;
        try {
          const row = verifiedRow(spec, found.address, found.privateKey);
          if (seen.has(row.address)) return;
          seen.add(row.address);
          list(row);
          // As many hits as the target lacks, then the server's answers decide: claiming again gives the same claim
          // with what it still lacks, or other work.
          if (seen.size >= claim.shortfall) finish("stop");
        } catch (e) {
          const what = source.kind === "gpu" ? "GPU kernel fault" : "BUG";
          finish(new Error(e instanceof VerificationError ? `${what}: a reported hit does not verify, nothing listed: ${e.message}` : String(e)));
        }
      },
      fail: (e) => finish(e),
      notice: (line) => {
        if (!o.quiet) log(`${name}: ${line}`);
      },
    });

    const reporter = setInterval(() => {
      progress.tick();
      api.supplyProgress(claim.id, progress.attempts, progress.rate).then((answer) => {
        if (!o.quiet) log(`${name}: ${fmtInt(progress.rate)} keys/s, ${fmtInt(progress.attempts)} attempts`);
        if (!answer.continue) {
          log(`${name}: the target is full or paused; claiming again`);
          return finish("stop");
        }
        return run.interrupt?.().then((stop) => {
          if (stop) finish("interrupted");
        });
      }, onError);
    }, run.progressEveryMs ?? 10_000);
  });
}

/** The CLI's --supply: signs in, opens the GPU if asked, gives the claim up on a signal, and runs the loop. */
export async function supplyFromCli(o: OrdersOptions): Promise<number> {
  const gpu = await ordersGpu(o.gpu);
  if (typeof gpu === "number") return gpu;
  const label = gpu ? `GPU ${gpu.name}`.slice(0, 80) : `CPU, ${o.threads} thread${o.threads === 1 ? "" : "s"}`;
  const api = new OrdersApi(o.api, grinderKey(o.api, process.env), label);
  await api.signIn();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(`stocking supply targets of ${o.api} as ${api.wallet} (${label}; grinder ${api.grinder})`);
  const current: { id: number | null } = { id: null };
  const stopOn = (signal: NodeJS.Signals, code: number) =>
    process.once(signal, () => {
      const id = current.id;
      log(`\n${signal}: stopping${id === null ? "" : `; claim ${id} is given up`}`);
      const release = id === null ? Promise.resolve() : api.supplyRelease(id).catch(() => undefined);
      void Promise.race([release, new Promise((r) => setTimeout(r, 3000))]).then(() => process.exit(code));
    });
  stopOn("SIGINT", 130);
  stopOn("SIGTERM", 143);
  return runSupply({ options: o, api, gpu, log }, current);
}

/** Claims and grinds until stopped (or, with --once, until no target wants work). Returns the exit code. */
export async function runSupply(run: SupplyRun, current: { id: number | null } = { id: null }): Promise<number> {
  const key = await run.api.intakeKey();
  run.log(`sealing hits to the intake key ${key.keyId}`);
  for (;;) {
    const { claim } = await run.api.supplyClaim();
    if (claim === null) {
      if (run.options.once) break;
      await new Promise((r) => setTimeout(r, run.options.pollSeconds * 1000));
      continue;
    }
    current.id = claim.id;
    await grindClaim(run, claim, key);
    current.id = null;
  }
  run.log("done: no target wants work now");
  return 0;
}
