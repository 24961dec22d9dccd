import { type EvmWallet, useEvmWallets } from "./evm-discovery";
import { type SolanaWallet, useSolanaWallets } from "./solana-discovery";

export type WalletChoice = EvmWallet | SolanaWallet;

/** The id stored as walletType: an EIP-6963 rdns, "injected", or a Wallet Standard wallet's name. */
export const walletChoiceId = (w: WalletChoice) => (w.kind === "evm" ? w.rdns : w.name);

/** Every wallet this browser offers right now, EVM (EIP-6963) and Solana (Wallet Standard), kept current. */
export function useWalletChoices(): { evm: EvmWallet[]; solana: SolanaWallet[]; all: WalletChoice[] } {
  const evm = useEvmWallets();
  const solana = useSolanaWallets();
  return { evm, solana, all: [...evm, ...solana] };
}
