// Buying on Solana in a real browser, end to end on the e2e stack's LiteSVM chain: the buyer (the Solana dev
// buyer, a Wallet Standard wallet with solana:signAndSendTransaction) buys a listing whose key only this test
// knows; the Worker builds the transfer with the purchase's reference key, the wallet signs and sends it, the
// key appears, derives the listing's address, saves as the CLI's keypair file, is destroyed; the listing is
// SOLD and the sale shows on the home page. A refusal in the wallet says so and offers Try Again.
import fs from "node:fs";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import type { Hex } from "viem";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEV_ACCOUNTS, SOLANA_DEV_ACCOUNTS } from "../schema/dev-accounts";
import { listAsAdmin, signInWithKey } from "./api-session";
import { openBrowser, type Session } from "./browser";
import {
  buyFromListingPage,
  connect,
  destroyKey,
  expectDestroyedInMyPurchases,
  expectSoldEverywhere,
  recordToasts,
  revealKey,
  toast,
} from "./purchase-journey";
import { injectSolanaWallet } from "./wallets/wallet-standard";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function freshListing(price: string) {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const publicKey = ed25519.getPublicKey(seed);
  const address = base58.encode(publicKey);
  const privateKey = base58.encode(new Uint8Array([...seed, ...publicKey]));
  const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
  return { address, privateKey, id: await listAsAdmin(admin, { address, network: "solana", price, privateKey }) };
}

async function buyerSession() {
  s = await openBrowser();
  const buyer = SOLANA_DEV_ACCOUNTS.buyer;
  await injectSolanaWallet(s.page, { secretKey: base58.decode(buyer.secretKey).slice(0, 32), address: buyer.address }, { rpcUrl: inject("solRpcUrl") });
  await recordToasts(s.page);
  await s.page.goto(`${s.baseUrl}/`);
  await connect(s.page, buyer.address.slice(0, 8));
  return s;
}

const walletCalls = (session: Session) =>
  session.page.evaluate(() => (window as unknown as { __testSolana: { control: { calls: string[] } } }).__testSolana.control.calls);

describe("buying on Solana", () => {
  it("buy, the wallet signs and sends the Worker's transfer, the key derives the address, keypair file, destroy; SOLD and in recent sales", async () => {
    const listing = await freshListing("0.5");
    const session = await buyerSession();
    const { page, baseUrl } = session;
    const transactionId = await buyFromListingPage(page, baseUrl, listing.id);
    await expect.poll(() => walletCalls(session), { timeout: 20_000 }).toContain("signAndSendTransaction");

    await toast(page, "Private Key Released!", 90_000);
    const key = await revealKey(page);
    const secret = base58.decode(key);
    expect(secret).toHaveLength(64);
    expect(base58.encode(ed25519.getPublicKey(secret.slice(0, 32)))).toBe(listing.address);

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download keypair file" }).click()]);
    const keypair = JSON.parse(fs.readFileSync((await download.path())!, "utf8")) as number[];
    expect(keypair).toHaveLength(64);
    expect(base58.encode(Uint8Array.from(keypair.slice(32)))).toBe(listing.address);

    await destroyKey(page);
    await expectDestroyedInMyPurchases(page, baseUrl, transactionId);
    await expectSoldEverywhere(page, baseUrl, listing.id, listing.address, { buyer: SOLANA_DEV_ACCOUNTS.buyer.address, network: "solana" });
  }, 180_000);

  it("a payment refused in the wallet says so, sends nothing, and Try Again pays", async () => {
    const listing = await freshListing("0.25");
    const session = await buyerSession();
    const { page, baseUrl } = session;
    await buyFromListingPage(page, baseUrl, listing.id, () =>
      page.evaluate(() => {
        (window as unknown as { __testSolana: { control: { rejectNext: boolean } } }).__testSolana.control.rejectNext = true;
      }),
    );
    await toast(page, "Payment Failed");
    await page.getByRole("alert").filter({ hasText: "You rejected the payment in your wallet" }).waitFor();
    await page.getByRole("button", { name: "Try Again" }).click();
    await revealKey(page);
  }, 180_000);
});
