// The end-of-soak verdicts (docs/testing.md#soak): the invariants of docs/payments.md checked on what the soak saw
// (its actors' answers, the transfers they sent), what D1 holds at the end, and what the chains themselves say about
// each paid purchase (asked directly, never through the fault proxy). Pure: `npm run soak` gathers the facts,
// scripts/soak/invariants.test.ts feeds it fixtures.

export type Network = "ethereum" | "solana";

export type PurchaseRow = {
  id: string;
  network: Network;
  addressId: number;
  status: string;
  buyerWallet: string | null;
  txHash: string | null;
  amountBaseUnits: string | null;
  expiresAt: number | null;
};
export type LedgerRow = { network: Network; txHash: string | null; status: string; refundStatus: string | null; transactionId: string | null };
export type AttentionRow = { network: Network; txHash: string | null; status: string };
/** What the chain says of a purchase's payment, asked of the node directly. */
export type ChainPayment = { found: false } | { found: true; success: boolean; from: string; to: string; value: bigint; final: boolean };
/** A transfer an actor sent to the platform and saw land. */
export type SentTransfer = { network: Network; hash: string; actor: string; value: bigint };

export type SoakFacts = {
  now: number;
  platform: Record<Network, string>;
  purchases: PurchaseRow[];
  ledger: LedgerRow[];
  attention: AttentionRow[];
  /** Keyed by `${network}:${hash}` for every verified or completed purchase's hash. */
  chain: Map<string, ChainPayment>;
  sent: SentTransfer[];
  /** Purchases whose key an actor was handed. */
  keysRevealed: { purchaseId: string; actor: string }[];
  /** How many API answers the actors got, and every one of 500 or more. */
  answers: number;
  serverErrors: { path: string; status: number; message: string }[];
  /** Slack on "no reservation open past expiry": the cron job expires them on its next run. */
  cronSlackMs: number;
};

export type Verdict = { name: string; ok: boolean; checked: number; violations: string[] };

/** docs/payments.md#deadlines: the deadline is expiry + 10 min, the last deadline 60 min after it. */
export const LAST_DEADLINE_AFTER_EXPIRY_MS = 70 * 60_000;

const PAID = new Set(["verified", "completed"]);
const key = (network: Network, hash: string) => `${network}:${network === "ethereum" ? hash.toLowerCase() : hash}`;
const sameWallet = (network: Network, a: string, b: string) => (network === "ethereum" ? a.toLowerCase() === b.toLowerCase() : a === b);
const verdict = (name: string, checked: number, violations: string[]): Verdict => ({ name, ok: violations.length === 0, checked, violations });

/**
 * Every transfer the actors sent is credited to a purchase, listed for attention, or recorded as dust (I4). A ledger
 * row still `held` (waiting for depth) is not accounted for yet. Also what the soak waits on before its end checks.
 */
export function unaccountedTransfers(f: Pick<SoakFacts, "purchases" | "ledger" | "attention" | "sent">): string[] {
  const paidHashes = new Set(f.purchases.filter((p) => PAID.has(p.status) && p.txHash).map((p) => key(p.network, p.txHash!)));
  const ledgerByHash = new Map(f.ledger.filter((l) => l.txHash).map((l) => [key(l.network, l.txHash!), l]));
  const attentionHashes = new Set(f.attention.filter((a) => a.txHash).map((a) => key(a.network, a.txHash!)));
  const out: string[] = [];
  for (const s of f.sent) {
    const k = key(s.network, s.hash);
    const row = ledgerByHash.get(k);
    if (paidHashes.has(k) || (row && row.status !== "held") || attentionHashes.has(k)) continue;
    out.push(`${s.actor}'s ${s.network} transfer ${s.hash} (${s.value}) is ${row ? "still held" : "neither credited nor listed"}`);
  }
  return out;
}

/**
 * The one 5xx a route may answer by design: 503 while the Worker's nodes cannot give it an answer it may trust
 * (docs/api.md: the Solana transfer request), which tells the client to try again. Two wordings: too few nodes
 * answered (the soak's faults), or no blockhash is held by a quorum (the liar's stale one, under `--liar`).
 */
export const nodeUnavailable = (e: { status: number; message: string }) =>
  e.status === 503 && /node is not answering|nodes do not agree on a recent block/i.test(e.message);

export function checkInvariants(f: SoakFacts): Verdict[] {
  const paid = f.purchases.filter((p) => PAID.has(p.status));
  const byId = new Map(f.purchases.map((p) => [p.id, p]));

  // No key without a payment at depth: every paid purchase's hash is, on the chain, a successful final transfer
  // from its buyer to the platform of at least the amount due; every key handed out is a paid purchase's.
  const keyViolations: string[] = [];
  for (const p of paid) {
    if (!p.txHash) {
      keyViolations.push(`${p.id}: ${p.status} without a payment hash`);
      continue;
    }
    const c = f.chain.get(key(p.network, p.txHash));
    if (!c?.found) keyViolations.push(`${p.id}: its payment ${p.txHash} is not on the chain`);
    else if (!c.success) keyViolations.push(`${p.id}: its payment ${p.txHash} failed on the chain`);
    else if (!c.final) keyViolations.push(`${p.id}: its payment ${p.txHash} is not at the required depth`);
    else if (!sameWallet(p.network, c.to, f.platform[p.network])) keyViolations.push(`${p.id}: its payment went to ${c.to}, not the platform`);
    else if (!p.buyerWallet || !sameWallet(p.network, c.from, p.buyerWallet)) keyViolations.push(`${p.id}: its payment came from ${c.from}, not the buyer`);
    else if (c.value < BigInt(p.amountBaseUnits ?? "0")) keyViolations.push(`${p.id}: paid ${c.value}, less than ${p.amountBaseUnits}`);
  }
  for (const k of f.keysRevealed) {
    const p = byId.get(k.purchaseId);
    if (!p || !PAID.has(p.status)) keyViolations.push(`${k.actor} got the key of ${k.purchaseId}, which is ${p?.status ?? "unknown"}`);
  }

  // A hash pays at most one purchase (I1), a listing is sold at most once (I2).
  const onceViolations: string[] = [];
  const payers = new Map<string, string>();
  const sales = new Map<number, string>();
  for (const p of paid) {
    if (p.txHash) {
      const k = key(p.network, p.txHash);
      const other = payers.get(k);
      if (other) onceViolations.push(`${p.txHash} pays both ${other} and ${p.id}`);
      payers.set(k, p.id);
      const refund = f.ledger.find((l) => l.txHash && key(l.network, l.txHash) === k && l.status === "refund");
      if (refund) onceViolations.push(`${p.txHash} pays ${p.id} and is listed for refund`);
    }
    const sold = sales.get(p.addressId);
    if (sold) onceViolations.push(`listing ${p.addressId} sold to both ${sold} and ${p.id}`);
    sales.set(p.addressId, p.id);
  }

  const creditViolations = unaccountedTransfers(f);

  // No purchase open past its last deadline (I5), and no listing held by a reservation past expiry.
  const deadlineViolations: string[] = [];
  const heldViolations: string[] = [];
  for (const p of f.purchases) {
    if (p.expiresAt === null) continue;
    if (p.status === "pending" && f.now > p.expiresAt + LAST_DEADLINE_AFTER_EXPIRY_MS)
      deadlineViolations.push(`${p.id} pending ${Math.round((f.now - p.expiresAt) / 60_000)} min after expiry`);
    if (p.status === "initiated" && f.now > p.expiresAt + f.cronSlackMs)
      heldViolations.push(`listing ${p.addressId} held by ${p.id}, initiated ${Math.round((f.now - p.expiresAt) / 1000)} s past expiry`);
  }

  return [
    verdict("no key without a payment at depth", paid.length + f.keysRevealed.length, keyViolations),
    verdict("a hash pays one purchase, a listing sells once", paid.length, onceViolations),
    verdict("every transfer credited, listed or dust", f.sent.length, creditViolations),
    verdict("no purchase open past its last deadline", f.purchases.length, deadlineViolations),
    verdict("no listing held past its reservation's expiry", f.purchases.length, heldViolations),
    verdict(
      "no 5xx answer but a node's 503",
      f.answers,
      f.serverErrors.filter((e) => !nodeUnavailable(e)).map((e) => `${e.status} on ${e.path}: ${e.message}`),
    ),
  ];
}

// ---- collectors, the import, the cron's own record ----------------------------------------------------------------

/** An offer as D1 holds it at the end (docs/offers.md#states). */
export type OfferRow = {
  id: number;
  addressId: number;
  status: string;
  endReason: string | null;
  transactionId: string | null;
  createdAt: number;
  updatedAt: number;
};

const OFFER_STATES = new Set(["open", "paused", "accepted", "declined", "withdrawn", "expired", "lapsed", "completed"]);
const OPEN_PURCHASE = new Set(["initiated", "pending"]);
const UNPAID_END = new Set(["expired", "cancelled", "failed"]);

/**
 * Each offer in one standing, and the one its listing and purchase say: an accepted, completed or lapsed offer has
 * the purchase it reserved, open, paid or ended unpaid; only those have a purchase; one accepted offer per listing;
 * a paused offer waits behind an accepted one, and an open offer made before that acceptance should be paused;
 * `other_accepted` only once another offer's sale completed; nothing open or paused on a listing that sold.
 */
export function offerStandingViolations(offers: OfferRow[], purchases: PurchaseRow[]): string[] {
  const out: string[] = [];
  const purchase = new Map(purchases.map((p) => [p.id, p]));
  const sold = new Set(purchases.filter((p) => PAID.has(p.status)).map((p) => p.addressId));
  const accepted = new Map<number, OfferRow>();
  const completed = new Set<number>();
  for (const o of offers) {
    if (o.status === "completed") completed.add(o.addressId);
    if (o.status !== "accepted") continue;
    const other = accepted.get(o.addressId);
    if (other) out.push(`offers ${other.id} and ${o.id} both accepted on listing ${o.addressId}`);
    accepted.set(o.addressId, o);
  }
  for (const o of offers) {
    const name = `offer ${o.id} (listing ${o.addressId}) ${o.status}`;
    if (!OFFER_STATES.has(o.status)) {
      out.push(`${name}: not a standing`);
      continue;
    }
    const reserved = o.status === "accepted" || o.status === "completed" || o.status === "lapsed";
    const p = o.transactionId ? purchase.get(o.transactionId) : undefined;
    if (!reserved && o.transactionId) out.push(`${name} holds purchase ${o.transactionId}`);
    if (reserved && !p) out.push(`${name} without its purchase${o.transactionId ? ` (${o.transactionId} unknown)` : ""}`);
    if (p && o.status === "accepted" && !OPEN_PURCHASE.has(p.status)) out.push(`${name}, its purchase ${p.id} ${p.status}`);
    if (p && o.status === "completed" && !PAID.has(p.status)) out.push(`${name}, its purchase ${p.id} ${p.status}`);
    if (p && o.status === "lapsed" && !UNPAID_END.has(p.status)) out.push(`${name}, its purchase ${p.id} ${p.status}`);
    const ahead = accepted.get(o.addressId);
    if (o.status === "paused" && !ahead) out.push(`${name} with no accepted offer ahead of it`);
    if (o.status === "open" && ahead && o.createdAt < ahead.updatedAt) out.push(`${name}, made before offer ${ahead.id} was accepted, not paused`);
    if (o.status === "declined" && o.endReason === "other_accepted" && !completed.has(o.addressId))
      out.push(`${name} as another was accepted, but no offer's sale completed`);
    if ((o.status === "open" || o.status === "paused") && sold.has(o.addressId)) out.push(`${name} on a listing that sold`);
  }
  return out;
}

/** What a saved search was told at the end: the listings counted in its notifications, and how many matched it. */
export type SearchTold = { searchId: number; name: string; told: number; matching: number };

/** Something the store must tell within a few cron runs: when it happened, and when it was told (null: never). */
export type ToTell = { what: string; at: number; seenAt: number | null };

/** The cron runs that started after `a` happened and by the time it was told: how many runs it took. */
export const runsToTell = (a: ToTell, runStarts: number[]): number | null =>
  a.seenAt === null ? null : runStarts.filter((t) => t > a.at && t <= a.seenAt!).length;

function withinRuns(items: ToTell[], runStarts: number[], n: number): string[] {
  const out: string[] = [];
  for (const a of items) {
    const runs = runsToTell(a, runStarts);
    if (runs === null) out.push(`${a.what}: never told`);
    else if (runs > n) out.push(`${a.what}: told after ${runs} cron runs`);
  }
  return out;
}

/** A tick of the soak's cron loop: when it asked for a run, when the Worker answered, and whether it said OK. */
export type Tick = { sentAt: number; answeredAt: number; ok: boolean };
export type CronRunRow = { id: number; startedAt: number; finishedAt: number; failedTasks: string[]; errors: string[]; runningTask: string | null };
/** A run's start is read in the Worker (its clock moves with its I/O): this close to the tick's window counts. */
const TICK_SLACK_MS = 1_000;

/** "verify: timeout" names the task "verify": as worker/operations/cron-runs.ts records a run's failed tasks. */
const taskOf = (error: string) => error.split(":")[0]!.trim();

/**
 * Every cron run the soak asked for is recorded once, finished, with each task's outcome (a failed task named with its
 * error, an error's task named failed), and no record is missing between the first and the last (ids in a row).
 */
export function cronRecordViolations(ticks: Tick[], runs: CronRunRow[]): string[] {
  if (ticks.length === 0) return [];
  const from = Math.min(...ticks.map((t) => t.sentAt)) - TICK_SLACK_MS;
  const to = Math.max(...ticks.map((t) => t.answeredAt)) + TICK_SLACK_MS;
  const inWindow = runs.filter((r) => r.startedAt >= from && r.startedAt <= to).sort((a, b) => a.id - b.id);
  const out: string[] = [];
  const claimed = new Set<number>();
  for (const t of ticks) {
    const mine = inWindow.filter((r) => r.startedAt >= t.sentAt - TICK_SLACK_MS && r.startedAt <= t.answeredAt + TICK_SLACK_MS);
    const at = new Date(t.sentAt).toISOString();
    if (mine.length === 0) out.push(`the run asked for at ${at} is not recorded${t.ok ? "" : " (the tick failed)"}`);
    if (mine.length > 1) out.push(`the run asked for at ${at} is recorded ${mine.length} times (ids ${mine.map((r) => r.id).join(", ")})`);
    for (const r of mine) claimed.add(r.id);
  }
  for (const r of inWindow) if (!claimed.has(r.id)) out.push(`run ${r.id} was recorded, but no tick asked for it`);
  for (let i = 1; i < inWindow.length; i++)
    if (inWindow[i]!.id !== inWindow[i - 1]!.id + 1) out.push(`no record between runs ${inWindow[i - 1]!.id} and ${inWindow[i]!.id}`);
  for (const r of inWindow) {
    if (r.runningTask !== null) out.push(`run ${r.id} never finished (still in ${r.runningTask})`);
    else if (r.finishedAt < r.startedAt) out.push(`run ${r.id} finished before it started`);
    const named = new Set(r.errors.map(taskOf));
    const failed = new Set(r.failedTasks);
    for (const task of failed) if (!named.has(task)) out.push(`run ${r.id}: ${task} failed with no error recorded`);
    for (const task of named) if (!failed.has(task)) out.push(`run ${r.id}: an error of ${task}, which is not recorded as failed`);
  }
  return out;
}

/** What the soak with collectors adds to the end checks (docs/benchmarks.md#soak). */
export type CollectorFacts = {
  offers: OfferRow[];
  purchases: PurchaseRow[];
  searches: SearchTold[];
  /** Each saved search: from when the import ended (or the search was saved, if later) to the start of the run that told it its last match. */
  searchesNotified: ToTell[];
  /** The late payment made during the import: from when it landed to the alert's delivery. */
  lateAlert: ToTell | null;
  ticks: Tick[];
  runs: CronRunRow[];
  /** Cron runs within which each search and the late payment must be told. */
  withinRuns: number;
};

export function checkCollectorInvariants(f: CollectorFacts): Verdict[] {
  const runStarts = f.runs.map((r) => r.startedAt);
  const missed = f.searches.filter((s) => s.told < s.matching).map((s) => `${s.name}: told ${s.told} of its ${s.matching} matching listings`);
  return [
    verdict("each offer in one standing", f.offers.length, offerStandingViolations(f.offers, f.purchases)),
    verdict(
      "no notification twice for one (search, listing)",
      f.searches.length,
      f.searches.filter((s) => s.told > s.matching).map((s) => `${s.name}: told ${s.told} listings, ${s.matching} matched it`),
    ),
    verdict(`every saved search told of its matches within ${f.withinRuns} cron runs`, f.searchesNotified.length, [
      ...withinRuns(f.searchesNotified, runStarts, f.withinRuns),
      ...missed,
    ]),
    verdict("every cron run recorded with each task's outcome", f.ticks.length, cronRecordViolations(f.ticks, f.runs)),
    verdict(
      `a late payment during the import alerted within ${f.withinRuns} cron runs`,
      f.lateAlert ? 1 : 0,
      f.lateAlert ? withinRuns([f.lateAlert], runStarts, f.withinRuns) : ["no late payment was made during the import"],
    ),
  ];
}
