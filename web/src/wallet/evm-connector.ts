// Talking to an EVM wallet through viem. Imported on demand only (viem is large and the home page does not
// need it): eth_requestAccounts, the chain id, personal_sign.
import { createWalletClient, custom, getAddress, type Address, type Hex } from "viem";
import type { Eip1193Provider } from "./evm-discovery";
import { WalletError } from "./wallet-errors";

// No retries: a refusal or a closed popup must reach the person at once, not be asked three times.
const clientFor = (provider: Eip1193Provider) => createWalletClient({ transport: custom(provider as Parameters<typeof custom>[0], { retryCount: 0 }) });

/** Asks the wallet for its account (the wallet's own prompt) and reads the chain it is on. */
export async function requestEvmAccount(provider: Eip1193Provider): Promise<{ address: Address; chainId: number }> {
  const client = clientFor(provider);
  const [first] = await client.requestAddresses();
  if (!first) throw new WalletError("The wallet did not share an account. Unlock it and try again.");
  const chainId = await client.getChainId();
  return { address: getAddress(first), chainId };
}

/** personal_sign of the server's Sign-In with Ethereum message. */
export async function signEvmMessage(provider: Eip1193Provider, address: Address, message: string): Promise<Hex> {
  return clientFor(provider).signMessage({ account: address, message });
}
