// The soak's simulated buyers and attackers (docs/testing.md#soak). Each episode is one visitor's session against the
// running stack over HTTP, from its own client network (a header value; every request goes to loopback), paying on
// the chain directly (a wallet's own node, not the Worker's faulty one). What each saw is recorded for the end checks.
// Collectors beside them: watchers star and unstar listings, offerers make offers that the seller accepts (paid or
// left to lapse, the others paused, reopened, withdrawn or declined), and searchers save searches, match-all ones
// among them, from many client networks before the soak's import (docs/benchmarks.md#soak).
import { base64 } from "@scure/base";
import { Keypair, PublicKey, SystemProgram, Transaction, VersionedTransaction } from "@solana/web3.js";
import { createWalletClient, type Hex, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  type Api,
  type ApiAnswer,
  anvilChain,
  apiClient,
  type Listing,
  type PaymentView,
  reserve,
  revealKey,
  rpc,
  signInEthereum,
  SignInRefused,
  signInSolana,
  sleep,
} from "../bench/buyer-client";
import { RESERVATION_MINUTES } from "../../schema/reservation";
import type { Network, SentTransfer } from "./invariants";

export const ACTOR_KINDS = ["honest", "silent", "underpayer", "overpayer", "canceller", "junk", "late", "hoarder", "watcher", "offerer"] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** What every actor adds to: outcome counts, transfers sent, keys received, answers seen. */
export class Tally {
  readonly outcomes = new Map<string, number>();
  readonly sent: SentTransfer[] = [];
  readonly keys: { purchaseId: string; actor: string }[] = [];
  readonly serverErrors: { path: string; status: number; message: string }[] = [];
  /** How long an unreported payment took to be found and settled (silent payers), per network, in ms. */
  readonly foundAfter: Record<Network, number[]> = { ethereum: [], solana: [] };
  /** The collectors' actions, by what and how the API answered ("offer made 201", "watchlist star 409"). */
  readonly collected = new Map<string, number>();
  answers = 0;
  did(what: string, n = 1) {
    this.collected.set(what, (this.collected.get(what) ?? 0) + n);
  }
  outcome(kind: ActorKind, network: Network, what: string) {
    const k = `${kind}\t${network}\t${what}`;
    this.outcomes.set(k, (this.outcomes.get(k) ?? 0) + 1);
  }
  answer(path: string, status: number, json: { message?: unknown } | null, text = "") {
    this.answers++;
    // The Worker answers every error as JSON with a message; anything else came from in front of it (wrangler dev
    // itself), so its own text is kept to say so.
    const message = json?.message === undefined ? `not the Worker's JSON: ${JSON.stringify(text.slice(0, 160))}` : String(json.message);
    if (status >= 500) this.serverErrors.push({ path: path.replace(/[0-9a-f-]{36}/, ":id"), status, message });
  }
}

/** Listings for sale, each handed to one actor at a time; a sold one never comes back. */
export class ListingPool {
  private free: Listing[];
  /** When an actor first found no listing of a network left (the load on that chain drops from then on). */
  readonly dryAt: Partial<Record<Network, number>> = {};
  constructor(listings: Listing[]) {
    this.free = [...listings];
  }
  take(network: Network): Listing | undefined {
    const candidates = this.free.filter((l) => l.network === network);
    const pick = candidates[Math.floor(Math.random() * candidates.length)];
    if (pick) this.free = this.free.filter((l) => l !== pick);
    else this.dryAt[network] ??= Date.now();
    return pick;
  }
  give(listing: Listing) {
    this.free.push(listing);
  }
  /** Up to `n` listings of `network` still for sale, left in the pool (a star does not hold a listing). */
  sample(network: Network, n: number): Listing[] {
    return this.free
      .filter((l) => l.network === network)
      .sort(() => Math.random() - 0.5)
      .slice(0, n);
  }
  left(network: Network) {
    return this.free.filter((l) => l.network === network).length;
  }
}

export type Stage = {
  base: string;
  anvilUrl: string;
  solanaUrl: string;
  platform: { ethereum: string; solana: string };
  pool: ListingPool;
  record: Tally;
  /** No actor waits for an outcome past this moment. */
  giveUpAt: () => number;
  /** The listings' seller (the dev admin), who answers offers; null: no offerer episodes. */
  seller: { api: Api; cookie: string } | null;
};

let networks = 0;
/** A fresh simulated IPv4 client network (TEST-NET-2: 198.18.0.0/15, never routed). */
export const freshClient = () => {
  networks++;
  return `198.18.${(networks >> 8) & 255}.${networks & 255}`;
};
/** The hoarders' two networks: one IPv4 address, and one IPv6 /48 whose /64s they rotate through. */
let hoards = 0;
const hoarderClient = (network: Network) => {
  hoards++;
  return network === "ethereum" ? "203.0.113.7" : `2001:db8:5ea:${(hoards & 0xffff).toString(16)}::1`;
};

export type Wallet = {
  network: Network;
  address: string;
  cookie: string;
  api: Api;
  pay: (view: PaymentView, amount: bigint, withReference?: boolean) => Promise<string>;
};

export async function signIn(stage: Stage, network: Network, client: string): Promise<Wallet> {
  const api = apiClient(
    stage.base,
    () => client,
    (p, s, json, text) => stage.record.answer(p, s, json, text),
  );
  if (network === "ethereum") {
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    await rpc(stage.anvilUrl, "anvil_setBalance", [account.address, `0x${parseEther("1000").toString(16)}`]);
    const cookie = await signInEthereum(api, key);
    const wallet = createWalletClient({ account, chain: anvilChain(stage.anvilUrl), transport: http(stage.anvilUrl) });
    const pay = async (view: PaymentView, amount: bigint) => {
      const hash = await wallet.sendTransaction({ to: view.recipient as Hex, value: amount, gas: 21_000n });
      await landedEthereum(stage.anvilUrl, hash);
      return hash;
    };
    return { network, address: account.address, cookie, api, pay };
  }
  const keypair = Keypair.generate();
  await rpc(stage.solanaUrl, "requestAirdrop", [keypair.publicKey.toBase58(), 100_000_000_000]);
  const cookie = await signInSolana(api, keypair);
  const pay = async (view: PaymentView, amount: bigint, withReference = true) => {
    const ix = SystemProgram.transfer({ fromPubkey: keypair.publicKey, toPubkey: new PublicKey(view.recipient), lamports: amount });
    if (withReference && view.paymentReference) ix.keys.push({ pubkey: new PublicKey(view.paymentReference), isSigner: false, isWritable: false });
    const { value } = await rpc(stage.solanaUrl, "getLatestBlockhash", [{ commitment: "confirmed" }]);
    const tx = new Transaction({ feePayer: keypair.publicKey, recentBlockhash: value.blockhash }).add(ix);
    tx.sign(keypair);
    return sendSolana(stage.solanaUrl, base64.encode(tx.serialize()));
  };
  return { network, address: keypair.publicKey.toBase58(), cookie, api, pay, ...{ keypair } };
}

async function landedEthereum(url: string, hash: string) {
  for (let i = 0; i < 60; i++) {
    if (await rpc(url, "eth_getTransactionReceipt", [hash])) return;
    await sleep(500);
  }
  throw new Error(`${hash} not mined in 30 s`);
}

async function sendSolana(url: string, wire: string) {
  const signature = (await rpc(url, "sendTransaction", [wire, { encoding: "base64" }])) as string;
  for (let i = 0; i < 60; i++) {
    const [status] = (await rpc(url, "getSignatureStatuses", [[signature]])).value;
    if (status) return signature;
    await sleep(500);
  }
  throw new Error(`${signature} did not land in 30 s`);
}

/** The page's "Pay" on Solana: the Worker's unsigned transfer (retried while its node fails), else the wallet's own. */
async function payExactSolana(stage: Stage, w: Wallet, id: string, view: PaymentView) {
  const keypair = (w as Wallet & { keypair: Keypair }).keypair;
  for (let attempt = 0; attempt < 3; attempt++) {
    const request = await w.api(`/api/transactions/${id}/solana-transaction`, { body: { account: w.address }, cookie: w.cookie });
    if (request.json?.transaction) {
      const tx = VersionedTransaction.deserialize(base64.decode(request.json.transaction));
      tx.sign([keypair]);
      return sendSolana(stage.solanaUrl, base64.encode(tx.serialize()));
    }
    await sleep(1000);
  }
  return w.pay(view, BigInt(view.amountBaseUnits));
}

/** Reserves some listing of `network`, trying up to three; gives back what it could not reserve. */
export async function reserveSome(stage: Stage, w: Wallet): Promise<{ listing: Listing; id: string; view: PaymentView } | { refused: string }> {
  let last = "no listing left";
  for (let attempt = 0; attempt < 3; attempt++) {
    const listing = stage.pool.take(w.network);
    if (!listing) return { refused: last };
    const res = await reserve(w.api, w.cookie, listing, w.address);
    if (!("refused" in res)) return { listing, ...res };
    stage.pool.give(listing);
    last = `reserve ${res.refused.status}`;
    if (res.refused.status !== 409) return { refused: last };
  }
  return { refused: last };
}

const statusOf = (a: ApiAnswer) => a.json?.status as string | undefined;

/** Reports `hash` (or only watches the purchase, when `report` is false) until it ends or the stage gives up. */
export async function follow(stage: Stage, w: Wallet, id: string, hash: string | null): Promise<{ status: string; reason?: string }> {
  while (Date.now() < stage.giveUpAt()) {
    const res = hash
      ? await w.api(`/api/transactions/${id}/confirm`, { body: { txHash: hash, buyerWallet: w.address }, cookie: w.cookie })
      : await w.api(`/api/transactions/${id}`, { cookie: w.cookie });
    const status = statusOf(res);
    if (status && !["initiated", "pending"].includes(status)) {
      const view = hash ? await w.api(`/api/transactions/${id}`, { cookie: w.cookie }) : res;
      return { status, reason: view.json?.failureReason ?? undefined };
    }
    if (res.status === 400 || res.status === 404 || res.status === 409) return { status: `answered ${res.status}` };
    await sleep(hash ? 1500 : 3000);
  }
  return { status: "unfinished" };
}

async function reveal(stage: Stage, w: Wallet, kind: ActorKind, id: string, listing: Listing) {
  const res = await revealKey(w.api, w.cookie, id);
  if (res.privateKey === undefined) return `reveal ${res.status}`;
  stage.record.keys.push({ purchaseId: id, actor: kind });
  const key = res.privateKey;
  if (listing.network === "ethereum") {
    const derived = privateKeyToAccount(key.startsWith("0x") ? (key as Hex) : `0x${key}`).address;
    if (derived.toLowerCase() !== listing.address.toLowerCase()) return "key for another address";
  } else if (res.json.address !== listing.address) return "key for another address";
  return "key";
}

const sent = (stage: Stage, w: Wallet, kind: ActorKind, hash: string, value: bigint) =>
  stage.record.sent.push({ network: w.network, hash, actor: kind, value });

/** One episode of `kind` on `network`; resolves to its outcome's name. */
export async function runEpisode(stage: Stage, kind: ActorKind, network: Network): Promise<string> {
  if (kind === "offerer") return offerRound(stage, network);
  const w = await signIn(stage, network, kind === "hoarder" ? hoarderClient(network) : freshClient());
  if (kind === "watcher") return watch(stage, w);
  if (kind === "hoarder") return hoard(stage, w);
  const r = await reserveSome(stage, w);
  if ("refused" in r) return r.refused;
  const { listing, id, view } = r;
  const due = BigInt(view.amountBaseUnits);
  let sold = false;
  try {
    switch (kind) {
      case "honest":
      case "silent":
      case "overpayer": {
        const amount = kind === "overpayer" ? due + due / 2n : due;
        const { end, paidAt } = await payAndFollow(stage, w, kind, id, view, amount, kind === "overpayer" ? "own transfer" : "page", kind !== "silent");
        if (end.status !== "completed" && end.status !== "verified") return `${end.status}${end.reason ? ` ${end.reason}` : ""}`;
        if (kind === "silent") stage.record.foundAfter[network].push(Date.now() - paidAt);
        sold = true;
        return reveal(stage, w, kind, id, listing);
      }
      case "underpayer": {
        const amount = network === "ethereum" ? due - 1n : due / 2n;
        const hash = await w.pay(view, amount);
        sent(stage, w, kind, hash, amount);
        const end = await follow(stage, w, id, hash);
        return `${end.status}${end.reason ? ` ${end.reason}` : ""}`;
      }
      case "canceller": {
        const res = await w.api(`/api/transactions/${id}/cancel`, { method: "POST", cookie: w.cookie });
        return `cancel ${res.status}`;
      }
      case "late": {
        // Pays after the reservation closed: cancelled by the buyer (expiry, 15 min, is longer than a short soak).
        const cancel = await w.api(`/api/transactions/${id}/cancel`, { method: "POST", cookie: w.cookie });
        if (cancel.status !== 200) return `cancel ${cancel.status}`;
        const hash = await w.pay(view, due);
        sent(stage, w, kind, hash, due);
        const res = await w.api(`/api/transactions/${id}/confirm`, { body: { txHash: hash, buyerWallet: w.address }, cookie: w.cookie });
        return `paid after cancel, confirm ${res.status} ${statusOf(res) ?? res.json?.error ?? ""}`.trim();
      }
      case "junk":
        return await junk(stage, w, id, view);
      default:
        return `no episode for ${kind satisfies "hoarder" | "watcher" | "offerer"}`;
    }
  } finally {
    if (!sold) stage.pool.give(listing);
  }
}

/** Reports what is not a payment of this purchase: malformed text, another buyer's payment, dust of its own. */
async function junk(stage: Stage, w: Wallet, id: string, view: PaymentView) {
  const foreign = stage.record.sent.filter((s) => s.network === w.network).at(-1)?.hash;
  const malformed = w.network === "ethereum" ? ["0x1234", "2".repeat(64), `0x${"zz".repeat(32)}`] : ["2".repeat(64), "0OIl".repeat(22), "not a signature"];
  const answers: number[] = [];
  for (const txHash of [...malformed, ...(foreign ? [foreign] : [])]) {
    const res = await w.api(`/api/transactions/${id}/confirm`, { body: { txHash, buyerWallet: w.address }, cookie: w.cookie });
    answers.push(res.status);
  }
  // Dust of its own: zero wei, or one lamport without the reference key; reported, then left to the cron job.
  const dust = await w.pay(view, w.network === "ethereum" ? 0n : 1n, false);
  sent(stage, w, "junk", dust, w.network === "ethereum" ? 0n : 1n);
  const res = await w.api(`/api/transactions/${id}/confirm`, { body: { txHash: dust, buyerWallet: w.address }, cookie: w.cookie });
  answers.push(res.status);
  const cancel = await w.api(`/api/transactions/${id}/cancel`, { method: "POST", cookie: w.cookie });
  const malformedRefused = answers.slice(0, malformed.length).every((s) => s === 400);
  return `malformed ${malformedRefused ? "all 400" : `answered ${answers.slice(0, malformed.length).join("/")}`}, dust report ${statusOf(res) ?? res.status}, cancel ${cancel.status}`;
}

/** A fresh wallet of the hoarders' network reserves three listings and never pays. */
async function hoard(stage: Stage, w: Wallet) {
  const held: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await reserveSome(stage, w);
    if ("refused" in r) return held.length ? `held ${held.length}, then ${r.refused}` : r.refused;
    held.push(r.id);
    // Back in the pool once the reservation has lapsed and the cron job has expired it.
    setTimeout(() => stage.pool.give(r.listing), RESERVATION_MINUTES * 60_000 + 90_000).unref();
  }
  return "held 3";
}

/** Pays `amount` (the page's way: the Worker's unsigned transfer on Solana; or the wallet's own), then follows. */
async function payAndFollow(
  stage: Stage,
  w: Wallet,
  kind: ActorKind,
  id: string,
  view: PaymentView,
  amount: bigint,
  how: "page" | "own transfer",
  report: boolean,
) {
  const hash = how === "own transfer" || w.network === "ethereum" ? await w.pay(view, amount) : await payExactSolana(stage, w, id, view);
  sent(stage, w, kind, hash, amount);
  const paidAt = Date.now();
  return { end: await follow(stage, w, id, report ? hash : null), paidAt };
}

/** A collector stars a few listings for sale, reads the watchlist back, and unstars one. */
async function watch(stage: Stage, w: Wallet) {
  const picks = stage.pool.sample(w.network, 2 + Math.floor(Math.random() * 4));
  let starred = 0;
  for (const l of picks) {
    const res = await w.api(`/api/watchlist/${l.id}`, { method: "PUT", cookie: w.cookie });
    stage.record.did(`watchlist star ${res.status}`);
    if (res.status === 201) starred++;
  }
  const list = await w.api("/api/watchlist", { cookie: w.cookie });
  const listed = Array.isArray(list.json?.items) ? list.json.items.length : -1;
  if (listed !== starred) stage.record.did(`watchlist read back ${listed} of ${starred} starred`);
  if (!picks[0]) return "no listing to star";
  const un = await w.api(`/api/watchlist/${picks[0].id}`, { method: "DELETE", cookie: w.cookie });
  stage.record.did(`watchlist unstar ${un.status}`);
  return listed === starred ? `starred ${starred}, read back, unstarred one` : `starred ${starred}, read back ${listed}`;
}

/** "0.00012345" -> 12345n: a price in 1e-8 units, as the store keeps it (schema/money.ts). */
const toUnits = (price: string) => {
  const [whole, frac = ""] = price.split(".");
  return BigInt(whole!) * 100_000_000n + BigInt(frac.padEnd(8, "0").slice(0, 8));
};
const fromUnits = (units: bigint) => `${units / 100_000_000n}.${(units % 100_000_000n).toString().padStart(8, "0")}`.replace(/\.?0+$/, "");

type Standing = { id: number; status: string };
/** The seller's list of a listing's offers, each offer's standing. */
async function standings(stage: Stage, listingId: number): Promise<Map<number, string>> {
  const res = await stage.seller!.api(`/api/offers/listing/${listingId}/all`, { cookie: stage.seller!.cookie });
  return new Map(((res.json?.offers ?? []) as Standing[]).map((o) => [o.id, o.status]));
}
/** "as expected", or what the seller's list said instead. */
function checkStandings(stage: Stage, when: string, seen: Map<number, string>, want: [number, string][]) {
  const wrong = want.filter(([id, status]) => seen.get(id) !== status).map(([id, status]) => `${id} ${seen.get(id) ?? "missing"} (not ${status})`);
  stage.record.did(`standings ${when}: ${wrong.length ? `WRONG ${wrong.join(", ")}` : "as expected"}`);
  return wrong.length === 0;
}

/**
 * Three wallets of `network` offer on one listing (taken from the pool, so no buyer reserves it meanwhile); the best
 * offer's own buyer tries to accept it (refused), the seller accepts it (the others paused). Then its buyer either pays
 * at the offered price (a sale: the others declined) or cancels (the offer lapsed, the others open again: one withdrawn
 * by its buyer, one declined by the seller).
 */
async function offerRound(stage: Stage, network: Network): Promise<string> {
  if (!stage.seller) return "no seller";
  const listing = stage.pool.take(network);
  if (!listing) return "no listing left";
  let sold = false;
  try {
    const view = await stage.seller.api(`/api/addresses/${listing.id}`);
    const ask = toUnits(String(view.json?.price ?? "0"));
    if (ask < 100n) return `ask ${view.json?.price} too small to offer below`;
    const made: { w: Wallet; id: number }[] = [];
    for (const pct of [60n, 75n, 90n]) {
      const w = await signIn(stage, network, freshClient());
      const res = await w.api("/api/offers", {
        body: { addressId: listing.id, amount: fromUnits((ask * pct) / 100n), currency: view.json.currency, validForHours: 1 },
        cookie: w.cookie,
      });
      stage.record.did(`offer made ${res.status}`);
      if (res.status === 201) made.push({ w, id: res.json.id as number });
    }
    const best = made.at(-1);
    if (!best || made.length < 2) return `offers made ${made.length}`;
    const others = made.slice(0, -1);
    // Refused: not the seller's (404, as anyone else's offer), and never its own buyer's to accept.
    const self = await best.w.api(`/api/offers/${best.id}/accept`, { method: "POST", cookie: best.w.cookie });
    stage.record.did(`offer accepted by its own buyer ${self.status}`);
    const accept = await stage.seller.api(`/api/offers/${best.id}/accept`, { method: "POST", cookie: stage.seller.cookie });
    stage.record.did(`offer accepted by the seller ${accept.status}`);
    if (accept.status !== 201) {
      for (const o of made) stage.record.did(`offer withdrawn ${(await o.w.api(`/api/offers/${o.id}`, { method: "DELETE", cookie: o.w.cookie })).status}`);
      return `accept ${accept.status}`;
    }
    const id = accept.json.transactionId as string;
    let ok = checkStandings(stage, "after accepting", await standings(stage, listing.id), [
      [best.id, "accepted"],
      ...others.map((o): [number, string] => [o.id, "paused"]),
    ]);
    if (Math.random() < 0.6) {
      const pay = await best.w.api(`/api/transactions/${id}`, { cookie: best.w.cookie });
      const { end } = await payAndFollow(stage, best.w, "offerer", id, pay.json as PaymentView, BigInt(pay.json.amountBaseUnits), "page", true);
      if (end.status !== "completed" && end.status !== "verified") return `accepted, paid: ${end.status}${end.reason ? ` ${end.reason}` : ""}`;
      sold = true;
      const key = await reveal(stage, best.w, "offerer", id, listing);
      // The seller's list leaves ended offers out: each buyer's own list says how theirs ended.
      const ended = new Map<number, string>();
      for (const o of others) {
        const mine = await o.w.api("/api/offers/mine", { cookie: o.w.cookie });
        for (const v of (mine.json?.offers ?? []) as Standing[]) if (v.id === o.id) ended.set(v.id, v.status);
      }
      ok &&= checkStandings(
        stage,
        "after the sale (each buyer's own list)",
        ended,
        others.map((o): [number, string] => [o.id, "declined"]),
      );
      return `accepted, paid the offered price: ${key}, standings ${ok ? "as expected" : "WRONG"}`;
    }
    const cancel = await best.w.api(`/api/transactions/${id}/cancel`, { method: "POST", cookie: best.w.cookie });
    stage.record.did(`accepted offer's reservation cancelled ${cancel.status}`);
    ok &&= checkStandings(stage, "after the reservation lapsed", await standings(stage, listing.id), [
      [best.id, "lapsed"],
      ...others.map((o): [number, string] => [o.id, "open"]),
    ]);
    const [first, ...rest] = others;
    stage.record.did(`offer withdrawn ${(await first!.w.api(`/api/offers/${first!.id}`, { method: "DELETE", cookie: first!.w.cookie })).status}`);
    for (const o of rest)
      stage.record.did(`offer declined ${(await stage.seller.api(`/api/offers/${o.id}/decline`, { method: "POST", cookie: stage.seller.cookie })).status}`);
    return `accepted, lapsed, standings ${ok ? "as expected" : "WRONG"}`;
  } finally {
    if (!sold) stage.pool.give(listing);
  }
}

/** A wallet that saved searches before the import, and the searches it saved. */
export type Searcher = { wallet: Wallet; searches: { id: number; name: string; network: Network | null; savedAt: number }[] };

/**
 * `count` wallets, `perNetwork` to a client network (an IPv6 /48 each), each saving the match-all search and one of a
 * network's listings. Each match-all search is one query with `count` subscribers; all of them are armed for the import.
 */
export async function saveSearches(stage: Stage, count: number, perNetwork: number): Promise<Searcher[]> {
  const out: Searcher[] = [];
  for (let i = 0; i < count; i++) {
    const chain: Network = i % 2 === 0 ? "ethereum" : "solana";
    // A client network is an IPv6 /48 (worker/http/rate-limit.ts): one per `perNetwork` searchers.
    const wallet = await signIn(stage, chain, `2001:db8:${(0xc000 + Math.floor(i / perNetwork)).toString(16)}::${(i % perNetwork) + 1}`).catch((err: Error) => {
      stage.record.did(`searcher sign-in refused ${err instanceof SignInRefused ? err.status : 0}`);
      return null;
    });
    if (!wallet) continue;
    const searcher: Searcher = { wallet, searches: [] };
    const wanted: [string, Network | null][] = [
      [`Anything new #${i}`, null],
      [`${i % 4 < 2 ? "Ethereum" : "Solana"} only #${i}`, i % 4 < 2 ? "ethereum" : "solana"],
    ];
    for (const [name, network] of wanted) {
      const res = await wallet.api("/api/saved-searches", { body: { name, filters: network ? { network } : {} }, cookie: wallet.cookie });
      stage.record.did(`search saved (${network ? "one network" : "match-all"}) ${res.status}`);
      if (res.status === 201) searcher.searches.push({ id: res.json.id as number, name, network, savedAt: Date.now() });
    }
    out.push(searcher);
  }
  return out;
}

/** The searches whose owner now sees a match notification of theirs (each name is the soak's own, used once). */
export async function searchesTold(searcher: Searcher): Promise<Set<string>> {
  const res = await searcher.wallet.api("/api/notifications?limit=50", { cookie: searcher.wallet.cookie });
  const told = new Set<string>();
  for (const n of (res.json?.notifications ?? []) as { kind: string; title: string }[]) {
    if (n.kind !== "saved_search_match") continue;
    for (const s of searcher.searches) if (n.title.includes(`“${s.name}”`)) told.add(s.name);
  }
  return told;
}

/**
 * A payment after the reservation closed, made while the import runs: reserved and cancelled beforehand, paid in full
 * once `go` resolves (the import has begun), reported (again while the Worker's node is failing). When it landed,
 * and its hash: the soak waits for its alert.
 */
export async function latePayment(stage: Stage, go: Promise<unknown>): Promise<{ hash: string; landedAt: number; network: Network } | { refused: string }> {
  const w = await signIn(stage, "ethereum", freshClient());
  const r = await reserveSome(stage, w);
  if ("refused" in r) return r;
  try {
    const cancel = await w.api(`/api/transactions/${r.id}/cancel`, { method: "POST", cookie: w.cookie });
    if (cancel.status !== 200) return { refused: `cancel ${cancel.status}` };
    await go;
    const due = BigInt(r.view.amountBaseUnits);
    const hash = await w.pay(r.view, due);
    const landedAt = Date.now();
    sent(stage, w, "late", hash, due);
    for (let attempt = 0; attempt < 5; attempt++) {
      const res = await w.api(`/api/transactions/${r.id}/confirm`, { body: { txHash: hash, buyerWallet: w.address }, cookie: w.cookie });
      stage.record.did(`late payment during the import reported ${res.status}`);
      if (res.status < 500) break;
      await sleep(1000);
    }
    return { hash, landedAt, network: "ethereum" };
  } finally {
    stage.pool.give(r.listing);
  }
}
