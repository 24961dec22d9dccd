// On anvil: while a payment confirms, the purchase page's count moves with the blocks, from the same
// confirm checks that settle the purchase, before the key appears. The test mines by hand (interval mining off,
// automine on: the payment lands alone in one block), so each step is held long enough to be seen; the stack's
// one-block-a-second mining is restored afterwards.
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { anvil } from "./anvil";
import { listAsAdmin, signInWithKey } from "./api-session";
import { openBrowser, type Session } from "./browser";
import { buyFromListingPage, connect, recordToasts, revealKey } from "./purchase-journey";
import { injectEthereumWallet } from "./wallets/eip1193";

let s: Session | undefined;
afterEach(async () => {
  await anvil("evm_setAutomine", [false]).catch(() => {});
  await anvil("evm_setIntervalMining", [1]).catch(() => {});
  await s?.close();
  s = undefined;
});

describe("the live confirmation count", () => {
  it("reads 1 of 2 once the payment is in a block, and the key appears only after the next block", async () => {
    const key = generatePrivateKey();
    const address = privateKeyToAccount(key).address;
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const listingId = await listAsAdmin(admin, { address, network: "ethereum", price: "0.003", privateKey: key });
    s = await openBrowser();
    const { page, baseUrl } = s;
    await injectEthereumWallet(page, { account: DEV_ACCOUNTS.otherBuyer.address, rpcUrl: inject("rpcUrl") });
    await recordToasts(page);
    await page.goto(`${baseUrl}/`);
    await connect(page, "0x3C44Cd");

    // From now on a block is made only when a transaction arrives (the payment) or the test asks.
    await anvil("evm_setIntervalMining", [0]);
    await anvil("evm_setAutomine", [true]);
    await buyFromListingPage(page, baseUrl, listingId);
    const count = page.getByTestId("confirmations");
    await expect.poll(() => count.textContent(), { timeout: 30_000 }).toBe("1 of 2 confirmations");
    // Held there: no new block, no key.
    await page.waitForTimeout(4000);
    expect(await count.textContent()).toBe("1 of 2 confirmations");
    expect(await page.getByTestId("private-key-card").count()).toBe(0);

    await anvil("evm_mine");
    const revealed = await revealKey(page);
    expect(privateKeyToAccount(revealed as Hex).address).toBe(address);
  }, 120_000);
});
