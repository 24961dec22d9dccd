// A real completed sale for the journeys that need one (Admin > Analytics, the phone layout of the admin tabs):
// listed by the admin, reserved and paid in full by a dev buyer on the e2e anvil, confirmed until it completes,
// its key revealed.
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import type { InitiateResponse, PurchaseView } from "../schema/purchases";
import { DEV_ACCOUNTS } from "../scripts/dev-accounts";
import { anvil } from "./anvil";
import { listAsAdmin, signInWithKey } from "./api-session";

/** A real purchase: listed by the admin, paid in full by a dev buyer, completed, its key revealed. */
export async function realPurchase(price: string) {
  const key = generatePrivateKey();
  const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
  const listingId = await listAsAdmin(admin, { address: privateKeyToAccount(key).address, network: "ethereum", price, privateKey: key });
  const buyer = await signInWithKey(DEV_ACCOUNTS.otherBuyer.privateKey as Hex);
  const initiated = await buyer.call<InitiateResponse>("POST", "/api/transactions/initiate", {
    addressId: listingId,
    buyerId: DEV_ACCOUNTS.otherBuyer.address,
    price,
    currency: "ETH",
  });
  expect(initiated.status).toBe(201);
  const id = initiated.body.transactionId;
  const view = (await buyer.call<PurchaseView>("GET", `/api/transactions/${id}`)).body;
  const txHash = await anvil<string>("eth_sendTransaction", [
    { from: DEV_ACCOUNTS.otherBuyer.address, to: view.recipient, value: `0x${BigInt(view.amountBaseUnits).toString(16)}`, gas: "0x5208" },
  ]);
  await expect
    .poll(
      async () =>
        (await buyer.call<{ status: string }>("POST", `/api/transactions/${id}/confirm`, { txHash, buyerWallet: DEV_ACCOUNTS.otherBuyer.address })).body.status,
      {
        timeout: 30_000,
        interval: 1000,
      },
    )
    .toBe("completed");
  expect((await buyer.call("POST", `/api/transactions/${id}/reveal-private-key`)).status).toBe(200);
  return id;
}
