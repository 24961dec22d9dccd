// The smaller things a buyer met, in a real browser: a wallet-less Buy returns to the listing once the
// wallet is connected; the Terms say what the destroy dialog says; searching shows results first; the table
// shows the rarity score behind its Type and explains it.
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, inject, it } from "vitest";
import { KEY_SHRED_WINDOW_TEXT } from "../schema/purchases";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { listAsAdmin, signInWithKey } from "./api-session";
import { openBrowser, type Session } from "./browser";
import { walletButton } from "./purchase-journey";
import { injectEthereumWallet } from "./wallets/eip1193";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function freshListing(price: string) {
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
  return { address, id: await listAsAdmin(admin, { address, network: "ethereum", price, privateKey: key }) };
}

describe("the smaller things", () => {
  it("Buy without a connected wallet: to the profile to connect, then back to the listing", async () => {
    const listing = await freshListing("0.0031");
    s = await openBrowser();
    const { page, baseUrl } = s;
    await injectEthereumWallet(page, { account: DEV_ACCOUNTS.otherBuyer.address, rpcUrl: inject("rpcUrl") });
    await page.goto(`${baseUrl}/address/${listing.id}`);
    await page.getByRole("button", { name: /^Buy Now - / }).click();
    await page.waitForURL((u) => u.pathname === "/profile", { timeout: 20_000 });
    await page.getByText("you go back to the listing as soon as it is connected").waitFor();
    await page.getByRole("main").getByTestId("wallet-button").filter({ hasText: "Connect Wallet" }).click();
    await page.waitForURL((u) => u.pathname === `/address/${listing.id}`, { timeout: 20_000 });
    await expect.poll(() => walletButton(page).textContent(), { timeout: 20_000 }).toContain("0x3C44Cd");
    await page.getByRole("button", { name: /^Buy Now - / }).waitFor();
  }, 90_000);

  it("the Terms say what the destroy dialog says about backups, and promise no instant erasure", async () => {
    s = await openBrowser();
    await s.page.goto(`${s.baseUrl}/terms-of-service`);
    const text = (await s.page.locator("main").textContent()) ?? "";
    expect(text.replace(/\s+/g, " ")).toContain(KEY_SHRED_WINDOW_TEXT);
    expect(text).not.toMatch(/nobody, including us, can recover it|immediately/i);
  });

  it("searching puts the results first; the table shows each Type's score, its card tier and says what Type means", async () => {
    const listing = await freshListing("0.0032");
    s = await openBrowser();
    const { page, baseUrl } = s;
    await page.goto(`${baseUrl}/marketplace`);
    await page.getByTestId("featured-listings").waitFor({ timeout: 20_000 });
    await page.goto(`${baseUrl}/marketplace?search=${listing.address.slice(2, 12)}`);
    const row = page.getByTestId("listing-row").first();
    await row.waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("featured-listings").count()).toBe(0);
    expect(await row.getByTestId("type-label").first().textContent()).toMatch(/^(BASE|PLUS|HIGH|RARE|EPIC|GOLD) \d+\.\d$/);
    expect(await page.getByTestId("type-legend").textContent()).toContain("BASE under 5");
    // One vocabulary: the legend maps each grade to the card tier of the same scores, and the cell names its card's
    // tier (the table's RARE 7.8 is the card's UNCOMMON, never read as the card's RARE).
    expect(await page.getByTestId("type-legend").textContent()).toContain("RARE 7+ is UNCOMMON");
    expect(await row.getByTestId("type-label").first().getAttribute("title")).toMatch(
      /^Grade (BASE|PLUS|HIGH|RARE|EPIC|GOLD) \(rarity \d+\.\d\/10\); its card shows the tier (ULTRA RARE|RARE|UNCOMMON|NOTABLE|COMMON|BASIC)$/,
    );
    expect(s.warnings).toEqual([]);
  });
});
