// Which wallet pays: the one the buyer signed in with (walletType is the EIP-6963 rdns, "injected", or the
// Wallet Standard wallet's name).
import type { Wallet } from "@wallet-standard/base";
import { evmWallets, type Eip1193Provider } from "../../wallet/evm-discovery";
import { loadSolanaWallets, solanaWallets } from "../../wallet/solana-discovery";

export function signedInEvmProvider(walletType: string | null): Eip1193Provider | null {
  const wallets = evmWallets();
  return (wallets.find((w) => w.rdns === walletType) ?? (walletType === "injected" ? wallets[0] : undefined))?.provider ?? null;
}

export async function signedInSolanaWallet(walletType: string | null): Promise<Wallet | null> {
  await loadSolanaWallets();
  return solanaWallets().find((w) => w.name === walletType)?.wallet ?? null;
}
