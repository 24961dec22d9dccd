// Offers in a real browser (docs/offers.md): a buyer offers less than the ask on the listing page, the admin accepts
// it in Admin > Offers, the buyer is told, pays the offered price from their wallet on the purchase page (anvil), and
// the key is revealed. axe on the listing page's offers, Profile > Offers and Admin > Offers; the phone layout (390 px)
// of the same pages. Withdrawing and declining, each through its confirmation.
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { listAsAdmin, signInWithKey } from "./api-session";
import { seriousViolations } from "./axe";
import { openBrowser, type Page, type Session } from "./browser";
import { layoutProblems } from "./layout";
import { connect, recordToasts, revealKey, toast } from "./purchase-journey";
import { injectEthereumWallet } from "./wallets/eip1193";

// anvil's dev account 8 (unlocked and funded there): a buyer no other journey uses, so its reservations and
// notifications are this file's alone.
const BUYER = "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f";

const sessions: Session[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

async function signedIn(account: string, label: string): Promise<Session> {
  const s = await openBrowser();
  sessions.push(s);
  await injectEthereumWallet(s.page, { account, rpcUrl: inject("rpcUrl") });
  await recordToasts(s.page);
  await s.page.goto(`${s.baseUrl}/`);
  await connect(s.page, label);
  return s;
}

/** What the elements of offers' own parts name themselves (e2e/layout.ts names each element by its text or label). */
const OFFER_ELEMENTS = /offer|Offers|Accept|Decline|Withdraw|Pay now|Valid for|my-offer|seller-offer/;

/**
 * The 390 px layout findings on the offers' parts of `url` (the header's own are the phone layout check's,
 * e2e/phone-layout.e2e.ts).
 */
async function phoneProblems(page: Page, url: string, ready: () => Promise<unknown>): Promise<string[]> {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url);
  await ready();
  const found = (await layoutProblems(page)).filter((p) => OFFER_ELEMENTS.test(p));
  await page.setViewportSize({ width: 1280, height: 900 });
  return found;
}

describe("offers", () => {
  it("offer below the ask, the admin accepts, the buyer pays on anvil through the purchase page, the key is revealed", async () => {
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const key = generatePrivateKey();
    const address = privateKeyToAccount(key).address;
    const listingId = await listAsAdmin(admin, { address, network: "ethereum", price: "0.02", privateKey: key });

    // The buyer offers: first above the ask (refused at the field, nothing sent), then below it.
    const buyer = await signedIn(BUYER, "0x23618e");
    const listingUrl = `${buyer.baseUrl}/address/${listingId}`;
    await buyer.page.goto(listingUrl);
    const panel = buyer.page.getByTestId("offers-panel");
    await expect.poll(() => panel.getByTestId("offers-summary").textContent(), { timeout: 20_000 }).toBe("No open offers yet");
    const amount = panel.getByLabel("Your offer (ETH)");
    await amount.fill("0.03");
    await panel.getByRole("button", { name: "Make offer" }).click();
    await expect.poll(() => panel.getByRole("alert").textContent()).toContain("below the asking price (0.02 ETH)");
    await amount.fill("0.015");
    await panel.getByLabel("Valid for").selectOption({ label: "1 day" });
    await panel.getByRole("button", { name: "Make offer" }).click();
    await toast(buyer.page, "Offer sent");
    await expect.poll(() => panel.getByTestId("my-offer").textContent(), { timeout: 20_000 }).toContain("0.015 ETH");
    await expect.poll(() => panel.getByTestId("offers-summary").textContent()).toBe("1 open offer · best 0.015 ETH");
    expect(await seriousViolations(buyer.page)).toEqual([]);
    expect(await phoneProblems(buyer.page, listingUrl, () => panel.getByTestId("my-offer").waitFor({ timeout: 20_000 }))).toEqual([]);

    // The admin sees it in Admin > Offers and accepts it.
    const seller = await signedIn(DEV_ACCOUNTS.admin.address, "Admin");
    await seller.page.goto(`${seller.baseUrl}/admin?tab=offers`);
    const row = seller.page.getByTestId("seller-offer").filter({ hasText: "0.015 ETH" });
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain("75% of the 0.02 ask");
    expect(await seriousViolations(seller.page)).toEqual([]);
    expect(
      await phoneProblems(seller.page, `${seller.baseUrl}/admin?tab=offers`, () =>
        seller.page.getByTestId("seller-offer").first().waitFor({ timeout: 30_000 }),
      ),
    ).toEqual([]);
    await seller.page.getByRole("button", { name: "Accept the offer of 0.015 ETH" }).click();
    // Accepting reserves the address at once: the app's confirmation dialog asks first, with the terms.
    const confirm = seller.page.getByRole("alertdialog", { name: "Accept this offer?" });
    expect(await confirm.textContent()).toContain("0.015 ETH");
    await confirm.getByRole("button", { name: "Accept offer" }).click();
    await toast(seller.page, "Offer accepted");

    // The buyer: Profile > Offers says accepted; the listing page leads to the purchase page at the offered price.
    await buyer.page.goto(`${buyer.baseUrl}/profile`);
    const mine = buyer.page.getByTestId("my-offer-row").filter({ hasText: "0.015 ETH" });
    await expect.poll(() => mine.textContent(), { timeout: 20_000 }).toContain("Accepted: pay now");
    expect(await seriousViolations(buyer.page)).toEqual([]);
    expect(await phoneProblems(buyer.page, `${buyer.baseUrl}/profile`, () => mine.waitFor({ timeout: 20_000 }))).toEqual([]);
    await buyer.page.goto(listingUrl);
    await buyer.page.getByRole("link", { name: "Pay for your accepted offer" }).click();
    await buyer.page.waitForURL((u) => u.pathname.startsWith("/secure-transaction/"), { timeout: 20_000 });
    const pay = buyer.page.getByRole("button", { name: /^Pay .* with your wallet$/ });
    await pay.waitFor({ timeout: 30_000 });
    // The offered price and its fees, not the ask's (0.02 and its fees).
    expect(await pay.textContent()).toMatch(/^Pay 0\.01[5-9]\d* ETH with your wallet$/);
    await pay.click();
    await toast(buyer.page, "Private Key Released!", 90_000);
    const revealed = await revealKey(buyer.page);
    expect(privateKeyToAccount(revealed as Hex).address).toBe(address);

    // Bought: the offer reads so in the profile.
    await buyer.page.goto(`${buyer.baseUrl}/profile`);
    await expect.poll(() => mine.textContent(), { timeout: 20_000 }).toContain("Bought");
    expect(buyer.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  }, 300_000);

  it("withdrawing an offer and declining one ask first: the way out changes nothing, confirming ends the offer", async () => {
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const list = () => {
      const key = generatePrivateKey();
      return listAsAdmin(admin, { address: privateKeyToAccount(key).address, network: "ethereum", price: "0.02", privateKey: key });
    };
    const [withdrawn, declined] = [await list(), await list()];
    const buyer = await signedIn(BUYER, "0x23618e");
    const panel = buyer.page.getByTestId("offers-panel");
    const offer = async (listingId: number, amount: string) => {
      await buyer.page.goto(`${buyer.baseUrl}/address/${listingId}`);
      await panel.getByLabel("Your offer (ETH)").fill(amount);
      await panel.getByRole("button", { name: "Make offer" }).click();
      await toast(buyer.page, "Offer sent");
      await expect.poll(() => panel.getByTestId("offers-summary").textContent(), { timeout: 20_000 }).toBe(`1 open offer · best ${amount} ETH`);
    };

    await offer(withdrawn, "0.011");
    const withdraw = panel.getByRole("button", { name: "Withdraw offer" });
    const askWithdraw = buyer.page.getByRole("alertdialog", { name: "Withdraw this offer?" });
    await withdraw.click();
    expect(await askWithdraw.textContent()).toContain("0.011 ETH");
    await askWithdraw.getByRole("button", { name: "Keep offer" }).click();
    await askWithdraw.waitFor({ state: "detached" });
    expect(await panel.getByTestId("offers-summary").textContent()).toBe("1 open offer · best 0.011 ETH");
    await withdraw.click();
    await askWithdraw.getByRole("button", { name: "Withdraw offer" }).click();
    await toast(buyer.page, "Offer withdrawn");
    await expect.poll(() => panel.getByTestId("offers-summary").textContent(), { timeout: 20_000 }).toBe("No open offers yet");

    await offer(declined, "0.012");
    const seller = await signedIn(DEV_ACCOUNTS.admin.address, "Admin");
    await seller.page.goto(`${seller.baseUrl}/address/${declined}`);
    const row = seller.page.getByTestId("seller-offer").filter({ hasText: "0.012 ETH" });
    await row.waitFor({ timeout: 30_000 });
    const askDecline = seller.page.getByRole("alertdialog", { name: "Decline this offer?" });
    await row.getByRole("button", { name: "Decline the offer of 0.012 ETH" }).click();
    expect(await askDecline.textContent()).toContain("its buyer is told");
    await askDecline.getByRole("button", { name: "Cancel" }).click();
    await askDecline.waitFor({ state: "detached" });
    expect(await row.getByTestId("offer-standing").textContent()).toMatch(/^Open/);
    await row.getByRole("button", { name: "Decline the offer of 0.012 ETH" }).click();
    await askDecline.getByRole("button", { name: "Decline offer" }).click();
    await toast(seller.page, "Offer declined");
    expect(buyer.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    expect(seller.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  }, 180_000);
});
