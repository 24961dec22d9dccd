import { env } from "cloudflare:test";
import { createWalletClient, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { DEV_ACCOUNTS } from "../../schema/dev-accounts";
import { ethereumChain, ethereumClient } from "../chain/ethereum";

describe("chain test harness", () => {
  it("reaches the anvil started for the tests, on the configured chain id", async () => {
    const client = ethereumClient(env);
    expect(await client.getChainId()).toBe(Number(env.ETH_CHAIN_ID));
  });

  it("a dev-account transfer is mined and its receipt read back from inside the Worker runtime", async () => {
    const chain = ethereumChain(env);
    const wallet = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.buyer.privateKey), chain, transport: http(env.ETH_RPC_URL) });
    const hash = await wallet.sendTransaction({ to: DEV_ACCOUNTS.platform.address, value: parseEther("0.01") });
    const receipt = await ethereumClient(env).waitForTransactionReceipt({ hash, pollingInterval: 100 });
    expect(receipt.status).toBe("success");
    expect(receipt.to?.toLowerCase()).toBe(DEV_ACCOUNTS.platform.address.toLowerCase());
  });
});
