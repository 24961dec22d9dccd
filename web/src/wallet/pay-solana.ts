// Paying for a purchase from the connected Solana wallet: the Worker builds the unsigned transfer (buyer ->
// platform, exact lamports, the purchase's reference key; Solana Pay's transaction-request style), and the
// wallet signs and sends it with the Wallet Standard `solana:signAndSendTransaction`. The page needs no RPC.
import type { SolanaSignAndSendTransactionFeature } from "@solana/wallet-standard-features";
import { base58, base64 } from "@scure/base";
import type { Wallet, WalletAccount } from "@wallet-standard/base";
import type { StandardConnectFeature } from "@wallet-standard/features";
import type { SolanaCluster } from "../../../schema/purchases";
import { PaymentError } from "../payments/payment-errors";

/** The Wallet Standard chain of a cluster ("mainnet-beta" is "solana:mainnet"). */
export const solanaChain = (cluster: SolanaCluster) => (cluster === "mainnet-beta" ? "solana:mainnet" : `solana:${cluster}`) as `${string}:${string}`;

const feature = <F>(wallet: Wallet, name: string) => (wallet.features as Record<string, unknown>)[name] as F[keyof F] | undefined;

async function accountFor(wallet: Wallet, address: string): Promise<WalletAccount> {
  const found = wallet.accounts.find((a) => a.address === address);
  if (found) return found;
  const connect = feature<StandardConnectFeature>(wallet, "standard:connect");
  const accounts = connect ? (await connect.connect()).accounts : [];
  const account = accounts.find((a) => a.address === address);
  if (!account) throw new PaymentError("other", `Your wallet is not on the account you signed in with (${address}). Switch to it in the wallet and try again.`);
  return account;
}

export type SolanaPayment = { wallet: Wallet; from: string; transactionBase64: string; cluster: SolanaCluster };

/** Signs and sends the Worker-built transfer; returns its signature (base58). */
export async function sendSolanaPayment({ wallet, from, transactionBase64, cluster }: SolanaPayment): Promise<string> {
  const signAndSend = feature<SolanaSignAndSendTransactionFeature>(wallet, "solana:signAndSendTransaction");
  if (!signAndSend) throw new PaymentError("other", `${wallet.name} cannot send transactions from this page. Use a wallet such as Phantom or Solflare.`);
  const account = await accountFor(wallet, from);
  const chain = solanaChain(cluster);
  if (account.chains.length > 0 && !account.chains.includes(chain)) {
    throw new PaymentError(
      "wrong-chain",
      `Wrong network: your wallet does not offer ${chain}. Switch it to the marketplace's cluster (${cluster}) and try again.`,
    );
  }
  const [output] = await signAndSend.signAndSendTransaction({
    account,
    chain,
    transaction: base64.decode(transactionBase64),
    options: { commitment: "confirmed" },
  });
  if (output?.signature?.length !== 64) throw new PaymentError("other", "The wallet did not return a transaction signature.");
  return base58.encode(output.signature);
}
