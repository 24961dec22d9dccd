// The soak's simulated buyers and attackers (docs/testing.md#soak). Each episode is one visitor's session against the
// running stack over HTTP, from its own client network (a header value; every request goes to loopback), paying on
// the chain directly (a wallet's own node, not the Worker's faulty one). What each saw is recorded for the end checks.
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
  signInSolana,
  sleep,
} from "../bench/buyer-client";
import { RESERVATION_MINUTES } from "../../schema/reservation";
import type { Network, SentTransfer } from "./invariants";

export const ACTOR_KINDS = ["honest", "silent", "underpayer", "overpayer", "canceller", "junk", "late", "hoarder"] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** What every actor adds to: outcome counts, transfers sent, keys received, answers seen. */
export class Tally {
  readonly outcomes = new Map<string, number>();
  readonly sent: SentTransfer[] = [];
  readonly keys: { purchaseId: string; actor: string }[] = [];
  readonly serverErrors: { path: string; status: number; message: string }[] = [];
  /** How long an unreported payment took to be found and settled (silent payers), per network, in ms. */
  readonly foundAfter: Record<Network, number[]> = { ethereum: [], solana: [] };
  answers = 0;
  outcome(kind: ActorKind, network: Network, what: string) {
    const k = `${kind}\t${network}\t${what}`;
    this.outcomes.set(k, (this.outcomes.get(k) ?? 0) + 1);
  }
  answer(path: string, status: number, json: { message?: unknown } | null) {
    this.answers++;
    if (status >= 500) this.serverErrors.push({ path: path.replace(/[0-9a-f-]{36}/, ":id"), status, message: String(json?.message ?? "") });
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
    (p, s, json) => stage.record.answer(p, s, json),
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
  const w = await signIn(stage, network, kind === "hoarder" ? hoarderClient(network) : freshClient());
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
        const hash = kind === "overpayer" || network === "ethereum" ? await w.pay(view, amount) : await payExactSolana(stage, w, id, view);
        sent(stage, w, kind, hash, amount);
        const paidAt = Date.now();
        const end = await follow(stage, w, id, kind === "silent" ? null : hash);
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
        return `no episode for ${kind satisfies "hoarder"}`;
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
