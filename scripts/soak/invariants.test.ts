import { describe, expect, it } from "vitest";
import { type ChainPayment, checkInvariants, type PurchaseRow, type SoakFacts } from "./invariants";

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
