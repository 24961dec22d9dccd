// An admin closes a stuck purchase in a real browser (docs/payments.md#deadlines): a buyer reports a hash no
// node knows, the purchase waits on it; the admin opens the purchase page, "Close this purchase" asks for a note
// (refused empty), closes it, and the page shows why; the listing can be reserved again at once.
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { listAsAdmin, signInWithKey } from "./api-session";
import { openBrowser, type Session } from "./browser";
import { connect, recordToasts, toast } from "./purchase-journey";
import { injectEthereumWallet } from "./wallets/eip1193";
import { answer } from "./api-session";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe("closing a stuck purchase", () => {
  it("the admin closes a purchase pending on a hash no node knows, with a note; the listing is free again", async () => {
    const key = generatePrivateKey();
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const listingId = await listAsAdmin(admin, { address: privateKeyToAccount(key).address, network: "ethereum", price: "0.02", privateKey: key });
    const buyer = await signInWithKey(DEV_ACCOUNTS.otherBuyer.privateKey as Hex);
    const reserve = () =>
      answer(
        buyer.api.transactions.initiate.$post({
          json: {
            addressId: listingId,
            buyerId: DEV_ACCOUNTS.otherBuyer.address,
            price: "0.02",
            currency: "ETH",
          },
        }),
      );
    const initiated = await reserve();
    expect(initiated.status).toBe(201);
    const id = initiated.body.transactionId;
    const made = `0x${"7d".repeat(32)}`;
    const reported = await answer(
      buyer.api.transactions[":id"].confirm.$post({
        param: { id: id },
        json: {
          txHash: made,
          buyerWallet: DEV_ACCOUNTS.otherBuyer.address,
        },
      }),
    );
    expect(reported.body.status).toBe("pending");

    s = await openBrowser();
    const { page, baseUrl } = s;
    await injectEthereumWallet(page, { account: DEV_ACCOUNTS.admin.address, rpcUrl: inject("rpcUrl") });
    await recordToasts(page);
    await page.goto(`${baseUrl}/`);
    await connect(page, "Admin (ETH)");
    await page.goto(`${baseUrl}/transaction/${id}`);
    const card = page.getByTestId("admin-close-purchase");
    await card.waitFor();
    await page.getByTestId("confirming-note").waitFor();

    // The one confirmation dialog: Keep it open changes nothing; the close needs its note.
    await card.getByRole("button", { name: "Close this purchase" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Close this purchase?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Keep it open" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await page.getByTestId("confirming-note").count()).toBe(1);
    await card.getByRole("button", { name: "Close this purchase" }).click();
    const confirmButton = dialog.getByRole("button", { name: "Close purchase" });
    expect(await confirmButton.isDisabled()).toBe(true);
    await dialog.getByLabel(/Note/).fill("The buyer reported a hash no node knows; told them to reserve again.");
    expect(await confirmButton.isDisabled()).toBe(false);
    await confirmButton.click();
    await toast(page, "Purchase closed");

    await page.getByText("An administrator closed this purchase.").first().waitFor();
    expect(await page.getByTestId("admin-close-purchase").count()).toBe(0);
    // The listing is free: the buyer (or anyone) can reserve it again.
    expect((await reserve()).status).toBe(201);
  }, 180_000);
});
