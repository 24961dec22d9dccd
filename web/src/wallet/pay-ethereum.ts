// Paying for a purchase from the connected Ethereum wallet (EIP-1193): make sure the wallet is on the
// marketplace's chain and on the signed-in account, then ask it for one native transfer of exactly the amount
// in wei with the spec's gas limit of 21000 (0x5208). The wallet fills in the fee and shows the prompt.
import { sameAddress } from "../../../schema/same-address";
import { PaymentError } from "../payments/payment-errors";
import type { Eip1193Provider } from "./evm-discovery";
import { isUserRejection } from "./wallet-errors";

/** A plain ETH transfer costs exactly 21000 gas. */
export const TRANSFER_GAS = "0x5208";

const CHAIN_NAMES: Record<number, string> = {
  1: "Ethereum Mainnet",
  11155111: "Sepolia",
  17000: "Holesky",
  560048: "Hoodi",
  31337: "the local development chain",
};
const chainName = (id: number) => CHAIN_NAMES[id] ?? `chain ${id}`;
const toHex = (n: bigint | number) => `0x${n.toString(16)}`;

async function currentChain(provider: Eip1193Provider): Promise<number> {
  return Number(BigInt((await provider.request({ method: "eth_chainId" })) as string));
}

/** Switches the wallet to `chainId` if it is elsewhere; a wallet that will not switch is a wrong-chain failure. */
export async function ensureChain(provider: Eip1193Provider, chainId: number) {
  const before = await currentChain(provider);
  if (before === chainId) return;
  try {
    await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: toHex(chainId) }] });
  } catch (err) {
    if (isUserRejection(err)) throw err;
    throw new PaymentError(
      "wrong-chain",
      `Wrong network: your wallet is on ${chainName(before)}. Switch it to ${chainName(chainId)} (chain id ${chainId}) and try again.`,
    );
  }
  const after = await currentChain(provider);
  if (after !== chainId) {
    throw new PaymentError(
      "wrong-chain",
      `Wrong network: your wallet is on ${chainName(after)}. Switch it to ${chainName(chainId)} (chain id ${chainId}) and try again.`,
    );
  }
}

export type EthereumPayment = { provider: Eip1193Provider; from: string; to: string; valueWei: bigint; chainId: number };

/** Sends the payment and returns its transaction hash (the wallet's, as broadcast). */
export async function sendEthereumPayment({ provider, from, to, valueWei, chainId }: EthereumPayment): Promise<string> {
  await ensureChain(provider, chainId);
  const accounts = ((await provider.request({ method: "eth_accounts" })) as string[] | null) ?? [];
  if (!accounts.some((a) => sameAddress("ethereum", a, from))) {
    throw new PaymentError("other", `Your wallet is not on the account you signed in with (${from}). Switch to it in the wallet and try again.`);
  }
  const hash = await provider.request({
    method: "eth_sendTransaction",
    params: [{ from, to, value: toHex(valueWei), gas: TRANSFER_GAS }],
  });
  if (typeof hash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(hash)) throw new PaymentError("other", "The wallet did not return a transaction hash.");
  return hash;
}
