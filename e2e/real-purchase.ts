// A real completed sale for the journeys that need one (Admin > Analytics, the phone layout of the admin tabs):
// listed by the admin, reserved and paid in full by a dev buyer on the e2e anvil, confirmed until it completes,
// its key revealed.
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import { extractableDeliveryKey, openSealedKey } from "../schema/sealed-delivery";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { anvil } from "./anvil";
import { type ApiSession, answer, listAsAdmin, signInWithKey } from "./api-session";

/**
 * The dev buyer reports its payment at once and again until the Worker decides it (anvil mines a block a second,
 * so the depth comes within seconds): the purchase's status must then be `status`.
 */
export async function reportUntil(buyer: ApiSession, id: string, txHash: string, status: "completed" | "failed") {
  const report = buyer.api.transactions[":id"].confirm;
  await expect
    .poll(async () => (await answer(report.$post({ param: { id }, json: { txHash, buyerWallet: DEV_ACCOUNTS.otherBuyer.address } }))).body.status, {
      timeout: 30_000,
      interval: 1000,
    })
    .toBe(status);
}

/** A real purchase: listed by the admin, paid in full by a dev buyer, completed, its key revealed. */
export async function realPurchase(price: string) {
  const key = generatePrivateKey();
  const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
  const listingId = await listAsAdmin(admin, { address: privateKeyToAccount(key).address, network: "ethereum", price, privateKey: key });
  const buyer = await signInWithKey(DEV_ACCOUNTS.otherBuyer.privateKey as Hex);
  const initiated = await answer(
    buyer.api.transactions.initiate.$post({
      json: {
        addressId: listingId,
        buyerId: DEV_ACCOUNTS.otherBuyer.address,
        price,
        currency: "ETH",
      },
    }),
  );
  expect(initiated.status).toBe(201);
  const id = initiated.body.transactionId;
  const view = (await answer(buyer.api.transactions[":id"].$get({ param: { id: id } }))).body;
  const txHash = await anvil<string>("eth_sendTransaction", [
    { from: DEV_ACCOUNTS.otherBuyer.address, to: view.recipient, value: `0x${BigInt(view.amountBaseUnits).toString(16)}`, gas: "0x5208" },
  ]);
  await reportUntil(buyer, id, txHash, "completed");
  // Revealed as the purchase page does it: sealed to a one-time key pair, opened here.
  const page = await extractableDeliveryKey();
  const reveal = await answer(buyer.api.transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: { publicKey: page.publicKey } }));
  expect(reveal.status).toBe(200);
  if (!reveal.body.success) throw new Error(reveal.body.message);
  expect(await openSealedKey(page.pair, id, reveal.body.sealed)).toBe(key);
  return id;
}
