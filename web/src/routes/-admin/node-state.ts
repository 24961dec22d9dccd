// How Admin > Health words one chain node's last probe by the cron (docs/operations.md#health): in words first, so
// the state never rests on colour alone.
import { formatDayTime, formatTime, relativeTime, sameLocalDay } from "../../lib/date-format";
import { formatCount } from "../../lib/number-format";

type Network = "ethereum" | "solana";

/** One node's probe as /api/health gives it to an admin (operations.nodes[].status[]). */
export type NodeProbe = {
  ok: boolean | null;
  head: number | null;
  behind: number | null;
  lagging: boolean;
  failingSince: string | null;
  error: string | null;
};

export type NodeState = { tone: "ok" | "behind" | "down" | "unknown"; label: string; detail: string | null };

/** The time alone today ("2:05 PM"), else the day and time, in the viewer's locale and time zone. */
function clock(when: string, now: number): string {
  return sameLocalDay(when, now) ? formatTime(when) : formatDayTime(when);
}

export function nodeState(network: Network, probe: NodeProbe, now = Date.now()): NodeState {
  const unit = network === "ethereum" ? "block" : "slot";
  // A block number or slot is an identifier: written as the chain's explorers write it, without separators.
  const head = probe.head === null ? null : `${unit} ${probe.head}`;
  if (probe.ok === null) return { tone: "unknown", label: "Not probed yet", detail: "The cron asks every node once a minute." };
  if (!probe.ok) {
    const since = probe.failingSince ? `Down since ${clock(probe.failingSince, now)} (${relativeTime(probe.failingSince, now)})` : "Down";
    return { tone: "down", label: since, detail: [probe.error, head && `last head ${head}`].filter(Boolean).join(" · ") || null };
  }
  if (probe.lagging && probe.behind !== null)
    return { tone: "behind", label: `Behind by ${formatCount(probe.behind)} ${unit}${probe.behind === 1 ? "" : "s"}`, detail: head && `head ${head}` };
  return { tone: "ok", label: "Answering", detail: head && `head ${head}${probe.behind ? `, ${formatCount(probe.behind)} behind the best` : ""}` };
}
