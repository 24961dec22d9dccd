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
