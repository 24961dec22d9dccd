// Signing in with a Wallet Standard Solana wallet: `solana:signIn` when the wallet offers it (one prompt,
// the wallet writes the message from our input), otherwise `standard:connect` then `solana:signMessage` on
// the message the server wrote.
import type { SolanaSignInFeature, SolanaSignMessageFeature } from "@solana/wallet-standard-features";
import { base58 } from "@scure/base";
import type { Wallet, WalletAccount } from "@wallet-standard/base";
import type { StandardConnectFeature, StandardDisconnectFeature } from "@wallet-standard/features";
import { requestNonce } from "./auth-api";
import { WalletError } from "./wallet-errors";

export type SignedSolanaMessage = { address: string; message: string; signature: string };

const feature = <F>(wallet: Wallet, name: string) => (wallet.features as Record<string, unknown>)[name] as F[keyof F] | undefined;

// A signed message that is not UTF-8 text cannot be a sign-in message; the server would refuse it anyway.
const decode = (bytes: Uint8Array) => new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);

export async function signInWithSolanaWallet(wallet: Wallet): Promise<SignedSolanaMessage> {
  const signIn = feature<SolanaSignInFeature>(wallet, "solana:signIn");
  if (signIn) {
    const { signInInput } = await requestNonce({ network: "solana" });
    const [output] = await signIn.signIn(signInInput!);
    if (!output) throw new WalletError("The wallet returned no signature.");
    return { address: output.account.address, message: decode(output.signedMessage), signature: base58.encode(output.signature) };
  }

  const connect = feature<StandardConnectFeature>(wallet, "standard:connect");
  const signMessage = feature<SolanaSignMessageFeature>(wallet, "solana:signMessage");
  if (!connect || !signMessage) throw new WalletError(`${wallet.name} cannot sign messages.`);
  const { accounts } = await connect.connect();
  const account: WalletAccount | undefined = accounts[0] ?? wallet.accounts[0];
  if (!account) throw new WalletError("The wallet did not share an account. Unlock it and try again.");
  const { message } = await requestNonce({ network: "solana", address: account.address });
  const [output] = await signMessage.signMessage({ account, message: new TextEncoder().encode(message!) });
  if (!output) throw new WalletError("The wallet returned no signature.");
  return { address: account.address, message: decode(output.signedMessage), signature: base58.encode(output.signature) };
}

/** Reconnects without a prompt where the wallet allows it; returns the shared accounts (maybe none). */
export async function silentSolanaAccounts(wallet: Wallet): Promise<readonly WalletAccount[]> {
  const connect = feature<StandardConnectFeature>(wallet, "standard:connect");
  if (!connect) return wallet.accounts;
  try {
    return (await connect.connect({ silent: true })).accounts;
  } catch {
    return wallet.accounts;
  }
}

export async function disconnectSolanaWallet(wallet: Wallet) {
  try {
    await feature<StandardDisconnectFeature>(wallet, "standard:disconnect")?.disconnect();
  } catch {
    /* the session is already gone on our side */
  }
}
