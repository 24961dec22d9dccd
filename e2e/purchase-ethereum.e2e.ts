// Buying on Ethereum in a real browser, end to end on the e2e stack's anvil: the buyer (anvil account 1,
// injected EIP-1193 wallet) buys a listing whose key only this test knows, the wallet pays the exact amount,
// the key appears once the payment is deep enough, derives the listing's address, saves as a keystore that
// decrypts back, is destroyed; the listing is SOLD and the sale shows on the home page. A second journey
// closes the tab before the page could report the payment: the server finds it by itself.
import fs from "node:fs";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { decryptKeystore } from "../web/src/payments/keystore";
import { listAsAdmin, signInWithKey } from "./api-session";
import { openBrowser, type Page, type Session } from "./browser";
import { overlapArea } from "./layout";
import {
  buyFromListingPage,
  connect,
  destroyKey,
  expectDestroyedInMyPurchases,
  expectReleasedToastOnce,
  expectSoldEverywhere,
  recordToasts,
  revealKey,
  toast,
} from "./purchase-journey";
import { injectEthereumWallet } from "./wallets/eip1193";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function freshListing(price = "0.01") {
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
  return { key, address, id: await listAsAdmin(admin, { address, network: "ethereum", price, privateKey: key }) };
}

async function buyerSession() {
  s = await openBrowser();
  await injectEthereumWallet(s.page, { account: DEV_ACCOUNTS.buyer.address, rpcUrl: inject("rpcUrl") });
  await recordToasts(s.page);
  await s.page.goto(`${s.baseUrl}/`);
  await connect(s.page, "0x709979");
  return s;
}

/**
 * "Private Key Released!" covers nothing of the key-saving form, at 1280 and at 390 px (it covered the keystore
 * password fields on a phone); and a password field moved under it and focused sends it to the other edge.
 */
async function expectNewsClearOfKeyForm(page: Page) {
  const news = page.getByTestId("toast").filter({ hasText: "Private Key Released!" });
  const form = page.getByRole("region", { name: "Save for your wallet" });
  // F8 focuses the toasts, which pauses their timer while they are measured.
  await page.keyboard.press("F8");
  for (const size of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await form.waitFor();
    expect(await news.boundingBox(), `the news shows at ${size.width} px`).not.toBeNull();
    expect(overlapArea(await news.boundingBox(), await form.boundingBox()), `news over the key-saving form at ${size.width} px`).toBe(0);
  }
  // Scrolled so the field lies under the news, then focused.
  const password = page.getByLabel("Password", { exact: true });
  const at = await news.boundingBox();
  const field = await password.boundingBox();
  if (at && field) await page.evaluate((dy) => window.scrollBy(0, dy), field.y - at.y - 10);
  await password.focus();
  expect(overlapArea(await news.boundingBox(), await password.boundingBox()), "news over the focused password field").toBe(0);
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe("buying on Ethereum", () => {
  it("buy, pay from the wallet, see the key (it derives the address), save a keystore, destroy it; SOLD and in recent sales", async () => {
    const listing = await freshListing();
    const { page, baseUrl } = await buyerSession();
    // What crossed the wire for the key: the page's public key out, the sealed key back.
    const reveals: Promise<{ sent: string | null; answer: string }>[] = [];
    page.on("response", (res) => {
      if (res.url().includes("/reveal-private-key")) reveals.push(res.text().then((answer) => ({ sent: res.request().postData(), answer })));
    });
    const transactionId = await buyFromListingPage(page, baseUrl, listing.id);

    // The purchase page opened the wallet by itself (the buy flow's automatic payment).
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __testEthereum: { control: { requests: string[] } } }).__testEthereum.control.requests), {
        timeout: 20_000,
      })
      .toContain("eth_sendTransaction");
    await toast(page, "Private Key Released!", 90_000);
    await expectNewsClearOfKeyForm(page);
    const key = await revealKey(page);
    expect(privateKeyToAccount(key as Hex).address).toBe(listing.address);
    expect(key.toLowerCase()).toBe(listing.key.toLowerCase());
    // The key was sealed to a one-time public key of the page's, and never on the wire in plain text.
    expect(await page.getByTestId("sealed-note").textContent()).toContain("Sealed to this page");
    expect(reveals.length).toBeGreaterThan(0);
    for (const { sent, answer } of await Promise.all(reveals)) {
      expect(JSON.parse(sent ?? "{}").publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(JSON.parse(answer)).toMatchObject({ success: true, sealed: { enc: expect.any(String), ciphertext: expect.any(String) } });
      expect(answer.toLowerCase()).not.toContain(listing.key.slice(2).toLowerCase());
    }

    // Save as a V3 keystore and open it again with the same password.
    await page.getByLabel("Password", { exact: true }).fill("e2e keystore password");
    await page.getByLabel("Repeat password").fill("e2e keystore password");
    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 60_000 }),
      page.getByRole("button", { name: "Download keystore file" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^UTC--.*--${listing.address.slice(2).toLowerCase()}\\.json$`));
    const keystore = JSON.parse(fs.readFileSync((await download.path())!, "utf8")) as unknown;
    expect(await decryptKeystore(keystore, "e2e keystore password")).toBe(listing.key.toLowerCase());

    await expectReleasedToastOnce(page);
    await destroyKey(page);
    await expectDestroyedInMyPurchases(page, baseUrl, transactionId);
    await expectSoldEverywhere(page, baseUrl, listing.id, listing.address, { buyer: DEV_ACCOUNTS.buyer.address, network: "ethereum" });
    expect(s!.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  }, 180_000);

  it("the tab closes before the payment is reported: the server finds it, and the key is there on return", async () => {
    const listing = await freshListing("0.02");
    const { page, baseUrl, context } = await buyerSession();
    // The page never reaches the confirm call: as if the tab closed right after the wallet sent the payment.
    await context.route("**/api/transactions/*/confirm", (route) => route.abort());
    const transactionId = await buyFromListingPage(page, baseUrl, listing.id);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __testEthereum: { control: { requests: string[] } } }).__testEthereum.control.requests), {
        timeout: 20_000,
      })
      .toContain("eth_sendTransaction");
    await page.close();

    // The cron job scans the chain for the buyer's transfer (npm start ticks it every 10 s; here the test does).
    const again = await context.newPage();
    const tick = setInterval(() => void fetch(`${baseUrl}/__scheduled?cron=*+*+*+*+*`).catch(() => {}), 2000);
    try {
      await again.goto(`${baseUrl}/secure-transaction/${transactionId}`);
      const key = await revealKey(again);
      expect(privateKeyToAccount(key as Hex).address).toBe(listing.address);
    } finally {
      clearInterval(tick);
    }
  }, 180_000);
});
