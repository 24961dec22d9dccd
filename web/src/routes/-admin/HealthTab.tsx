// Admin > Health (docs/operations.md#health): the last cron run and each task's outcome, each chain's nodes as the
// cron last probed them (by host, answering, behind the others by N blocks or slots, or down since when and why, and
// whether the chain has the quorum of answering nodes that settling a payment needs), the nodes that disagreed, the
// database's migrations and the grinders (PlatformHealth.tsx). The same answer as /api/health's `operations`.
import { useQuery } from "@tanstack/react-query";
import { errorMessage } from "../../api/error-message";
import { type Health, healthQuery } from "../../api/operations";
import { Spinner } from "../../components/Spinner";
import { relativeTime } from "../../lib/date-format";
import { shortAddress } from "../../lib/short-address";
import { type NodeState, nodeState } from "./node-state";
import { CronRunPanel, GrindersPanel, MigrationsPanel } from "./PlatformHealth";
import { networkName } from "../../../../schema/network";

type Operations = NonNullable<Health["operations"]>;

export function HealthTab() {
  const health = useQuery(healthQuery());
  if (health.isPending) return <Spinner label="Loading health…" />;
  if (health.isError) {
    return (
      <p role="alert" className="rounded-xl border border-red-700 bg-red-950/40 p-4 text-sm text-red-200">
        Health could not be loaded: {errorMessage(health.error)}
      </p>
    );
  }
  const operations = health.data.operations;
  if (!operations) {
    return (
      <p role="alert" className="rounded-xl border border-amber-700 bg-amber-950/40 p-4 text-sm text-amber-100">
        The health details are for admins only: sign in again with an admin wallet.
      </p>
    );
  }
  return (
    <div className="space-y-8">
      <CronRunPanel run={operations.lastCronRun} />
      <ChainNodes operations={operations} />
      <NodeDisagreements disagreements={operations.nodeDisagreements} />
      <MigrationsPanel migrations={operations.migrations} />
      <GrindersPanel grinders={operations.grinders} />
    </div>
  );
}

const TONE: Record<NodeState["tone"], string> = {
  ok: "border-emerald-700/60 bg-emerald-950/30 text-emerald-200",
  behind: "border-amber-600/60 bg-amber-950/30 text-amber-100",
  down: "border-red-700 bg-red-950/40 text-red-200",
  unknown: "border-slate-700 bg-slate-900/60 text-slate-300",
};

/** The nodes of each chain; rendered on its own so it can be checked without a server (node-state.test.ts). */
export function ChainNodes({ operations, now = Date.now() }: { operations: Pick<Operations, "chains" | "nodes">; now?: number }) {
  return (
    <section aria-labelledby="health-nodes-title" className="space-y-4">
      <div>
        <h2 id="health-nodes-title" className="text-xl font-semibold text-white">
          Chain nodes
        </h2>
        <p className="mt-1 text-sm text-slate-400">
          The cron asks every node for its head once a minute. A payment settles only when the quorum of a chain's nodes agree, so one node down can make
          payments wait.
        </p>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        {operations.nodes.map((n) => {
          const chain = operations.chains.find((c) => c.network === n.network);
          const name = networkName(n.network);
          const headingId = `health-${n.network}-title`;
          return (
            <section
              key={n.network}
              aria-labelledby={headingId}
              data-testid={`health-${n.network}`}
              className="min-w-0 rounded-2xl border border-slate-800 p-4"
            >
              <h3 id={headingId} className="font-semibold text-white">
                {name}
              </h3>
              <p className="mt-1 text-sm text-slate-400">
                {n.singleNode ? "One node decides alone (no second opinion)." : `${n.quorum} of ${n.hosts.length} nodes must agree.`}{" "}
                {chain?.ok === false ? (
                  <span className="font-medium text-red-300">Too few nodes answer: payments wait.</span>
                ) : chain?.ok ? (
                  <span className="text-emerald-300">Enough nodes answer.</span>
                ) : null}
              </p>
              {n.status.length === 0 ? (
                <p className="mt-3 text-sm text-slate-400">No node is configured.</p>
              ) : (
                <ul aria-label={`${name} nodes`} className="mt-3 space-y-2">
                  {n.status.map((s) => {
                    const state = nodeState(n.network, s, now);
                    return (
                      <li key={s.host} data-testid="health-node" data-state={state.tone} className={`rounded-xl border px-3 py-2 text-sm ${TONE[state.tone]}`}>
                        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                          <span className="font-mono break-all text-slate-100">{s.host}</span>
                          <span className="font-medium">{state.label}</span>
                        </div>
                        {state.detail && <p className="mt-1 break-words text-xs text-slate-300">{state.detail}</p>}
                      </li>
                    );
                  })}
                </ul>
              )}
            </section>
          );
        })}
      </div>
    </section>
  );
}

/**
 * Nodes that contradicted the others about a payment in the last week (docs/payments.md#trust-no-single-node): such a
 * node blocked a key's release, so an operator should look at it (or remove it from the settings).
 */
export function NodeDisagreements({ disagreements, now = Date.now() }: { disagreements: Operations["nodeDisagreements"]; now?: number }) {
  return (
    <section aria-labelledby="health-disagreements-title" className="space-y-3">
      <div>
        <h2 id="health-disagreements-title" className="text-xl font-semibold text-white">
          Nodes that disagreed
        </h2>
        <p className="mt-1 text-sm text-slate-400">
          In the last 7 days. A node whose answer about a payment differs from the others blocks that payment&apos;s key until they agree.
        </p>
      </div>
      {disagreements.length === 0 ? (
        <p data-testid="health-disagreements-empty" className="text-sm text-slate-400">
          No node has contradicted the others.
        </p>
      ) : (
        <ul aria-label="Nodes that disagreed" className="space-y-2">
          {disagreements.map((d) => (
            <li
              key={`${d.network}:${d.node}:${d.txHash ?? ""}`}
              data-testid="health-disagreement"
              className="rounded-xl border border-red-700 bg-red-950/40 px-3 py-2 text-sm text-red-100"
            >
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <span className="font-mono break-all">
                  {d.node} <span className="font-sans text-red-200/80">({d.network === "ethereum" ? "Ethereum" : "Solana"})</span>
                </span>
                <span>
                  {d.times === 1 ? "once" : `${d.times} times`}, last {relativeTime(d.lastSeenAt, now)}
                </span>
              </div>
              <p className="mt-1 break-words text-xs text-red-200">
                {d.detail}
                {d.txHash && (
                  <>
                    {" "}
                    · payment{" "}
                    <span className="font-mono" title={d.txHash}>
                      {shortAddress(d.txHash)}
                    </span>
                  </>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
