// Paying real chains from the chain tests: fresh funded wallets on anvil, transfers, and the API calls.
import { env } from "cloudflare:test";
import { createWalletClient, type Hex, http } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { ethereumChain, ethereumClient } from "../chain/ethereum";
import { ethWallet, type Wallet } from "../test/purchase-fixtures";
import { client } from "../test/client";

export async function anvil<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(env.ETH_RPC_URL!, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export type EthBuyer = Wallet & { account: PrivateKeyAccount };

/** A signed-in Ethereum wallet holding 100 ETH on anvil. */
export async function fundedBuyer(): Promise<EthBuyer> {
  const account = privateKeyToAccount(generatePrivateKey());
  await anvil("anvil_setBalance", [account.address, "0x56BC75E2D63100000"]);
  return { ...(await ethWallet(account)), account };
}

/**
 * Sends `wei` from `account` to `to` and waits for the receipt (whatever its status); with `bury`, mines until
 * the payment is ETH_CONFIRMATIONS deep (anvil automines one block per transaction).
 */
export async function pay(account: PrivateKeyAccount, wei: bigint, to: Hex = env.PLATFORM_ETH_ADDRESS as Hex, bury = true): Promise<Hex> {
  const wallet = createWalletClient({ account, chain: ethereumChain(env), transport: http(env.ETH_RPC_URL!) });
  const hash = await wallet.sendTransaction({ to, value: wei, gas: 100_000n });
  await ethereumClient(env).waitForTransactionReceipt({ hash, pollingInterval: 50 });
  const extra = Number(env.ETH_CONFIRMATIONS) - 1;
  if (bury && extra > 0) await anvil("anvil_mine", [`0x${extra.toString(16)}`]);
  return hash;
}

export async function confirm(wallet: Wallet, id: string, txHash: string) {
  const res = await client(wallet).transactions[":id"].confirm.$post({ param: { id }, json: { txHash, buyerWallet: wallet.address } });
  return {
    status: res.status,
    body: await res.json(),
  };
}

export async function amountOf(wallet: Wallet, id: string): Promise<bigint> {
  const view = await (await client(wallet).transactions[":id"].$get({ param: { id } })).json();
  return BigInt(view.amountBaseUnits);
}

/** The ledger row of a payment (hashes are stored lower-case on Ethereum). */
export const escrowOf = (hash: string) =>
  env.DB.prepare("SELECT * FROM escrow_transactions WHERE tx_hash = ?")
    .bind(hash.startsWith("0x") ? hash.toLowerCase() : hash)
    .first<Record<string, unknown>>();

export const countRows = (table: string, where: string, ...binds: unknown[]) =>
  env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)
    .bind(...binds)
    .first<{ n: number }>()
    .then((r) => r!.n);
