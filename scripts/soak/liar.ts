// The soak's lying node (`npm run soak -- --nodes 2 --liar`, docs/testing.md#soak): each chain is read through two
// nodes at quorum 2, the first of which passes every answer through `Liar.lie` (scripts/soak/fault-proxy.ts). On
// command it forges: a payment that never happened (a transaction and receipt, or a Solana transaction, for a
// transfer an attacker signed and never sent), a contract-wallet signature (every eth_call answered "valid") for a
// sign-in as the admin or as anyone with a stranger's key, a stale blockhash for the Solana transaction request, and
// another head (a block number and slot far ahead). The attacker (`runLiarAttacks`) tries each against the running
// stack and records what it got; the soak prints that and turns what must never happen into verdicts.
import { base58, base64 } from "@scure/base";
import { type Keypair, PublicKey, SystemProgram, Transaction, VersionedTransaction } from "@solana/web3.js";
import { keccak256, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { apiClient, type LocalDb, revealKey, rpc, sleep } from "../bench/buyer-client";
import { freshClient, follow, reserveSome, type Stage, signIn } from "./actors";
import type { Lie } from "./fault-proxy";
import type { Network, Verdict } from "./invariants";
import { networkName } from "../../schema/network";

/** What the liar says besides the lies it always tells (forged payments, "valid" for every eth_call). */
export type LiarMode = "honest" | "blockhash" | "head";
const MODES: LiarMode[] = ["honest", "blockhash", "head"];
/** How far ahead the forged head is (blocks, slots). */
const HEAD_AHEAD = 1_000;
/** The ABI word "true": what the ERC-6492 validator answers for a valid signature (a node that vouches for every one). */
const TRUE_WORD = `0x${"0".repeat(63)}1`;
/** How long an attacker waits on one forged payment before it counts it as refused. */
const FOLLOW_MS = 40_000;
/** How long the attacker waits for the liar's blockhash to expire on the node (150 slots of 400 ms, and slack). */
const STALE_WAIT_MS = 90_000;

type ForgedEth = { tx: Record<string, unknown>; receipt: Record<string, unknown> };

export class Liar {
  mode: LiarMode = "honest";
  /** Off while the soak settles: the liar then answers as the node does. */
  lying = true;
  private readonly eth = new Map<string, ForgedEth>();
  private readonly sol = new Map<string, unknown>();
  stale: { blockhash: string; lastValidBlockHeight: number } | null = null;
  /** Answers it forged, by lie. */
  readonly told: Record<string, number> = { "payment (Ethereum)": 0, "payment (Solana)": 0, "eth_call valid": 0, "stale blockhash": 0, "another head": 0 };
  /** What each attempt got: lie → outcome → count. */
  readonly got = new Map<string, Map<string, number>>();
  /** Purchases a forged payment was reported for, and sessions a forged sign-in got (checked at the end). */
  readonly forgedPurchases: { network: Network; id: string }[] = [];
  readonly sessions: string[] = [];
  readonly keys: string[] = [];
  readonly staleHandedOut: string[] = [];

  record(lie: string, outcome: string) {
    const row = this.got.get(lie) ?? new Map<string, number>();
    row.set(outcome, (row.get(outcome) ?? 0) + 1);
    this.got.set(lie, row);
  }

  lie(network: Network): Lie {
    return (call, answer) => {
      if (!this.lying || answer.error !== undefined) return answer;
      const first = call.params?.[0];
      if (network === "ethereum") {
        if (call.method === "eth_call") {
          this.told["eth_call valid"]++;
          return { jsonrpc: answer.jsonrpc, id: answer.id, result: TRUE_WORD };
        }
        const forged = typeof first === "string" ? this.eth.get(first.toLowerCase()) : undefined;
        if (forged && call.method === "eth_getTransactionByHash") return this.forge("payment (Ethereum)", answer, forged.tx);
        if (forged && call.method === "eth_getTransactionReceipt") return this.forge("payment (Ethereum)", answer, forged.receipt);
        if (this.mode === "head" && call.method === "eth_blockNumber" && typeof answer.result === "string")
          return this.forge("another head", answer, toHex(BigInt(answer.result) + BigInt(HEAD_AHEAD)));
        return answer;
      }
      if (call.method === "getTransaction" && typeof first === "string" && this.sol.has(first))
        return this.forge("payment (Solana)", answer, this.sol.get(first));
      if (this.mode === "blockhash" && call.method === "getLatestBlockhash" && this.stale) {
        const result = answer.result as { context: unknown; value: unknown };
        return this.forge("stale blockhash", answer, { ...result, value: this.stale });
      }
      // It vouches for its own stale blockhash and denies every other: with two nodes at quorum 2 no blockhash is
      // then held by both, and the Worker must refuse the transfer request rather than build on either's word.
      if (this.mode === "blockhash" && call.method === "isBlockhashValid" && this.stale && typeof first === "string") {
        const result = answer.result as { context: unknown; value: unknown };
        return this.forge("stale blockhash", answer, { ...result, value: first === this.stale.blockhash });
      }
      if (this.mode === "head" && (call.method === "getSlot" || call.method === "getBlockHeight") && typeof answer.result === "number")
        return this.forge("another head", answer, answer.result + HEAD_AHEAD);
      return answer;
    };
  }

  private forge(what: string, answer: { jsonrpc: string; id: unknown }, result: unknown) {
    this.told[what]++;
    return { jsonrpc: answer.jsonrpc, id: answer.id, result };
  }

  forgeEthereum(hash: string, f: ForgedEth) {
    this.eth.set(hash.toLowerCase(), f);
  }

  forgeSolana(signature: string, result: unknown) {
    this.sol.set(signature, result);
  }
}

const until = (stage: Stage, ms: number): Stage => {
  const at = Math.min(stage.giveUpAt(), Date.now() + ms);
  return { ...stage, giveUpAt: () => at };
};

/** A real transaction of a recent final block, whose shape (and block) the forged one borrows. */
async function template(anvilUrl: string) {
  const head = Number(await rpc(anvilUrl, "eth_blockNumber"));
  for (let n = head - 3; n > Math.max(0, head - 60); n--) {
    const block = await rpc(anvilUrl, "eth_getBlockByNumber", [toHex(n), true]);
    const tx = block?.transactions?.[0];
    if (tx) return { tx, receipt: await rpc(anvilUrl, "eth_getTransactionReceipt", [tx.hash]) };
  }
  return null;
}

/** A reservation paid by a transfer that never happened: the liar shows it, the honest node does not. */
async function forgedPayment(stage: Stage, liar: Liar, network: Network) {
  const lie = `a payment that never happened (${networkName(network)})`;
  const w = await signIn(stage, network, freshClient());
  const r = await reserveSome(stage, w);
  if ("refused" in r) return liar.record(lie, `no reservation (${r.refused})`);
  const amount = BigInt(r.view.amountBaseUnits);
  let hash: string;
  try {
    if (network === "ethereum") {
      const shape = await template(stage.anvilUrl);
      if (!shape) return liar.record(lie, "no block to borrow a shape from");
      hash = keccak256(toHex(crypto.getRandomValues(new Uint8Array(32))));
      const parts = { hash, from: w.address.toLowerCase(), to: r.view.recipient.toLowerCase(), value: toHex(amount), input: "0x" };
      liar.forgeEthereum(hash, {
        tx: { ...shape.tx, ...parts },
        receipt: { ...shape.receipt, transactionHash: hash, from: parts.from, to: parts.to, status: "0x1", logs: [], contractAddress: null },
      });
    } else {
      // The buyer's own transfer with the reference key, signed and never sent.
      const keypair = (w as typeof w & { keypair: Keypair }).keypair;
      const ix = SystemProgram.transfer({ fromPubkey: keypair.publicKey, toPubkey: new PublicKey(r.view.recipient), lamports: amount });
      if (r.view.paymentReference) ix.keys.push({ pubkey: new PublicKey(r.view.paymentReference), isSigner: false, isWritable: false });
      const { value } = await rpc(stage.solanaUrl, "getLatestBlockhash", [{ commitment: "confirmed" }]);
      const tx = new Transaction({ feePayer: keypair.publicKey, recentBlockhash: value.blockhash }).add(ix);
      tx.sign(keypair);
      hash = base58.encode(tx.signature!);
      const keys = tx.compileMessage().accountKeys.map((k) => k.toBase58());
      const fee = 5_000;
      const pre = keys.map((k) => (k === keypair.publicKey.toBase58() ? 100_000_000_000 : k === r.view.recipient ? 5_000_000_000 : 1));
      const post = keys.map((k, i) =>
        k === keypair.publicKey.toBase58() ? pre[i]! - Number(amount) - fee : k === r.view.recipient ? pre[i]! + Number(amount) : pre[i]!,
      );
      liar.forgeSolana(hash, {
        slot: Number(await rpc(stage.solanaUrl, "getSlot", [{ commitment: "confirmed" }])),
        blockTime: Math.floor(Date.now() / 1000),
        transaction: [base64.encode(tx.serialize()), "base64"],
        meta: {
          err: null,
          status: { Ok: null },
          fee,
          preBalances: pre,
          postBalances: post,
          innerInstructions: [],
          logMessages: [],
          preTokenBalances: [],
          postTokenBalances: [],
          loadedAddresses: { writable: [], readonly: [] },
        },
        version: "legacy",
      });
    }
    liar.forgedPurchases.push({ network, id: r.id });
    const end = await follow(until(stage, FOLLOW_MS), w, r.id, hash);
    const settled = end.status === "completed" || end.status === "verified";
    liar.record(lie, settled ? `SETTLED (${end.status})` : `not settled (${end.status}${end.reason ? ` ${end.reason}` : ""})`);
    const reveal = await revealKey(w.api, w.cookie, r.id);
    if (reveal.privateKey !== undefined) liar.keys.push(r.id);
  } finally {
    stage.pool.give(r.listing);
  }
}

/** A sign-in as `address` with a signature made by a stranger's key, which only a node vouching for it could pass. */
async function forgedSignIn(stage: Stage, liar: Liar, address: string, who: "the admin" | "a wallet with no code") {
  const lie = `a contract-wallet signature for ${who}`;
  const api = apiClient(stage.base, freshClient, (p, s, json, text) => stage.record.answer(p, s, json, text));
  const nonce = await api("/api/auth/nonce", { body: { network: "ethereum", address } });
  if (!nonce.json?.message) return liar.record(lie, `nonce ${nonce.status}`);
  const stranger = privateKeyToAccount(generatePrivateKey());
  const signature = await stranger.signMessage({ message: nonce.json.message });
  const verified = await api("/api/auth/verify", { body: { network: "ethereum", message: nonce.json.message, signature } });
  if (!verified.json?.authenticated || !verified.cookie) return liar.record(lie, `refused ${verified.status}`);
  const stats = await api("/api/admin/stats", { cookie: verified.cookie });
  liar.sessions.push(`${who} (${address}): verify ${verified.status}, /api/admin/stats ${stats.status}`);
  liar.record(lie, `SESSION (admin stats ${stats.status})`);
}

/** Whether the node itself (asked directly, not through a proxy) holds `blockhash` as valid. */
const nodeHolds = async (stage: Stage, blockhash: string) =>
  (await rpc(stage.solanaUrl, "isBlockhashValid", [blockhash, { commitment: "confirmed" }])).value === true;

/**
 * Until the node itself no longer holds the liar's blockhash (150 slots, 60 s on the local chain), bounded: only
 * then is the lie a stale blockhash, one no transaction can land with, rather than an old one that still works.
 */
async function untilExpired(stage: Stage, blockhash: string) {
  const giveUp = Math.min(stage.giveUpAt(), Date.now() + STALE_WAIT_MS);
  while (await nodeHolds(stage, blockhash)) {
    if (Date.now() > giveUp) return false;
    await sleep(2_000);
  }
  return true;
}

/**
 * The Worker's Solana Pay transfer request while the liar hands out a stale blockhash and denies every other: it
 * must be refused (503) or built on a blockhash the node holds, never on the stale one.
 */
async function staleBlockhash(stage: Stage, liar: Liar) {
  const lie = "a stale blockhash";
  if (!liar.stale || !(await untilExpired(stage, liar.stale.blockhash))) return liar.record(lie, "its blockhash had not expired yet");
  const w = await signIn(stage, "solana", freshClient());
  const r = await reserveSome(stage, w);
  if ("refused" in r) return liar.record(lie, `no reservation (${r.refused})`);
  try {
    const res = await w.api(`/api/transactions/${r.id}/solana-transaction`, { body: { account: w.address }, cookie: w.cookie });
    if (!res.json?.transaction) return liar.record(lie, `refused ${res.status}${res.json?.message ? ` "${res.json.message}"` : ""}`);
    const blockhash = VersionedTransaction.deserialize(base64.decode(res.json.transaction)).message.recentBlockhash;
    if (blockhash === liar.stale.blockhash) {
      liar.staleHandedOut.push(`${r.id}: the liar's stale blockhash ${blockhash}`);
      liar.record(lie, "STALE BLOCKHASH in the transfer request");
    } else if (!(await nodeHolds(stage, blockhash))) {
      liar.staleHandedOut.push(`${r.id}: blockhash ${blockhash}, which the node does not hold`);
      liar.record(lie, "EXPIRED BLOCKHASH in the transfer request");
    } else liar.record(lie, "a blockhash the node holds");
  } finally {
    await w.api(`/api/transactions/${r.id}/cancel`, { method: "POST", cookie: w.cookie });
    stage.pool.give(r.listing);
  }
}

/**
 * The attacker, until `endAt`: rounds of one mode each (honest, stale blockhash, another head), each trying a forged
 * payment on both chains and both forged sign-ins, and in the blockhash mode the Solana transfer request.
 */
export async function runLiarAttacks(stage: Stage, liar: Liar, admin: string, endAt: number) {
  liar.stale = (await rpc(stage.solanaUrl, "getLatestBlockhash", [{ commitment: "confirmed" }])).value;
  for (let round = 0; Date.now() < endAt; round++) {
    liar.mode = MODES[round % MODES.length]!;
    const attempts = [
      forgedPayment(stage, liar, "ethereum"),
      forgedPayment(stage, liar, "solana"),
      forgedSignIn(stage, liar, admin, "the admin"),
      forgedSignIn(stage, liar, privateKeyToAccount(generatePrivateKey()).address, "a wallet with no code"),
      ...(liar.mode === "blockhash" ? [staleBlockhash(stage, liar)] : []),
    ];
    for (const a of await Promise.allSettled(attempts))
      if (a.status === "rejected") liar.record("(attacker errors)", String((a.reason as Error)?.message ?? a.reason).slice(0, 80));
    if (liar.mode === "head") liar.record("another head", "a round of payments and sign-ins while it lasted (see the invariants)");
    await sleep(2_000);
  }
  liar.mode = "honest";
}

/** What must never happen, as verdicts beside the invariants: checked on the purchases at the end. */
export async function liarVerdicts(liar: Liar, db: LocalDb): Promise<Verdict[]> {
  const ids = new Set(liar.forgedPurchases.map((p) => p.id));
  const rows = (await db.prepare("SELECT id, network, status FROM transactions").all<{ id: string; network: string; status: string }>()).results;
  const settled = rows
    .filter((r) => ids.has(r.id) && (r.status === "completed" || r.status === "verified"))
    .map((r) => `${r.network} purchase ${r.id} ${r.status} on a forged payment`);
  const v = (name: string, checked: number, violations: string[]): Verdict => ({ name, ok: violations.length === 0, checked, violations });
  return [
    v("liar: no forged payment settles a purchase or hands out its key", liar.forgedPurchases.length, [
      ...settled,
      ...liar.keys.map((id) => `key handed out for ${id}`),
    ]),
    v(
      "liar: no forged sign-in gets a session",
      [...liar.got].filter(([k]) => k.startsWith("a contract-wallet")).reduce((n, [, m]) => n + [...m.values()].reduce((a, b) => a + b, 0), 0),
      liar.sessions,
    ),
    v(
      "liar: no transfer request on a stale blockhash",
      liar.got.get("a stale blockhash")?.size ? [...liar.got.get("a stale blockhash")!.values()].reduce((a, b) => a + b, 0) : 0,
      liar.staleHandedOut,
    ),
  ];
}

/** The liar's table: each lie, how many answers it forged, what the attempts got. */
export function liarTable(liar: Liar): string[] {
  const told: Record<string, string> = {
    "a payment that never happened (Ethereum)": "payment (Ethereum)",
    "a payment that never happened (Solana)": "payment (Solana)",
    "a contract-wallet signature for the admin": "eth_call valid",
    "a contract-wallet signature for a wallet with no code": "eth_call valid",
    "a stale blockhash": "stale blockhash",
    "another head": "another head",
  };
  const lines = ["| lie | answers forged | attempts | what it got |", "|---|---|---|---|"];
  for (const [lie, outcomes] of [...liar.got].sort((a, b) => a[0].localeCompare(b[0]))) {
    const tried = [...outcomes.values()].reduce((a, b) => a + b, 0);
    const forged = told[lie] ? liar.told[told[lie]!] : "";
    lines.push(`| ${lie} | ${forged} | ${tried} | ${[...outcomes].map(([k, n]) => `${n} × ${k}`).join("; ")} |`);
  }
  return lines;
}
