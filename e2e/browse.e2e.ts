// Browsing in a real browser: the home page (stats, featured, recent transactions), the marketplace (search,
// filters, sorting, paging, page size, a filtered view surviving a reload, the buy checks without a wallet),
// the listing page (and "Address Not Found"), and the owner's card controls after a wallet sign-in.
// The listings are this file's own (every address carries MARK, so a search for it isolates them from any
// demo data the seed adds).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiAt } from "./api-session";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { openBrowser, type Page, type Session } from "./browser";
import { ensureUser, insertListings, insertTransactions, type ListingRow } from "./listings-db";
import { injectEthereumWallet } from "./wallets/eip1193";

const MARK = "bead5eed"; // valid hex and valid base58
const COUNT = 45;
const HOUR = 3_600_000;
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

type Shape = { prefix?: string; suffix?: string };
const ETH_SHAPES: Shape[] = [{ prefix: "0000" }, { suffix: "0000" }, { prefix: "dead" }, { prefix: "abba", suffix: "abba" }, { prefix: "1234" }, {}];
const SOL_SHAPES: Shape[] = [{ prefix: "1111" }, { suffix: "1111" }, { prefix: "So1" }, { prefix: "xyx", suffix: "xyx" }, { prefix: "ABCD" }, {}];
const CATEGORIES = ["leading-zeros", "trailing-zeros", "word-like", "palindrome", "sequential", "custom"];

const base58 = (n: number) => {
  let s = "";
  do {
    s = BASE58[n % 58] + s;
    n = Math.floor(n / 58);
  } while (n > 0);
  return s;
};

/** An address with the shape's ends, MARK, and a filler unique to `i`. */
function address(network: "ethereum" | "solana", shape: Shape, i: number, tag = MARK): string {
  const prefix = shape.prefix ?? "";
  const suffix = shape.suffix ?? "";
  if (network === "ethereum") {
    const fill = (i + 4096).toString(16).padStart(40 - prefix.length - tag.length - suffix.length, "7");
    return `0x${prefix}${tag}${fill}${suffix}`;
  }
  const fill = base58(i + 4096).padStart(44 - prefix.length - tag.length - suffix.length, "H");
  return `${prefix}${tag}${fill}${suffix}`;
}

function listing(i: number, now: number, extra: Partial<ListingRow> = {}): ListingRow {
  const network = i % 3 === 1 ? "solana" : "ethereum";
  const shape = (network === "ethereum" ? ETH_SHAPES : SOL_SHAPES)[i % 6];
  const step = ((i * 37) % 45) + 1;
  return {
    address: address(network, shape, i),
    network,
    price: network === "ethereum" ? (step / 100).toFixed(2) : (step / 5).toFixed(1),
    rarity: Number((((i * 7) % 45) * 0.22).toFixed(1)),
    category: CATEGORIES[i % 6],
    pattern: shape.prefix && shape.suffix ? `${shape.prefix}...${shape.suffix}` : (shape.prefix ?? shape.suffix ?? "custom"),
    patternLength: (shape.prefix ?? "").length + (shape.suffix ?? "").length,
    createdAt: now - i * 36 * HOUR - 60_000,
    ...extra,
  };
}

const OWNER_FEATURED = address("ethereum", { prefix: "c0ffee" }, 1, "");
const OWNER_PROMOTED = address("ethereum", { prefix: "f00d" }, 2, "");
let ids: number[] = [];
let soldTxId = "";

beforeAll(async () => {
  const now = Date.now();
  const rows = Array.from({ length: COUNT }, (_, i) =>
    listing(i, now, i < 2 ? { isFeatured: true, promotionType: "featured" } : i === 3 ? { isFeatured: true, promotionType: "promoted" } : {}),
  );
  // Never shown by the marketplace search (sold, deleted, unlisted), though they carry MARK too.
  rows.push(
    listing(100, now, { status: "sold", isListed: false }),
    listing(101, now, { status: "deleted", isListed: false }),
    listing(102, now, { isListed: false }),
  );
  const admin = await ensureUser("eth_0xf39fd6b92266", DEV_ACCOUNTS.admin.address);
  rows.push(
    {
      ...listing(200, now),
      createdAt: now - 60_000,
      address: OWNER_FEATURED,
      pattern: "c0ffee",
      patternLength: 6,
      rarity: 9.5,
      isFeatured: true,
      promotionType: "featured",
      promotionWeight: 1000,
      sellerId: admin,
    },
    {
      ...listing(201, now),
      address: OWNER_PROMOTED,
      pattern: "f00d",
      patternLength: 4,
      rarity: 6.1,
      isFeatured: true,
      promotionType: "promoted",
      promotionWeight: 999,
      sellerId: admin,
    },
  );
  ids = await insertListings(rows);
  const buyer = await ensureUser("e2e_browse_buyer", "0x000000000000000000000000000000000000b0b0");
  const seller = await ensureUser("e2e_browse_seller", "0x000000000000000000000000000000000000cafe");
  soldTxId = `e2e-browse-sold-${now}`;
  await insertTransactions([
    { id: soldTxId, addressId: ids[COUNT], buyerId: buyer, sellerId: seller, price: "0.42", currency: "ETH", status: "completed", createdAt: now - 5 * 60_000 },
    {
      id: `e2e-browse-pending-${now}`,
      addressId: ids[5],
      buyerId: buyer,
      sellerId: seller,
      price: "3.5",
      currency: "SOL",
      status: "pending",
      createdAt: now - 2 * HOUR,
    },
  ]);
}, 120_000);

// ---------------------------------------------------------------------------------------------- helpers

const range = (page: Page) => page.getByTestId("results-range");
const rows = (page: Page) => page.getByTestId("listing-row");
/**
 * The results read `text` ("1-15 of 15 ...") and all the rows it counts are on the page: the table commits its
 * first rows before the rest (ListingTable's two passes), so rows read right after the range could be 5 of 15.
 */
async function expectRange(page: Page, text: string) {
  await expect.poll(() => range(page).textContent(), { timeout: 15_000 }).toBe(text);
  const shown = /^([\d,]+)-([\d,]+) of/.exec(text);
  if (!shown) return;
  const [first, last] = [shown[1], shown[2]].map((n) => Number(n.replaceAll(",", "")));
  await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBe(first === 0 ? 0 : last - first + 1);
}
const usdOfRows = async (page: Page) =>
  (
    await rows(page)
      .getByTestId("listing-price")
      .evaluateAll((els) => els.map((e) => e.nextElementSibling?.textContent ?? ""))
  ).map((t) => Number(t.replace(/[^0-9.]/g, "")));
const isSorted = (xs: number[], order: "asc" | "desc") => xs.every((x, i) => i === 0 || (order === "desc" ? xs[i - 1] >= x : xs[i - 1] <= x));
const searchParams = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

async function search(page: Page, text: string) {
  await page.getByRole("searchbox", { name: "Search addresses" }).fill(text);
}

// ------------------------------------------------------------------------------------------------ tests

describe("home page", () => {
  let s: Session;
  beforeAll(async () => {
    s = await openBrowser();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("shows the four stats, featured cards, and recent transactions linking to their pages", async () => {
    await s.page.goto(`${s.baseUrl}/`);
    const stats = s.page.getByTestId("market-stats");
    await stats.waitFor();
    for (const label of ["Addresses Listed", "Volume Traded in ETH", "Active Users", "Avg. Price in ETH"]) expect(await stats.textContent()).toContain(label);

    const cards = s.page.getByTestId("listing-card");
    await cards.first().waitFor();
    expect(await s.page.getByTestId("listing-card-skeleton").count()).toBe(0);
    const featured = cards.filter({ hasText: OWNER_FEATURED });
    // Rarity 9.5: the ULTRA RARE tier, HOT, the ring, the purple tint; NEW (listed today); no owner here.
    expect(await featured.textContent()).toMatch(/ULTRA RARE.*NEW.*HOT/);
    expect(await featured.getAttribute("data-promotion")).toBe("featured");
    expect(await featured.getAttribute("class")).toContain("ring-2");
    await featured.getByRole("button", { name: "Buy Now" }).waitFor();
    expect(
      await featured
        .getByText("c0ffee", { exact: true })
        .first()
        .evaluate((e) => e.tagName),
    ).toBe("MARK");
    expect(await cards.filter({ hasText: OWNER_PROMOTED }).getAttribute("data-promotion")).toBe("promoted");

    const table = s.page.getByTestId("transactions-table");
    const sale = table.getByTestId("transaction-row").filter({ hasText: "Completed" }).filter({ hasText: "0.42000000 ETH" });
    await sale.waitFor();
    expect(await sale.textContent()).toContain("Sale");
    // A sale names neither its buyer nor its seller (a username derived from the wallet read as an internal id:
    // docs/public-surface.md); an open reservation is not public activity (docs/public-surface.md#what-a-public-sale-shows).
    expect(await sale.textContent()).not.toContain("e2e_browse_seller");
    expect(await sale.textContent()).not.toContain("e2e_browse_buyer");
    expect(await table.getByRole("columnheader", { name: "Buyer" }).count()).toBe(0);
    expect(await table.getByRole("columnheader", { name: "Seller" }).count()).toBe(0);
    // Completed five minutes ago, shown as its UTC day and never the time (docs/public-surface.md#what-a-public-sale-shows):
    // "today", or "yesterday" when those five minutes crossed midnight UTC.
    expect(await sale.textContent()).toMatch(/today|yesterday/);
    expect(await sale.textContent()).not.toMatch(/minutes? ago/);
    // The public sale page, not the private purchase page.
    expect(await sale.getByRole("link").getAttribute("href")).toBe(`/sale/${soldTxId}`);
    expect(await table.getByTestId("transaction-row").filter({ hasText: "3.50000000 SOL" }).count()).toBe(0);

    const viewAll = s.page.getByRole("link", { name: "View All" });
    expect(await viewAll.count()).toBe(2);
    await viewAll.first().click();
    await s.page.waitForURL((u) => u.pathname === "/marketplace");
    // Recent Transactions' View All opens the sales activity page.
    await s.page.goBack();
    await s.page.getByRole("region", { name: "Recent Transactions" }).getByRole("link", { name: "View All" }).click();
    await s.page.waitForURL((u) => u.pathname === "/activity");
  });

  it("a card's Buy Now without a wallet says Wallet Required and goes to /profile after 2 seconds", async () => {
    await s.page.goto(`${s.baseUrl}/`);
    const card = s.page.getByTestId("listing-card").filter({ hasText: OWNER_PROMOTED });
    await card.getByRole("button", { name: "Buy Now" }).click();
    await s.page
      .getByTestId("toast")
      .filter({ hasText: "Wallet Required" })
      .filter({ hasText: "Please connect your wallet to purchase this address." })
      .waitFor();
    await card.getByRole("button", { name: "Redirecting to profile..." }).waitFor();
    expect(new URL(s.page.url()).pathname).toBe("/");
    await s.page.waitForURL((u) => u.pathname === "/profile", { timeout: 5000 });
  });

  it("no console errors", () => {
    expect(s.errors).toEqual([]);
  });
});

describe("marketplace", () => {
  let s: Session;
  const requests: string[] = [];
  beforeAll(async () => {
    s = await openBrowser();
    s.page.on("request", (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
    await s.page.goto(`${s.baseUrl}/marketplace`);
    await s.page.getByRole("heading", { name: "Premium Vanity Address Marketplace" }).waitFor();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("searches, pages with Previous/Next, and changes the page size", async () => {
    const { page } = s;
    expect(await page.getByRole("searchbox", { name: "Search addresses" }).getAttribute("placeholder")).toBe("Search addresses...");
    await search(page, MARK);
    await expectRange(page, "1-20 of 45 (filtered results)");
    expect(await rows(page).count()).toBe(20);
    expect(searchParams(page)).toEqual({ search: MARK });
    await page.getByTestId("page-indicator").filter({ hasText: "Page 1 of 3" }).waitFor();
    expect(await page.getByRole("button", { name: "Previous" }).isDisabled()).toBe(true);

    await page.getByRole("button", { name: "Next" }).click();
    await expectRange(page, "21-40 of 45 (filtered results)");
    await page.getByTestId("page-indicator").filter({ hasText: "Page 2 of 3" }).waitFor();
    expect(searchParams(page)).toEqual({ search: MARK, page: "2" });
    await page.getByRole("button", { name: "Next" }).click();
    await expectRange(page, "41-45 of 45 (filtered results)");
    expect(await page.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Previous" }).click();
    await expectRange(page, "21-40 of 45 (filtered results)");

    // A new page size returns to page 1; with everything on one page there is no pagination.
    await page.getByLabel("Show", { exact: true }).selectOption("50");
    await expectRange(page, "1-45 of 45 (filtered results)");
    expect(searchParams(page)).toEqual({ search: MARK, limit: "50" });
    expect(await rows(page).count()).toBe(45);
    expect(await page.getByRole("navigation", { name: "Pagination" }).count()).toBe(0);
    // Sold, deleted and unlisted rows never appear.
    expect(await page.getByText(listing(100, 0).address).count()).toBe(0);
  });

  it("sorts by a header (new column descending, the same one toggles) and resets to page 1", async () => {
    const { page } = s;
    await page.getByLabel("Show", { exact: true }).selectOption("20");
    await expectRange(page, "1-20 of 45 (filtered results)");
    await page.getByRole("button", { name: "Next" }).click();
    await expectRange(page, "21-40 of 45 (filtered results)");

    const priceHeader = page.getByRole("columnheader", { name: /Price/ });
    await priceHeader.getByRole("button").click();
    await expectRange(page, "1-20 of 45 (filtered results)");
    expect(searchParams(page)).toMatchObject({ sortBy: "price" });
    expect(searchParams(page).sortOrder).toBeUndefined(); // descending is the default
    expect(await priceHeader.getAttribute("aria-sort")).toBe("descending");
    await expect.poll(async () => isSorted(await usdOfRows(page), "desc")).toBe(true);
    const highest = (await usdOfRows(page))[0];

    await priceHeader.getByRole("button").click();
    await expect.poll(() => priceHeader.getAttribute("aria-sort")).toBe("ascending");
    await expect.poll(async () => (await usdOfRows(page))[0] < highest).toBe(true);
    expect(isSorted(await usdOfRows(page), "asc")).toBe(true);

    const typeHeader = page.getByRole("columnheader", { name: /Type/ });
    await typeHeader.getByRole("button").click();
    await expect.poll(() => typeHeader.getAttribute("aria-sort")).toBe("descending");
    await expect.poll(() => rows(page).first().textContent()).toContain("GOLD");
    // The table's order is the filter panel's too.
    await page.getByRole("button", { name: "Show Filters" }).click();
    expect(await page.getByLabel("Sort By").inputValue()).toBe("rarity");
    expect(await page.getByLabel("Sort Order").inputValue()).toBe("desc");
  });

  it("filters by network, category and pattern, counting the active filters", async () => {
    const { page } = s;
    await page.getByLabel("Network", { exact: true }).selectOption("solana");
    await expectRange(page, "1-15 of 15 (filtered results)");
    await page.getByTestId("active-filters").filter({ hasText: "1 active" }).waitFor();
    expect(await rows(page).filter({ hasText: "SOL" }).count()).toBe(15);

    await page.getByLabel("Network", { exact: true }).selectOption("all");
    await page.getByLabel("Category").selectOption("palindrome");
    await expectRange(page, "1-7 of 7 (filtered results)");
    // The pattern at both ends is highlighted: two marks per palindrome address.
    expect(await rows(page).first().locator("mark").count()).toBe(2);

    await page.getByLabel("Category").selectOption("all");
    await page.getByLabel("Pattern Position").selectOption("prefix");
    await page.getByLabel("Pattern", { exact: true }).fill("dead");
    await expectRange(page, "1-8 of 8 (filtered results)");
    expect(await rows(page).first().locator("mark").first().textContent()).toBe("dead");
    await page.getByTestId("active-filters").filter({ hasText: "1 active" }).waitFor();

    await page.getByLabel("Min Character Length").fill("5");
    await expectRange(page, "0-0 of 0 (filtered results)");
    await page.getByTestId("results-empty").getByText("No addresses found matching your criteria.").waitFor();
    await page.getByTestId("active-filters").filter({ hasText: "2 active" }).waitFor();

    // "Clear search" drops the search text only; the filters stay.
    await page.getByRole("link", { name: "Clear search" }).click();
    await expect.poll(() => searchParams(page).search).toBeUndefined();
    expect(await page.getByRole("searchbox", { name: "Search addresses" }).inputValue()).toBe("");
    expect(searchParams(page)).toMatchObject({ patternFilter: "prefix", patternValue: "dead", minCharLength: "5" });

    await page.getByRole("button", { name: "Reset Filters" }).click();
    await expect.poll(() => page.getByTestId("active-filters").count()).toBe(0);
    expect(searchParams(page)).toEqual({ sortBy: "rarity" });
  });

  it("a filtered view survives a reload", async () => {
    const { page } = s;
    // A shared link's pattern that reads as a number stays the pattern typed (the router's default read "7e8" as 700000000).
    await page.goto(`${s.baseUrl}/marketplace?patternFilter=prefix&patternValue=7e8&search=1e3`);
    await page.getByRole("button", { name: "Hide Filters" }).waitFor();
    expect(await page.getByLabel("Pattern", { exact: true }).inputValue()).toBe("7e8");
    expect(await page.getByRole("searchbox", { name: "Search addresses" }).inputValue()).toBe("1e3");

    await page.goto(`${s.baseUrl}/marketplace?search=${MARK}&network=solana&sortBy=price&sortOrder=asc&limit=50`);
    await expectRange(page, "1-15 of 15 (filtered results)");
    const before = await rows(page).allTextContents();
    await page.reload();
    await expectRange(page, "1-15 of 15 (filtered results)");
    expect(await rows(page).allTextContents()).toEqual(before);
    expect(await page.getByRole("searchbox", { name: "Search addresses" }).inputValue()).toBe(MARK);
    expect(await page.getByLabel("Show", { exact: true }).inputValue()).toBe("50");
    await page.getByTestId("active-filters").filter({ hasText: "1 active" }).waitFor();
    await page.getByRole("button", { name: "Hide Filters" }).waitFor(); // opened because a filter is active
    expect(await page.getByLabel("Network", { exact: true }).inputValue()).toBe("solana");
    expect(isSorted(await usdOfRows(page), "asc")).toBe(true);
  });

  it("Buy in the table without a wallet alerts and calls nothing", async () => {
    const { page } = s;
    const alerts: string[] = [];
    // The alert blocks the page until it is answered, so answer it from the listener.
    page.once("dialog", (d) => {
      alerts.push(d.message());
      void d.accept();
    });
    requests.length = 0;
    await rows(page).first().getByRole("button", { name: /^Buy / }).click();
    await expect.poll(() => alerts).toEqual(["Please connect your wallet first to make a purchase."]);
    expect(requests.filter((r) => r.includes("/api/transactions"))).toEqual([]);
    expect(new URL(page.url()).pathname).toBe("/marketplace");
  });

  it("each row carries its watchlist star, not pressed for a visitor (the watchlist's journey: collectors.e2e.ts)", async () => {
    const star = rows(s.page)
      .first()
      .getByRole("button", { name: /^Watch 0x[0-9a-fA-F]{40}$|^Watch [1-9A-HJ-NP-Za-km-z]{32,44}$/ });
    expect(await star.getAttribute("aria-pressed")).toBe("false");
  });

  it("an address opens its listing page with the breakdown, copy and the buy button", async () => {
    const { page } = s;
    await s.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.baseUrl });
    const first = rows(page).first();
    const id = await first.getAttribute("data-listing-id");
    // The address link's text (the cell also carries the phone-only Type label, hidden at this width).
    const shown = await first.locator("td").last().getByRole("link").textContent();
    await first.getByRole("link").click();
    await page.waitForURL((u) => u.pathname === `/address/${id}`);
    // The router keeps the marketplace on screen until the listing's loader resolves: wait for the new heading.
    await page.getByRole("heading", { level: 1, name: shown ?? "" }).waitFor();
    expect(await page.locator("main").textContent()).toContain("Solana");
    expect(await page.locator("main").textContent()).toMatch(/Rarity \d+\.\d\/10/);
    expect(await page.locator("main").textContent()).toContain("Available for Purchase");
    const breakdown = page.getByTestId("purchase-breakdown");
    // The fee call and the live price (for the USD figure) land in either order.
    await expect
      .poll(() => breakdown.textContent(), { timeout: 15_000 })
      .toMatch(
        /Price.*SOL.*Paid to the platform.*SOL\$[\d,]+\.\d{2}.*Network fee \(estimate, paid by your wallet\)0\.000005 SOL.*Total.*SOL\$[\d,]+\.\d{2}(?!\d)/,
      );
    await page.getByRole("button", { name: /^Buy Now - .* SOL$/ }).waitFor();

    await page.getByRole("button", { name: "Copy Address" }).click();
    await page.getByTestId("toast").filter({ hasText: "Copied!" }).waitFor();
    await page.getByRole("button", { name: "Copied!" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    await page.getByRole("button", { name: "Copy Address" }).waitFor({ timeout: 4000 });
    // The e2e chain is anvil's and the Solana cluster local: no public explorer to link to.
    expect(await page.getByRole("button", { name: "View on Explorer" }).isDisabled()).toBe(true);
  });

  it("no console errors", () => {
    expect(s.errors).toEqual([]);
  });
});

describe("listing page for a listing that does not exist", () => {
  it("shows Address Not Found with a way back", async () => {
    const s = await openBrowser();
    try {
      await s.page.goto(`${s.baseUrl}/address/987654321`);
      await s.page.getByRole("heading", { name: "Address Not Found" }).waitFor();
      await s.page.goto(`${s.baseUrl}/address/not-a-number`);
      await s.page.getByRole("heading", { name: "Address Not Found" }).waitFor();
      await s.page.getByRole("link", { name: "Back to Marketplace" }).click();
      await s.page.waitForURL((u) => u.pathname === "/marketplace");
      // The only console lines are the browser's own reports of the API's 404, and of the 400 the page's preload
      // hint (dist/_headers) gets for an id that is not a number.
      expect(s.errors.filter((e) => !/status of 40[04]/.test(e))).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe("owner controls on a card", () => {
  let s: Session;
  beforeAll(async () => {
    s = await openBrowser();
    await injectEthereumWallet(s.page, { account: DEV_ACCOUNTS.admin.address, rpcUrl: inject("rpcUrl") });
    await s.page.goto(`${s.baseUrl}/`);
    await s.page.getByRole("banner").getByTestId("wallet-button").filter({ hasText: "Connect Wallet" }).click();
    await s.page.getByRole("banner").getByTestId("wallet-button").filter({ hasText: "Admin (ETH)" }).waitFor({ timeout: 15_000 });
  });
  afterAll(async () => {
    await s?.close();
  });

  const card = (address: string) => s.page.getByTestId("listing-card").filter({ hasText: address });

  it("the owner sees status, price edit, featured toggle and delete, and no Buy Now", async () => {
    const mine = card(OWNER_FEATURED);
    await mine.getByTestId("owner-controls").waitFor({ timeout: 15_000 });
    expect(await mine.getByTestId("owner-status").textContent()).toBe("Listed");
    expect(await mine.getByRole("button", { name: "Buy Now" }).count()).toBe(0);
    await mine.getByRole("button", { name: "Remove Featured" }).waitFor();
    await mine.getByRole("button", { name: "Delete" }).waitFor();
  });

  it("edits the price: confirm needs a positive number; the toast names the new price", async () => {
    const mine = card(OWNER_FEATURED);
    await mine.getByRole("button", { name: "Edit Price" }).click();
    const box = mine.getByLabel("New price in ETH");
    const confirm = mine.getByRole("button", { name: "Confirm" });
    await box.fill("");
    expect(await confirm.isDisabled()).toBe(true);
    await box.fill("0");
    expect(await confirm.isDisabled()).toBe(true);
    await box.fill("0.25");
    expect(await confirm.isDisabled()).toBe(false);
    await confirm.click();
    await s.page.getByTestId("toast").filter({ hasText: "Price Updated" }).filter({ hasText: "Listing price updated to 0.25 ETH" }).waitFor();
    await expect.poll(() => mine.textContent()).toContain("0.25000000 ETH");
    await mine.getByRole("button", { name: "Edit Price" }).waitFor();
  });

  it("on the listing page the owner edits the price in place of Buy Now, checked as the create form checks it", async () => {
    await card(OWNER_FEATURED).getByRole("link").first().click();
    await s.page.waitForURL((u) => u.pathname.startsWith("/address/"));
    const panel = s.page.getByTestId("owner-panel");
    await panel.getByRole("button", { name: "Edit price" }).click();
    expect(await s.page.getByRole("button", { name: /^Buy Now/ }).count()).toBe(0);
    const box = panel.getByLabel("New price in ETH");
    const confirm = panel.getByRole("button", { name: "Confirm" });
    await box.fill("0.123456789");
    expect(await panel.getByTestId("price-edit-message").textContent()).toBe("Price can have at most 8 decimal places");
    expect(await confirm.isDisabled()).toBe(true);
    await box.fill("0.3");
    expect(await panel.getByTestId("price-edit-message").textContent()).toBe("");
    await confirm.click();
    await s.page.getByTestId("toast").filter({ hasText: "Listing price updated to 0.3 ETH" }).waitFor();
    await panel.getByRole("button", { name: "Edit price" }).waitFor();
    await expect.poll(() => s.page.getByTestId("detail-price").textContent()).toMatch(/^0\.3\b/);
    await s.page.goBack();
    await card(OWNER_FEATURED).getByTestId("owner-controls").waitFor({ timeout: 15_000 });
  });

  it("Make Featured turns a promoted listing purple; Remove Featured takes one out of the featured list", async () => {
    const promoted = card(OWNER_PROMOTED);
    await promoted.getByRole("button", { name: "Make Featured" }).click();
    await s.page.getByTestId("toast").filter({ hasText: "Featured Status Updated" }).filter({ hasText: "purple" }).waitFor();
    await expect.poll(() => promoted.getAttribute("data-promotion")).toBe("featured");
    await promoted.getByRole("button", { name: "Remove Featured" }).waitFor();

    await card(OWNER_FEATURED).getByRole("button", { name: "Remove Featured" }).click();
    await s.page.getByTestId("toast").filter({ hasText: "Featured Status Updated" }).filter({ hasText: "standard" }).waitFor();
    await expect.poll(() => card(OWNER_FEATURED).count()).toBe(0);
  });

  it("Delete asks first (the app's confirmation dialog), then removes the listing", async () => {
    const promoted = card(OWNER_PROMOTED);
    await promoted.getByRole("button", { name: "Delete" }).click();
    const dialog = s.page.getByRole("alertdialog", { name: "Delete this listing?" });
    expect(await dialog.textContent()).toContain("This cannot be undone.");
    await dialog.getByRole("button", { name: "Delete listing" }).click();
    await s.page.getByTestId("toast").filter({ hasText: "Listing Deleted" }).waitFor();
    await expect.poll(() => card(OWNER_PROMOTED).count()).toBe(0);
    const res = await apiAt(s.baseUrl).addresses.search.$get({ query: { search: "f00d" } });
    expect((await res.json()).addresses.map((a) => a.address)).not.toContain(OWNER_PROMOTED);
  });

  it("no console errors", () => {
    expect(s.errors).toEqual([]);
  });
});
