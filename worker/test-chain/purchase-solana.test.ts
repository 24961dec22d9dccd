// Buying on Solana against the LiteSVM JSON-RPC: the Worker builds the unsigned transfer (Solana Pay
// transaction request), the buyer signs and sends it, the Worker decodes it from getTransaction itself.
import { Keypair, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { runScheduledJobs } from "../jobs/scheduled";
import { solanaKey } from "../test/auth-helpers";
import { actors, call, listWithKey, purchaseRow, reserve, solWallet, type Wallet } from "../test/purchase-fixtures";

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(env.SOL_RPC_URL, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await res.json()) as { result: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function fundedSolBuyer() {
  const key = solanaKey();
  const keypair = Keypair.fromSeed(key.secretKey);
  await rpc("requestAirdrop", [key.address, 10_000_000_000]);
  return { wallet: await solWallet(key), keypair };
}

async function send(tx: Transaction): Promise<string> {
  const signature = await rpc<string>("sendTransaction", [Buffer.from(tx.serialize()).toString("base64"), { encoding: "base64" }]);
  for (let i = 0; i < 50; i++) {
    const { value } = await rpc<{ value: ({ confirmationStatus: string } | null)[] }>("getSignatureStatuses", [[signature]]);
    if (value[0] && value[0].confirmationStatus !== "processed") return signature;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("transaction did not confirm");
}

/** The Worker's unsigned transfer for this purchase, signed by the buyer and sent. */
async function payThroughWorker(wallet: Wallet, keypair: Keypair, id: string): Promise<string> {
  const res = await call("POST", `/api/transactions/${id}/solana-transaction`, wallet, { account: wallet.address });
  expect(res.status).toBe(200);
  const { transaction } = await res.json<{ transaction: string }>();
  const tx = Transaction.from(Buffer.from(transaction, "base64"));
  tx.sign(keypair);
  return send(tx);
}

async function manualPayment(keypair: Keypair, lamports: bigint, reference: string | null) {
  const { value } = await rpc<{ value: { blockhash: string } }>("getLatestBlockhash", [{ commitment: "confirmed" }]);
  const ix = SystemProgram.transfer({ fromPubkey: keypair.publicKey, toPubkey: new PublicKey(env.PLATFORM_SOL_ADDRESS), lamports });
  if (reference) ix.keys.push({ pubkey: new PublicKey(reference), isSigner: false, isWritable: false });
  const tx = new Transaction({ feePayer: keypair.publicKey, recentBlockhash: value.blockhash }).add(ix);
  tx.sign(keypair);
  return send(tx);
}

const confirmSol = async (wallet: Wallet, id: string, txHash: string) =>
  (await call("POST", `/api/transactions/${id}/confirm`, wallet, { txHash, buyerWallet: wallet.address })).json<{ success: boolean; status: string }>();

describe("Solana purchases on the LiteSVM chain", () => {
  it("pay with the Worker-built transfer, confirm, reveal: the key derives the listing's address", async () => {
    const { wallet, keypair } = await fundedSolBuyer();
    const l = await listWithKey(seller.userId, { network: "solana", price: "0.75" });
    const id = await reserve(wallet, l.id);
    const view = await (await call("GET", `/api/transactions/${id}`, wallet)).json<{ amountBaseUnits: string; paymentReference: string; recipient: string; requiredConfirmations: number }>();
    expect(view).toMatchObject({ amountBaseUnits: "750000000", recipient: env.PLATFORM_SOL_ADDRESS, requiredConfirmations: 1 });
    const signature = await payThroughWorker(wallet, keypair, id);
    expect(await confirmSol(wallet, id, signature)).toMatchObject({ success: true, status: "completed" });
    const { privateKey } = await (await call("POST", `/api/transactions/${id}/reveal-private-key`, wallet)).json<{ privateKey: string }>();
    const secret = base58.decode(privateKey);
    expect(base58.encode(ed25519.getPublicKey(secret.slice(0, 32)))).toBe(l.key.address);
  });

  it("another wallet cannot get the transfer built for it: 403", async () => {
    const { wallet } = await fundedSolBuyer();
    const id = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana" })).id);
    const res = await call("POST", `/api/transactions/${id}/solana-transaction`, wallet, { account: Keypair.generate().publicKey.toBase58() });
    expect(res.status).toBe(403);
  });

  it("underpaid by one lamport: failed, listed for refund", async () => {
    const { wallet, keypair } = await fundedSolBuyer();
    const id = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.5" })).id);
    const row = await purchaseRow(id);
    const signature = await manualPayment(keypair, 499_999_999n, String(row!.payment_reference));
    expect(await confirmSol(wallet, id, signature)).toMatchObject({ success: false, status: "failed" });
    expect(await purchaseRow(id)).toMatchObject({ failure_reason: "underpaid" });
    const escrow = await env.DB.prepare("SELECT attention_reason, refund_status FROM escrow_transactions WHERE tx_hash = ?").bind(signature).first();
    expect(escrow).toEqual({ attention_reason: "partial", refund_status: "needed" });
  });

  it("a transfer without the purchase's reference key is refused", async () => {
    const { wallet, keypair } = await fundedSolBuyer();
    const id = await reserve(wallet, (await listWithKey(seller.userId, { network: "solana", price: "0.5" })).id);
    const signature = await manualPayment(keypair, 500_000_000n, null);
    expect(await confirmSol(wallet, id, signature)).toMatchObject({ success: false, status: "initiated" });
    expect(await purchaseRow(id)).toMatchObject({ failure_reason: "missing-reference" });
  });

  it("the tab was closed after paying: the cron job finds the payment by its reference key and settles it", async () => {
    const { wallet, keypair } = await fundedSolBuyer();
    const l = await listWithKey(seller.userId, { network: "solana", price: "0.2" });
    const id = await reserve(wallet, l.id);
    const signature = await payThroughWorker(wallet, keypair, id);
    const report = await runScheduledJobs(env);
    expect(report.payments.foundByScan).toBeGreaterThanOrEqual(1);
    expect(await purchaseRow(id)).toMatchObject({ status: "completed", tx_hash: signature });
  });
});
