// The steps every purchase journey shares, on either network: buy from the listing page, wait for the
// key, reveal it, destroy it, and see the sale everywhere it shows.
import { expect } from "vitest";
import { type Page, pageDiagnostics } from "./browser";

export const walletButton = (page: Page) => page.getByRole("banner").getByTestId("wallet-button");
/**
 * Every toast the page showed, in order. Only one toast shows at a time (the spec), so a quick successor can
 * replace one before a locator sees it; a MutationObserver installed before the page's scripts sees them all.
 */
export async function recordToasts(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __toasts: string[] }).__toasts = seen;
    new MutationObserver(() => {
      document.querySelectorAll<HTMLElement>('[data-testid="toast"]').forEach((el) => {
        const text = el.textContent ?? "";
        if (el.dataset.recorded !== text) {
          el.dataset.recorded = text;
          seen.push(text);
        }
      });
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

const toastsSeen = (page: Page) => page.evaluate(() => (window as unknown as { __toasts?: string[] }).__toasts ?? []);

/** Waits until a toast containing `text` has shown on this page (recorded by recordToasts). */
export async function toast(page: Page, text: string, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  let seen: string[] = [];
  while (Date.now() < deadline) {
    seen = await toastsSeen(page);
    if (seen.some((t) => t.includes(text))) return;
    await page.waitForTimeout(200);
  }
  throw new Error(`no toast "${text}" within ${timeout} ms; toasts shown: ${JSON.stringify(seen)}`);
}
const short = (a: string) => `${a.slice(0, 8)}...${a.slice(-6)}`;

export async function connect(page: Page, expectedLabel: string) {
  // On a prerendered page the button is disabled until the app renders over the HTML: a click that never
  // happens says why.
  await walletButton(page)
    .filter({ hasText: "Connect Wallet" })
    .click()
    .catch(async (err: Error) => {
      throw new Error(`${err.message}\npage: ${await pageDiagnostics(page)}`);
    });
  await expect.poll(() => walletButton(page).textContent(), { timeout: 20_000 }).toContain(expectedLabel);
}

/** From the listing page: Buy Now, the created toast, and the purchase page. Answers the purchase id. */
export async function buyFromListingPage(page: Page, baseUrl: string, listingId: number, beforeBuy?: () => Promise<void>): Promise<string> {
  await page.goto(`${baseUrl}/address/${listingId}`);
  await beforeBuy?.();
  const buy = page.getByRole("button", { name: /^Buy Now - / });
  await buy.click();
  await toast(page, "Transaction Created!");
  await page.waitForURL((u) => u.pathname.startsWith("/transaction/"), { timeout: 20_000 });
  return decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
}

/** "Private Key Released!" is news once: a second visit to the purchase page does not show it again. */
export async function expectReleasedToastOnce(page: Page) {
  await page.reload();
  await page.getByTestId("private-key-card").waitFor({ timeout: 30_000 });
  await page.getByTestId("private-key").waitFor();
  await page.waitForTimeout(1500);
  expect(await toastsSeen(page)).not.toContain(expect.stringContaining("Private Key Released!"));
}

/** Waits for the Private Key Access card; answers the key after Show (checking it was masked and copy was off). */
export async function revealKey(page: Page): Promise<string> {
  const card = page.getByTestId("private-key-card");
  await card.waitFor({ timeout: 90_000 });
  const key = card.getByTestId("private-key");
  await expect.poll(() => key.textContent(), { timeout: 20_000 }).toMatch(/^•+$/);
  expect(await card.getByRole("button", { name: "Copy", exact: true }).isDisabled()).toBe(true);
  await card.getByRole("button", { name: "Show" }).click();
  await expect.poll(() => key.textContent()).not.toMatch(/•/);
  expect(await card.getByRole("button", { name: "Copy", exact: true }).isDisabled()).toBe(false);
  return (await key.textContent())!.trim();
}

export async function destroyKey(page: Page) {
  await page.getByRole("button", { name: "Destroy Private Key" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Permanently Destroy Private Key?" });
  await dialog.waitFor();
  await dialog
    .getByTestId("shred-window")
    .getByText(/30 days/)
    .waitFor();
  await dialog.getByRole("button", { name: "Permanently Destroy" }).click();
  await toast(page, "Private Key Destroyed");
  const notice = page.getByTestId("key-destroyed");
  await notice.waitFor({ timeout: 20_000 });
  // Said to the buyer as the buyer, with the flame drawn, not an emoji that may render as a box.
  expect(await notice.textContent()).toContain("You destroyed the private key");
  expect(await notice.getByTestId("fire-icon").count()).toBe(1);
}

/** My Purchases lists the purchase as completed with its key destroyed. */
export async function expectDestroyedInMyPurchases(page: Page, baseUrl: string, transactionId: string) {
  await page.goto(`${baseUrl}/profile`);
  const row = page.locator(`[data-testid="purchase-row"][data-transaction-id="${transactionId}"]`);
  await row.waitFor({ timeout: 20_000 });
  await row.getByText("Completed").waitFor();
  await row.getByText("Destroyed", { exact: true }).waitFor();
  expect(await row.getByTestId("fire-icon").count()).toBe(1);
  expect(await row.textContent()).not.toContain("🔥");
}

/** The listing shows SOLD, when and for how much, with the sale's link, and cannot be bought; the home page's recent transactions show the sale. */
export async function expectSoldEverywhere(
  page: Page,
  baseUrl: string,
  listingId: number,
  address: string,
  sale?: { buyer: string; network: "ethereum" | "solana" },
) {
  await page.goto(`${baseUrl}/address/${listingId}`);
  await page.getByText("SOLD", { exact: true }).first().waitFor({ timeout: 20_000 });
  // It says when and for how much it sold, and links to the sale's page.
  const sold = page.getByTestId("sold-notice");
  await sold.waitFor();
  expect(await sold.textContent()).toMatch(/^Sold on [A-Z][a-z]+ \d{1,2}, \d{4} for [\d.]+ (ETH|SOL)\. See the sale$/);
  expect(await sold.getByRole("link", { name: "See the sale" }).getAttribute("href")).toMatch(/^\/sale\/[0-9a-f-]{36}$/);
  await page.goto(`${baseUrl}/`);
  const row = page
    .getByTestId("transactions-table")
    .getByTestId("transaction-row")
    .filter({ hasText: short(address) });
  await row.filter({ hasText: "Completed" }).first().waitFor({ timeout: 20_000 });
  if (sale) await expectPublicSale(page, baseUrl, listingId, address, sale);
}

/**
 * The Recent Transactions row opens the sale's public page (address, price, time, network, the
 * listing; never the buyer, nor the payment that would name them), and View All opens the activity page,
 * filtered by network.
 */
async function expectPublicSale(page: Page, baseUrl: string, listingId: number, address: string, sale: { buyer: string; network: "ethereum" | "solana" }) {
  const row = page
    .getByTestId("transactions-table")
    .getByTestId("transaction-row")
    .filter({ hasText: short(address) })
    .first();
  await row.getByRole("link").click();
  await page.waitForURL((u) => u.pathname.startsWith("/sale/"), { timeout: 20_000 });
  const details = page.getByTestId("sale-details");
  await details.waitFor({ timeout: 20_000 });
  const text = (await details.textContent()) ?? "";
  expect(text).toContain(address);
  expect(text).toContain(sale.network === "ethereum" ? "Ethereum" : "Solana");
  // Nothing that names the buyer (docs/public-surface.md#what-a-public-sale-shows): no wallet, and no payment transaction, whose sender is the buyer.
  const main = (await page.locator("main").textContent()) ?? "";
  expect(main.toLowerCase()).not.toContain(sale.buyer.toLowerCase());
  expect(main).not.toMatch(/0x[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{64,90}/);
  expect(main).not.toMatch(/Payment|explorer/i);
  await page.getByRole("link", { name: "View the listing" }).click();
  await page.waitForURL((u) => u.pathname === `/address/${listingId}`, { timeout: 20_000 });

  await page.goto(`${baseUrl}/`);
  await page
    .getByRole("region", { name: "Recent Transactions" })
    .getByRole("link", { name: /View All/ })
    .click();
  await page.waitForURL((u) => u.pathname === "/activity", { timeout: 20_000 });
  const listed = () => page.getByTestId("sale-row").filter({ hasText: short(address) });
  await listed().first().waitFor({ timeout: 20_000 });
  const other = sale.network === "ethereum" ? "Solana" : "Ethereum";
  await page.getByRole("navigation", { name: "Filter by network" }).getByRole("link", { name: other }).click();
  await page.waitForURL((u) => u.searchParams.get("network") === other.toLowerCase());
  await expect.poll(() => listed().count(), { timeout: 20_000 }).toBe(0);
  await page
    .getByRole("navigation", { name: "Filter by network" })
    .getByRole("link", { name: sale.network === "ethereum" ? "Ethereum" : "Solana" })
    .click();
  await listed().first().waitFor({ timeout: 20_000 });
}
