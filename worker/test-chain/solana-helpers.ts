// Paying the LiteSVM Solana RPC from the chain tests: funded buyers, raw RPC calls, transfers built by hand
// (with any references, or none) and the Worker-built Solana Pay transfer.
import { Keypair, PublicKey, SystemProgram, Transaction, type TransactionInstruction } from "@solana/web3.js";
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { solanaKey } from "../test/auth-helpers";
import { solWallet, type Wallet } from "../test/purchase-fixtures";
import { client } from "../test/client";

export async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(env.SOL_RPC_URL!, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export async function fundedSolBuyer() {
  const key = solanaKey();
  const keypair = Keypair.fromSeed(key.secretKey);
  await rpc("requestAirdrop", [key.address, 10_000_000_000]);
  return { wallet: await solWallet(key), keypair };
}

/** A funded keypair that never signs in. */
export async function fundedKeypair(): Promise<Keypair> {
  const keypair = Keypair.generate();
  await rpc("requestAirdrop", [keypair.publicKey.toBase58(), 10_000_000_000]);
  return keypair;
}

export async function send(tx: Transaction): Promise<string> {
  const signature = await rpc<string>("sendTransaction", [Buffer.from(tx.serialize()).toString("base64"), { encoding: "base64" }]);
  for (let i = 0; i < 50; i++) {
    const { value } = await rpc<{ value: ({ confirmationStatus: string } | null)[] }>("getSignatureStatuses", [[signature]]);
    if (value[0] && value[0].confirmationStatus !== "processed") return signature;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("transaction did not confirm");
}

/** Signs and sends `instructions` with `signers[0]` paying the fee. */
export async function sendInstructions(signers: Keypair[], ...instructions: TransactionInstruction[]): Promise<string> {
  const { value } = await rpc<{ value: { blockhash: string } }>("getLatestBlockhash", [{ commitment: "confirmed" }]);
  const tx = new Transaction({ feePayer: signers[0].publicKey, recentBlockhash: value.blockhash }).add(...instructions);
  tx.sign(...signers);
  return send(tx);
}

/** A System transfer of `lamports` to the platform carrying every key in `references` as a read-only account. */
export function transferToPlatform(from: Keypair, lamports: bigint, references: string[] = []): TransactionInstruction {
  const ix = SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: new PublicKey(env.PLATFORM_SOL_ADDRESS), lamports });
  for (const r of references) ix.keys.push({ pubkey: new PublicKey(r), isSigner: false, isWritable: false });
  return ix;
}

/** The Worker's unsigned transfer for this purchase, signed by the buyer and sent. */
export async function payThroughWorker(wallet: Wallet, keypair: Keypair, id: string): Promise<string> {
  const res = await client(wallet).transactions[":id"]["solana-transaction"].$post({ param: { id }, json: { account: wallet.address } });
  expect(res.status).toBe(200);
  const { transaction } = await res.json();
  const tx = Transaction.from(Buffer.from(transaction, "base64"));
  tx.sign(keypair);
  return send(tx);
}

export const confirmSol = async (wallet: Wallet, id: string, txHash: string) =>
  (await client(wallet).transactions[":id"].confirm.$post({ param: { id }, json: { txHash, buyerWallet: wallet.address } })).json();
