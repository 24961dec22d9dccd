// What a walk through the product as a new visitor met, at 1280 px: the home page's recent sales named the seller by
// an internal id ("eth_0xf39fd6b92266"); the marketplace's featured strip ignored its network filter; an address
// left a character or two (highlighted ones too) on a line of their own, in the listing page's comparable listings
// and in the featured cards. Each is checked here as the visitor sees it.
import type { Hex } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { signInWithKey } from "./api-session";
import { openBrowser, type Session } from "./browser";
import { textLines } from "./layout";
import { realPurchase } from "./real-purchase";
import { answer } from "./api-session";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe("a first walk through the product at 1280 px", () => {
  it("the home page's recent sales name no seller, least of all by an internal id", async () => {
    await realPurchase("0.0123");
    s = await openBrowser();
    const { page, baseUrl } = s;
    await page.goto(`${baseUrl}/`);
    const table = page.getByTestId("transactions-table");
    await table.getByTestId("transaction-row").first().waitFor({ timeout: 20_000 });
    expect(await table.getByRole("columnheader").allTextContents()).not.toContain("Seller");
    expect(await table.textContent()).not.toMatch(/\b(eth|sol)_[0-9a-zA-Z]{6,}/);
  }, 120_000);

  it("the marketplace's featured strip follows its network filter", async () => {
    // A Solana listing featured beside the seed's Ethereum ones.
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const solana = (await answer(admin.api.addresses.search.$get({ query: { network: "solana", limit: "20" } }))).body.addresses[0];
    expect((await answer(admin.api.addresses[":id"].$patch({ param: { id: String(solana.id) }, json: { promotionType: "featured" } }))).status).toBe(200);
    const featured = (await answer(admin.api.addresses.featured.$get({ query: {} }))).body;
    expect(new Set(featured.map((l) => l.network))).toEqual(new Set(["ethereum", "solana"]));

    s = await openBrowser();
    const { page, baseUrl } = s;
    const strip = page.getByTestId("featured-listings");
    const cardAddresses = async () => {
      await strip.getByTestId("listing-card").first().waitFor({ timeout: 20_000 });
      return (await strip.locator("[data-address]").evaluateAll((els) => els.map((el) => el.getAttribute("data-address")!))).filter(Boolean);
    };
    await page.goto(`${baseUrl}/marketplace?network=solana`);
    const solanaCards = await cardAddresses();
    expect(solanaCards).toContain(solana.address);
    expect(solanaCards.every((a) => !a.startsWith("0x"))).toBe(true);
    await page.goto(`${baseUrl}/marketplace?network=ethereum`);
    const ethereumCards = await cardAddresses();
    expect(ethereumCards.length).toBeGreaterThan(0);
    expect(ethereumCards.every((a) => a.startsWith("0x"))).toBe(true);
  }, 120_000);

  it("an address never leaves a character or two on a line of their own: comparables on one line, cards in even halves", async () => {
    // A listing with comparable listings (same network, category and length) in the seed.
    const visitor = await signInWithKey(DEV_ACCOUNTS.buyer.privateKey as Hex);
    const listings = (await answer(visitor.api.addresses.search.$get({ query: { network: "ethereum", limit: "100" } }))).body.addresses;
    let withComparables: number | undefined;
    for (const l of listings) {
      const context = (await answer(visitor.api.addresses[":id"].context.$get({ param: { id: String(l.id) } }))).body;
      if (context.comparables.length >= 2) {
        withComparables = l.id;
        break;
      }
    }
    expect(withComparables).toBeDefined();

    s = await openBrowser();
    const { page, baseUrl } = s;
    await page.goto(`${baseUrl}/address/${withComparables}`);
    const comparables = page.getByTestId("comparables");
    await comparables.scrollIntoViewIfNeeded({ timeout: 20_000 });
    await comparables.locator("a").first().waitFor();
    const comparableLines = await textLines(page, '[data-testid="comparables"] a');
    expect(comparableLines.length).toBeGreaterThanOrEqual(2);
    for (const lines of comparableLines) expect(lines, lines.join(" / ")).toHaveLength(1);

    await page.goto(`${baseUrl}/`);
    await page.getByTestId("featured-listings").getByTestId("listing-card").first().waitFor({ timeout: 20_000 });
    const cardLines = await textLines(page, '[data-testid="featured-listings"] [data-testid="listing-card"] a[href^="/address/"]');
    expect(cardLines.length).toBeGreaterThan(0);
    for (const lines of cardLines) {
      const whole = lines.join("").length;
      // One line, or even pieces: no line under a quarter of the address.
      for (const line of lines) expect(line.length, lines.join(" / ")).toBeGreaterThanOrEqual(Math.floor(whole / 4));
    }
  }, 120_000);
});
