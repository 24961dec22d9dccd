import { env } from "cloudflare:test";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { SOLANA_DEV_ACCOUNTS } from "../../schema/dev-accounts";

describe("chain test harness, Solana", () => {
  it("a dev-wallet transfer to the platform lands on the LiteSVM RPC and is read back from inside the Worker runtime", async () => {
    const connection = new Connection(env.SOL_RPC_URL!, "confirmed");
    const buyer = Keypair.fromSecretKey(base58.decode(SOLANA_DEV_ACCOUNTS.buyer.secretKey));
    const platform = new PublicKey(env.PLATFORM_SOL_ADDRESS);
    const { blockhash } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: buyer.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: buyer.publicKey, toPubkey: platform, lamports: LAMPORTS_PER_SOL / 100 }),
    );
    tx.sign(buyer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    const [status] = (await connection.getSignatureStatuses([signature])).value;
    expect(status).toMatchObject({ err: null, confirmationStatus: "confirmed" });
    const got = await connection.getTransaction(signature, { commitment: "confirmed", maxSupportedTransactionVersion: 0 });
    expect(got!.transaction.message.staticAccountKeys[1]!.toBase58()).toBe(platform.toBase58());
    expect(got!.meta!.postBalances[1]! - got!.meta!.preBalances[1]!).toBe(LAMPORTS_PER_SOL / 100);
  });
});
