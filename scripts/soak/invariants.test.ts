import { describe, expect, it } from "vitest";
import {
  type ChainPayment,
  type CollectorFacts,
  type CronRunRow,
  checkCollectorInvariants,
  checkInvariants,
  type OfferRow,
  type PurchaseRow,
  runsToTell,
  type SoakFacts,
} from "./invariants";

const NOW = 1_800_000_000_000;
const PLATFORM = { ethereum: "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720", solana: "2yaW8VAMLhQiornz1BgcSWDUSH2jC2dmB8RWnTJi8Yab" };
const BUYER = "0x1111111111111111111111111111111111111111";
const HASH = `0x${"ab".repeat(32)}`;

const sale = (over: Partial<PurchaseRow> = {}): PurchaseRow => ({
  id: "p1",
  network: "ethereum",
  addressId: 7,
  status: "completed",
  buyerWallet: BUYER,
  txHash: HASH,
  amountBaseUnits: "1000",
  expiresAt: NOW - 60_000,
  ...over,
});
const onChain = (over: Partial<Extract<ChainPayment, { found: true }>> = {}): ChainPayment => ({
  found: true,
  success: true,
  from: BUYER.toUpperCase().replace("0X", "0x"),
  to: PLATFORM.ethereum.toLowerCase(),
  value: 1000n,
  final: true,
  ...over,
});

/** A clean run: one sale paid on the chain, its key handed out, its transfer credited. */
function facts(over: Partial<SoakFacts> = {}): SoakFacts {
  return {
    now: NOW,
    platform: PLATFORM,
    purchases: [sale()],
    ledger: [{ network: "ethereum", txHash: HASH, status: "released", refundStatus: null, transactionId: "p1" }],
    attention: [],
    chain: new Map([[`ethereum:${HASH}`, onChain()]]),
    sent: [{ network: "ethereum", hash: HASH, actor: "honest", value: 1000n }],
    keysRevealed: [{ purchaseId: "p1", actor: "honest" }],
    answers: 10,
    serverErrors: [],
    cronSlackMs: 120_000,
    ...over,
  };
}

const failing = (f: SoakFacts) =>
  checkInvariants(f)
    .filter((v) => !v.ok)
    .map((v) => [v.name, v.violations]);

describe("the soak's invariant checker", () => {
  it("passes a clean run", () => {
    expect(failing(facts())).toEqual([]);
  });

  it("refuses a key whose payment is not on the chain, not final, short, from someone else or to someone else", () => {
    for (const chain of [
      { found: false } as const,
      onChain({ final: false }),
      onChain({ value: 999n }),
      onChain({ from: PLATFORM.ethereum }),
      onChain({ to: BUYER }),
      onChain({ success: false }),
    ]) {
      const out = failing(facts({ chain: new Map([[`ethereum:${HASH}`, chain]]) }));
      expect(out.map(([name]) => name)).toEqual(["no key without a payment at depth"]);
    }
    expect(failing(facts({ purchases: [sale({ txHash: null })], sent: [] }))[0]?.[0]).toBe("no key without a payment at depth");
  });

  it("refuses a key handed out for a purchase that is not paid", () => {
    const out = failing(facts({ keysRevealed: [{ purchaseId: "p2", actor: "junk" }] }));
    expect(out).toEqual([["no key without a payment at depth", ["junk got the key of p2, which is unknown"]]]);
  });

  it("refuses a hash that pays two purchases, a paid hash listed for refund, a listing sold twice", () => {
    const twice = facts({ purchases: [sale(), sale({ id: "p2", addressId: 8 })] });
    expect(failing(twice)).toEqual([["a hash pays one purchase, a listing sells once", [`${HASH} pays both p1 and p2`]]]);
    const refunded = facts({ ledger: [{ network: "ethereum", txHash: HASH, status: "refund", refundStatus: "needed", transactionId: "p1" }] });
    expect(failing(refunded)[0]?.[0]).toBe("a hash pays one purchase, a listing sells once");
    const soldTwice = facts({
      purchases: [sale(), sale({ id: "p2", txHash: `0x${"cd".repeat(32)}` })],
      chain: new Map([
        [`ethereum:${HASH}`, onChain()],
        [`ethereum:0x${"cd".repeat(32)}`, onChain()],
      ]),
    });
    expect(failing(soldTwice)).toEqual([["a hash pays one purchase, a listing sells once", ["listing 7 sold to both p1 and p2"]]]);
  });

  it("refuses a transfer neither credited nor listed, and one still held", () => {
    const stray = { network: "solana" as const, hash: "5".repeat(88), actor: "late", value: 5n };
    expect(failing(facts({ sent: [stray] }))).toEqual([
      ["every transfer credited, listed or dust", [`late's solana transfer ${stray.hash} (5) is neither credited nor listed`]],
    ]);
    const held = facts({
      sent: [stray],
      ledger: [{ network: "solana", txHash: stray.hash, status: "held", refundStatus: null, transactionId: "p9" }],
    });
    expect(failing(held)[0]?.[1]).toEqual([`late's solana transfer ${stray.hash} (5) is still held`]);
    // Listed for refund, ignored as dust, or a difference: accounted for.
    expect(
      failing(facts({ sent: [stray], ledger: [{ network: "solana", txHash: stray.hash, status: "refund", refundStatus: "ignored", transactionId: null }] })),
    ).toEqual([]);
    expect(failing(facts({ sent: [stray], attention: [{ network: "solana", txHash: stray.hash, status: "open" }] }))).toEqual([]);
  });

  it("refuses a purchase pending past its last deadline and a listing held past expiry, not one inside them", () => {
    const open = (status: string, expiresAt: number) => facts({ purchases: [sale(), sale({ id: "o", addressId: 9, status, txHash: null, expiresAt })] });
    expect(failing(open("pending", NOW - 69 * 60_000))).toEqual([]);
    expect(failing(open("pending", NOW - 71 * 60_000))).toEqual([["no purchase open past its last deadline", ["o pending 71 min after expiry"]]]);
    expect(failing(open("initiated", NOW - 60_000))).toEqual([]);
    expect(failing(open("initiated", NOW - 180_000))).toEqual([
      ["no listing held past its reservation's expiry", ["listing 9 held by o, initiated 180 s past expiry"]],
    ]);
  });

  it("refuses any 5xx answer but the 503 of nodes that do not answer or do not agree", () => {
    const crash = { path: "/api/transactions/:id/confirm", status: 500, message: "Internal Server Error" };
    const node = { path: "/api/transactions/:id/solana-transaction", status: 503, message: "The Solana node is not answering; try again in a moment" };
    // The Solana Pay transfer request refused because no blockhash is held by a quorum (a liar's stale one).
    const disputed = {
      path: "/api/transactions/:id/solana-transaction",
      status: 503,
      message: "The Solana nodes do not agree on a recent block; try again in a moment",
    };
    const other503 = { path: "/api/health", status: 503, message: "database unreachable" };
    const disputed500 = { ...disputed, status: 500 };
    expect(failing(facts({ serverErrors: [crash, node, disputed, other503, disputed500] }))).toEqual([
      [
        "no 5xx answer but a node's 503",
        [
          "500 on /api/transactions/:id/confirm: Internal Server Error",
          "503 on /api/health: database unreachable",
          "500 on /api/transactions/:id/solana-transaction: The Solana nodes do not agree on a recent block; try again in a moment",
        ],
      ],
    ]);
    expect(failing(facts({ serverErrors: [node, disputed] }))).toEqual([]);
  });
});

describe("the soak's collector and cron invariants", () => {
  const T0 = NOW - 600_000;
  // Four ticks 15 s apart, each answered in 100 ms, each recorded as one finished run (ids in a row).
  const ticks = [0, 1, 2, 3].map((i) => ({ sentAt: T0 + i * 15_000, answeredAt: T0 + i * 15_000 + 100, ok: true }));
  const run = (i: number, over: Partial<CronRunRow> = {}): CronRunRow => ({
    id: 40 + i,
    startedAt: T0 + i * 15_000 + 20,
    finishedAt: T0 + i * 15_000 + 9_000,
    failedTasks: [],
    errors: [],
    runningTask: null,
    ...over,
  });
  const offer = (over: Partial<OfferRow> = {}): OfferRow => ({
    id: 1,
    addressId: 7,
    status: "open",
    endReason: null,
    transactionId: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  });
  /**
   * A clean history: offer 1 accepted and paid (listing 7 sold), offer 2 declined as the other was accepted; offer 3
   * accepted on listing 8 with its reservation open, offer 4 paused behind it; a match-all search told all 1,000
   * imported listings after one run; the late payment alerted in the second run after it landed.
   */
  function collectorFacts(over: Partial<CollectorFacts> = {}): CollectorFacts {
    return {
      offers: [
        offer({ status: "completed", endReason: "paid", transactionId: "p1", updatedAt: T0 + 5_000 }),
        offer({ id: 2, status: "declined", endReason: "other_accepted" }),
        offer({ id: 3, addressId: 8, status: "accepted", transactionId: "p3", updatedAt: T0 + 5_000 }),
        offer({ id: 4, addressId: 8, status: "paused" }),
      ],
      purchases: [sale(), sale({ id: "p3", addressId: 8, status: "initiated", txHash: null })],
      searches: [{ searchId: 5, name: "Anything new #1", told: 1000, matching: 1000 }],
      searchesNotified: [{ what: "Anything new #1", at: T0 + 10_000, seenAt: T0 + 29_000 }],
      lateAlert: { what: "late payment 0xab", at: T0 + 5_000, seenAt: T0 + 31_000 },
      ticks,
      runs: [0, 1, 2, 3].map((i) => run(i)),
      withinRuns: 2,
      ...over,
    };
  }
  const broken = (f: CollectorFacts) =>
    checkCollectorInvariants(f)
      .filter((v) => !v.ok)
      .map((v) => [v.name, v.violations]);

  it("passes a clean history", () => {
    expect(broken(collectorFacts())).toEqual([]);
  });

  it("refuses an offer whose standing its purchase or listing contradicts", () => {
    const standing = (offers: OfferRow[], purchases = collectorFacts().purchases) => broken(collectorFacts({ offers, purchases }));
    const name = "each offer in one standing";
    expect(standing([offer({ status: "accepted", transactionId: "p1" })])).toEqual([[name, ["offer 1 (listing 7) accepted, its purchase p1 completed"]]]);
    expect(standing([offer({ status: "lapsed", transactionId: "p3", addressId: 8 })])).toEqual([
      [name, ["offer 1 (listing 8) lapsed, its purchase p3 initiated"]],
    ]);
    expect(standing([offer({ status: "completed", transactionId: "p9" })])).toEqual([
      [name, ["offer 1 (listing 7) completed without its purchase (p9 unknown)"]],
    ]);
    expect(standing([offer({ addressId: 9, status: "paused" })])).toEqual([[name, ["offer 1 (listing 9) paused with no accepted offer ahead of it"]]]);
    expect(standing([offer({ addressId: 9, status: "withdrawn", transactionId: "p1" })])).toEqual([
      [name, ["offer 1 (listing 9) withdrawn holds purchase p1"]],
    ]);
    expect(standing([offer({ addressId: 9, status: "haggling" })])).toEqual([[name, ["offer 1 (listing 9) haggling: not a standing"]]]);
    // Accepting pauses the offers made before it; one left open was not paused.
    expect(standing([offer({ id: 3, addressId: 8, status: "accepted", transactionId: "p3", updatedAt: T0 + 5_000 }), offer({ id: 4, addressId: 8 })])).toEqual([
      [name, ["offer 4 (listing 8) open, made before offer 3 was accepted, not paused"]],
    ]);
    // One made after the acceptance is open, rightly.
    expect(
      standing([
        offer({ id: 3, addressId: 8, status: "accepted", transactionId: "p3", updatedAt: T0 + 5_000 }),
        offer({ id: 4, addressId: 8, createdAt: T0 + 6_000 }),
      ]),
    ).toEqual([]);
    // Two accepted on one listing; declined for another's sale that never completed; open on a sold listing.
    const two = standing([
      offer({ id: 3, addressId: 8, status: "accepted", transactionId: "p3" }),
      offer({ id: 5, addressId: 8, status: "accepted", transactionId: "p3" }),
    ]);
    expect(two).toEqual([[name, ["offers 3 and 5 both accepted on listing 8"]]]);
    expect(standing([offer({ addressId: 8, status: "declined", endReason: "other_accepted" })])).toEqual([
      [name, ["offer 1 (listing 8) declined as another was accepted, but no offer's sale completed"]],
    ]);
    expect(standing([offer({ status: "open" })])).toEqual([[name, ["offer 1 (listing 7) open on a listing that sold"]]]);
  });

  it("refuses a search told of more listings than matched it, and one told of fewer", () => {
    expect(broken(collectorFacts({ searches: [{ searchId: 5, name: "Anything new #1", told: 1001, matching: 1000 }] }))).toEqual([
      ["no notification twice for one (search, listing)", ["Anything new #1: told 1001 listings, 1000 matched it"]],
    ]);
    expect(broken(collectorFacts({ searches: [{ searchId: 5, name: "Anything new #1", told: 999, matching: 1000 }] }))).toEqual([
      ["every saved search told of its matches within 2 cron runs", ["Anything new #1: told 999 of its 1000 matching listings"]],
    ]);
  });

  it("counts the cron runs a search or a late payment took to be told, and refuses more than allowed or never", () => {
    const runStarts = [0, 1, 2, 3].map((i) => run(i).startedAt);
    expect(runsToTell({ what: "x", at: T0 + 10_000, seenAt: T0 + 29_000 }, runStarts)).toBe(1);
    expect(runsToTell({ what: "x", at: T0 - 1, seenAt: T0 + 46_000 }, runStarts)).toBe(4);
    expect(runsToTell({ what: "x", at: T0, seenAt: null }, runStarts)).toBeNull();
    expect(broken(collectorFacts({ searchesNotified: [{ what: "Anything new #1", at: T0 + 1_000, seenAt: T0 + 46_000 }] }))).toEqual([
      ["every saved search told of its matches within 2 cron runs", ["Anything new #1: told after 3 cron runs"]],
    ]);
    expect(broken(collectorFacts({ searchesNotified: [{ what: "Anything new #1", at: T0 + 1_000, seenAt: null }] }))[0]?.[1]).toEqual([
      "Anything new #1: never told",
    ]);
    const late = "a late payment during the import alerted within 2 cron runs";
    expect(broken(collectorFacts({ lateAlert: { what: "late payment 0xab", at: T0 + 1_000, seenAt: T0 + 46_000 } }))).toEqual([
      [late, ["late payment 0xab: told after 3 cron runs"]],
    ]);
    expect(broken(collectorFacts({ lateAlert: { what: "late payment 0xab", at: T0 + 1_000, seenAt: null } }))).toEqual([
      [late, ["late payment 0xab: never told"]],
    ]);
    expect(broken(collectorFacts({ lateAlert: null }))).toEqual([[late, ["no late payment was made during the import"]]]);
  });

  it("refuses a cron run missing, recorded twice, unfinished, not asked for, or without its tasks' outcomes", () => {
    const name = "every cron run recorded with each task's outcome";
    const runs = (list: CronRunRow[]) => broken(collectorFacts({ runs: list }));
    const at = (i: number) => new Date(ticks[i]!.sentAt).toISOString();
    // The third run's record is gone: its tick has none, and the ids skip.
    expect(runs([run(0), run(1), run(3)])).toEqual([[name, [`the run asked for at ${at(2)} is not recorded`, "no record between runs 41 and 43"]]]);
    expect(runs([run(0), run(1), run(2), run(3), run(3, { id: 44, startedAt: run(3).startedAt + 50 })])).toEqual([
      [name, [`the run asked for at ${at(3)} is recorded 2 times (ids 43, 44)`]],
    ]);
    expect(runs([run(0), run(1), run(2), run(3, { runningTask: "collectors" })])).toEqual([[name, ["run 43 never finished (still in collectors)"]]]);
    expect(runs([run(0), run(1), run(2, { startedAt: run(2).startedAt + 5_000 }), run(3)])).toEqual([
      [name, [`the run asked for at ${at(2)} is not recorded`, "run 42 was recorded, but no tick asked for it"]],
    ]);
    expect(runs([run(0), run(1, { failedTasks: ["verify"] }), run(2, { errors: ["offers: ran out of its 20 s budget"] }), run(3)])).toEqual([
      [name, ["run 41: verify failed with no error recorded", "run 42: an error of offers, which is not recorded as failed"]],
    ]);
    // A failing task recorded with its error is an outcome, not a violation.
    expect(runs([run(0), run(1, { failedTasks: ["verify"], errors: ["verify: the node is not answering"] }), run(2), run(3)])).toEqual([]);
  });
});
