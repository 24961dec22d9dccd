// A buyer who reserved a listing and left its page is told "Reserved by you" with
// the time left on the listing page, its card and the marketplace table, and "Continue to payment" leads back to
// that purchase; a second Buy answers the same purchase; a visitor sees "Reserved until ..." before clicking.
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { listAsAdmin, signInWithKey } from "./api-session";
import { openBrowser, type Session } from "./browser";
import { connect, recordToasts } from "./purchase-journey";
import { injectEthereumWallet } from "./wallets/eip1193";
import { answer } from "./api-session";

const sessions: Session[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

describe("the buyer's own reservation", () => {
  it("is recognised on the listing page, the card and the table; Continue to payment opens it; a visitor sees Reserved until", async () => {
    const key = generatePrivateKey();
    const address = privateKeyToAccount(key).address;
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const listingId = await listAsAdmin(admin, { address, network: "ethereum", price: "0.00123", privateKey: key });
    const buyer = await signInWithKey(DEV_ACCOUNTS.otherBuyer.privateKey as Hex);
    const reserved = await answer(
      buyer.api.transactions.initiate.$post({
        json: {
          addressId: listingId,
          buyerId: DEV_ACCOUNTS.otherBuyer.address,
        },
      }),
    );
    expect(reserved.status).toBe(201);
    const transactionId = reserved.body.transactionId;
    try {
      const s = await openBrowser();
      sessions.push(s);
      const { page, baseUrl } = s;
      await injectEthereumWallet(page, { account: DEV_ACCOUNTS.otherBuyer.address, rpcUrl: inject("rpcUrl") });
      await recordToasts(page);
      await page.goto(`${baseUrl}/`);
      await connect(page, "0x3C44Cd");

      // The listing page: Status Reserved, and in place of Buy the buyer's own reservation with the time left.
      await page.goto(`${baseUrl}/address/${listingId}`);
      const notice = page.getByTestId("reservation-notice");
      await expect.poll(() => notice.textContent(), { timeout: 20_000 }).toMatch(/Reserved by you: 1[45] minutes left to pay/);
      expect(await page.getByRole("button", { name: /^Buy Now/ }).count()).toBe(0);
      await page.getByText("Reserved", { exact: true }).waitFor();
      await notice.getByRole("link", { name: "Continue to payment" }).click();
      await page.waitForURL((u) => u.pathname === `/transaction/${transactionId}`, { timeout: 20_000 });

      // The marketplace: the table row and the card say the same.
      await page.goto(`${baseUrl}/marketplace?search=${address.slice(2, 12)}`);
      const row = page.getByTestId("reservation-notice").filter({ hasText: "Reserved by you" }).first();
      await row.waitFor({ timeout: 20_000 });
      await row.getByRole("link", { name: "Continue to payment" }).click();
      await page.waitForURL((u) => u.pathname === `/transaction/${transactionId}`, { timeout: 20_000 });

      // A second Buy (the API the buttons call) opens the same purchase: 200, not "reserved by another buyer".
      const again = await answer(
        buyer.api.transactions.$post({
          json: {
            addressId: listingId,
            buyerId: DEV_ACCOUNTS.otherBuyer.address,
          },
        }),
      );
      expect(again).toMatchObject({ status: 200, body: { transactionId } });

      // A visitor (no wallet): "Reserved until <time>" before clicking anything, and no Buy button.
      const visitor = await openBrowser();
      sessions.push(visitor);
      await visitor.page.goto(`${baseUrl}/address/${listingId}`);
      const theirs = visitor.page.getByTestId("reservation-notice");
      await expect.poll(() => theirs.textContent(), { timeout: 20_000 }).toMatch(/^Reserved until \d{1,2}:\d\d [AP]M$/);
      expect(await visitor.page.getByRole("button", { name: /^Buy Now/ }).count()).toBe(0);
      expect(await visitor.page.getByRole("link", { name: "Continue to payment" }).count()).toBe(0);
      expect(s.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    } finally {
      await answer(buyer.api.transactions[":id"].cancel.$post({ param: { id: transactionId } }));
    }
  }, 120_000);

  it("cancelling asks first; then the purchase page, the cancelled page's Try Again and My Purchases all say Cancelled, with no key promised", async () => {
    const key = generatePrivateKey();
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const listingId = await listAsAdmin(admin, { address: privateKeyToAccount(key).address, network: "ethereum", price: "0.00124", privateKey: key });
    const buyer = await signInWithKey(DEV_ACCOUNTS.otherBuyer.privateKey as Hex);
    const reserved = await answer(
      buyer.api.transactions.initiate.$post({
        json: {
          addressId: listingId,
          buyerId: DEV_ACCOUNTS.otherBuyer.address,
        },
      }),
    );
    const transactionId = reserved.body.transactionId;
    try {
      const s = await openBrowser();
      sessions.push(s);
      const { page, baseUrl } = s;
      await injectEthereumWallet(page, { account: DEV_ACCOUNTS.otherBuyer.address, rpcUrl: inject("rpcUrl") });
      await page.goto(`${baseUrl}/`);
      await connect(page, "0x3C44Cd");
      await page.goto(`${baseUrl}/transaction/${transactionId}`);
      const badge = page.getByRole("main").getByTestId("purchase-status").first();
      await expect.poll(() => badge.textContent(), { timeout: 20_000 }).toBe("Awaiting Payment");

      // Cancel asks first: Keep Reservation changes nothing.
      await page.getByRole("button", { name: "Cancel Purchase" }).click();
      const dialog = page.getByRole("alertdialog", { name: "Cancel this purchase?" });
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Keep Reservation" }).click();
      await dialog.waitFor({ state: "hidden" });
      expect((await answer(buyer.api.transactions[":id"].$get({ param: { id: transactionId } }))).body.status).toBe("initiated");
      await page.getByRole("button", { name: "Cancel Purchase" }).click();
      await page.getByRole("alertdialog", { name: "Cancel this purchase?" }).getByRole("button", { name: "Yes, Cancel Purchase" }).click();
      await page.waitForURL((u) => u.pathname === `/transaction-cancelled/${transactionId}`, { timeout: 20_000 });

      // Try Again opens the purchase itself (the spec), which says Cancelled.
      await page.getByRole("link", { name: "Try Again" }).click();
      await page.waitForURL((u) => u.pathname === `/transaction/${transactionId}`, { timeout: 20_000 });
      await expect.poll(() => badge.textContent(), { timeout: 20_000 }).toBe("Cancelled");

      // My Purchases: the same word, and no key promised.
      await page.goto(`${baseUrl}/profile`);
      const row = page.locator(`[data-testid="purchase-row"][data-transaction-id="${transactionId}"]`);
      await row.waitFor({ timeout: 20_000 });
      expect(await row.getByTestId("purchase-status").textContent()).toBe("Cancelled");
      await row.getByText("No key (not paid)").waitFor();
      expect(await row.getByText("Available after completion").count()).toBe(0);
      expect(await row.getByText("Pending").count()).toBe(0);
    } finally {
      await answer(buyer.api.transactions[":id"].cancel.$post({ param: { id: transactionId } }));
    }
  }, 120_000);

  it("one price, one USD figure: the featured card, the marketplace row, the listing page, its breakdown, the purchase page and My Purchases", async () => {
    const key = generatePrivateKey();
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const address = privateKeyToAccount(key).address;
    const listingId = await listAsAdmin(admin, { address, network: "ethereum", price: "0.001", privateKey: key });
    expect((await answer(admin.api.addresses[":id"].$patch({ param: { id: String(listingId) }, json: { isFeatured: true } }))).status).toBe(200);
    const rates = (await answer(admin.api.prices.live.$get())).body;
    // The figure the Worker and the web both word (0.001 ETH at the live rate, or the one fallback table).
    const expected = `$${(Math.round(0.001 * rates.ethPrice * 100) / 100).toFixed(2)}`;
    const buyer = await signInWithKey(DEV_ACCOUNTS.otherBuyer.privateKey as Hex);
    const s = await openBrowser();
    sessions.push(s);
    const { page, baseUrl } = s;
    await injectEthereumWallet(page, { account: DEV_ACCOUNTS.otherBuyer.address, rpcUrl: inject("rpcUrl") });
    await page.goto(`${baseUrl}/`);
    await connect(page, "0x3C44Cd");
    const card = page
      .getByTestId("listing-card")
      .filter({ hasText: address.slice(2, 8) })
      .first();
    await expect.poll(() => card.getByTestId("card-usd").textContent(), { timeout: 20_000 }).toBe(expected);

    await page.goto(`${baseUrl}/marketplace?search=${address.slice(2, 12)}`);
    await expect.poll(() => page.getByTestId("listing-usd").first().textContent(), { timeout: 20_000 }).toBe(expected);

    await page.goto(`${baseUrl}/address/${listingId}`);
    await expect.poll(() => page.getByTestId("detail-price-usd").textContent(), { timeout: 20_000 }).toBe(expected);
    const priceRow = () => page.getByTestId("purchase-breakdown").locator('[data-row="price"]').getByTestId("usd").textContent();
    await expect.poll(priceRow, { timeout: 20_000 }).toBe(expected);
    const listingWords = await page.getByTestId("purchase-breakdown").locator("dt").allTextContents();

    const reserved = await answer(
      buyer.api.transactions.initiate.$post({
        json: {
          addressId: listingId,
          buyerId: DEV_ACCOUNTS.otherBuyer.address,
        },
      }),
    );
    const transactionId = reserved.body.transactionId;
    try {
      await page.goto(`${baseUrl}/transaction/${transactionId}`);
      await expect.poll(priceRow, { timeout: 20_000 }).toBe(expected);
      // The same breakdown, in the same words, as on the listing page.
      expect(await page.getByTestId("purchase-breakdown").locator("dt").allTextContents()).toEqual(listingWords);
      expect(listingWords).toEqual(["Price", "Platform fees", "Paid to the platform", "Network fee (estimate, paid by your wallet)", "Total"]);

      await page.goto(`${baseUrl}/profile`);
      const row = page.locator(`[data-testid="purchase-row"][data-transaction-id="${transactionId}"]`);
      await expect.poll(() => row.getByTestId("purchase-usd").textContent(), { timeout: 20_000 }).toBe(`≈ ${expected}`);
    } finally {
      await answer(buyer.api.transactions[":id"].cancel.$post({ param: { id: transactionId } }));
    }
  }, 120_000);

  it("the purchase page stops polling after 5 minutes, says so, and Check again resumes", async () => {
    const key = generatePrivateKey();
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const listingId = await listAsAdmin(admin, { address: privateKeyToAccount(key).address, network: "ethereum", price: "0.00125", privateKey: key });
    const buyer = await signInWithKey(DEV_ACCOUNTS.otherBuyer.privateKey as Hex);
    const transactionId = (await answer(buyer.api.transactions.initiate.$post({ json: { addressId: listingId, buyerId: DEV_ACCOUNTS.otherBuyer.address } })))
      .body.transactionId;
    try {
      const s = await openBrowser();
      sessions.push(s);
      const { page, baseUrl } = s;
      await page.clock.install();
      await injectEthereumWallet(page, { account: DEV_ACCOUNTS.otherBuyer.address, rpcUrl: inject("rpcUrl") });
      await page.goto(`${baseUrl}/`);
      await connect(page, "0x3C44Cd");
      let reads = 0;
      page.on("request", (r) => {
        if (r.method() === "GET" && new URL(r.url()).pathname === `/api/transactions/${transactionId}`) reads++;
      });
      await page.goto(`${baseUrl}/transaction/${transactionId}`);
      await page.getByTestId("purchase-status").first().waitFor({ timeout: 20_000 });
      expect(await page.getByTestId("polling-stopped").count()).toBe(0);
      await page.clock.runFor(5 * 60_000 + 10_000);
      await page.getByTestId("polling-stopped").waitFor({ timeout: 20_000 });
      const stoppedAt = reads;
      await page.clock.runFor(60_000);
      expect(reads).toBe(stoppedAt);
      await page.getByRole("button", { name: "Check again" }).click();
      await page.getByTestId("polling-stopped").waitFor({ state: "hidden", timeout: 20_000 });
      await expect.poll(() => reads, { timeout: 20_000 }).toBeGreaterThan(stoppedAt);
    } finally {
      await answer(buyer.api.transactions[":id"].cancel.$post({ param: { id: transactionId } }));
    }
  }, 120_000);
});
