import { base58, base64 } from "@scure/base";
import type { Wallet } from "@wallet-standard/base";
import { describe, expect, it } from "vitest";
import { describePaymentFailure } from "../payments/payment-errors";
import { sendSolanaPayment, solanaChain } from "./pay-solana";

const BUYER = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const TX = base64.encode(Uint8Array.from({ length: 120 }, (_, i) => i));
const SIGNATURE = Uint8Array.from({ length: 64 }, (_, i) => 255 - i);

function fakeWallet(opts: { accounts?: string[]; chains?: string[]; withSend?: boolean } = {}) {
  const seen: { transaction?: Uint8Array; chain?: string; account?: string }[] = [];
  const account = (address: string) => ({ address, publicKey: new Uint8Array(32), chains: opts.chains ?? ["solana:localnet", "solana:devnet"], features: [] });
  const features: Record<string, unknown> = {
    "standard:connect": { version: "1.0.0", connect: async () => ({ accounts: (opts.accounts ?? [BUYER]).map(account) }) },
  };
  if (opts.withSend !== false) {
    features["solana:signAndSendTransaction"] = {
      version: "1.0.0",
      supportedTransactionVersions: ["legacy", 0],
      signAndSendTransaction: async (input: { transaction: Uint8Array; chain: string; account: { address: string } }) => {
        seen.push({ transaction: input.transaction, chain: input.chain, account: input.account.address });
        return [{ signature: SIGNATURE }];
      },
    };
  }
  const wallet = { version: "1.0.0", name: "Fake", icon: "data:image/svg+xml,", chains: ["solana:localnet"], accounts: [], features } as unknown as Wallet;
  return { wallet, seen };
}

describe("sendSolanaPayment", () => {
  it("has the wallet sign and send exactly the Worker's transfer, and returns the base58 signature", async () => {
    const w = fakeWallet();
    const sig = await sendSolanaPayment({ wallet: w.wallet, from: BUYER, transactionBase64: TX, cluster: "localnet" });
    expect(sig).toBe(base58.encode(SIGNATURE));
    expect(w.seen).toHaveLength(1);
    expect(w.seen[0].transaction).toEqual(base64.decode(TX));
    expect(w.seen[0]).toMatchObject({ chain: "solana:localnet", account: BUYER });
  });

  it("maps mainnet-beta to the Wallet Standard chain solana:mainnet", () => {
    expect(solanaChain("mainnet-beta")).toBe("solana:mainnet");
    expect(solanaChain("devnet")).toBe("solana:devnet");
  });

  it("refuses a wallet without signAndSendTransaction", async () => {
    const w = fakeWallet({ withSend: false });
    await expect(sendSolanaPayment({ wallet: w.wallet, from: BUYER, transactionBase64: TX, cluster: "localnet" })).rejects.toThrow(/cannot send transactions/);
  });

  it("refuses another account than the signed-in one", async () => {
    const w = fakeWallet({ accounts: ["11111111111111111111111111111111"] });
    await expect(sendSolanaPayment({ wallet: w.wallet, from: BUYER, transactionBase64: TX, cluster: "localnet" })).rejects.toThrow(/not on the account/);
    expect(w.seen).toHaveLength(0);
  });

  it("refuses as wrong chain when the account does not offer the marketplace's cluster", async () => {
    const w = fakeWallet({ chains: ["solana:mainnet"] });
    const err = await sendSolanaPayment({ wallet: w.wallet, from: BUYER, transactionBase64: TX, cluster: "devnet" }).catch((e: unknown) => e);
    expect(describePaymentFailure(err).kind).toBe("wrong-chain");
    expect(w.seen).toHaveLength(0);
  });
});
