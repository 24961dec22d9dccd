// Every page at 360 and 390 px, signed out and signed in, with no element covering another and
// nothing past the screen's sides (layout.ts); the header fits one row and its links sit in a Menu. As admin,
// Admin > Analytics (with a sale in its chart and tables) and Settings (with a refused value at its field).
// At 390 px: a toast covers neither the page's title nor its back link nor the header; Profile (with a found
// custom order's whole address in My Orders) fits; the header's Menu leads to Activity and Grind by keyboard and
// marks the page it is on; and none of these pages, nor filtered marketplace URLs, logs a console warning.
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { tickScheduled } from "../scripts/stack";
import { publicKeyOf, randomSecret } from "../schema/split-key";
import { listAsAdmin, signInWithKey } from "./api-session";
import { openBrowser, type Page, type Session } from "./browser";
import { layoutProblems, overlapArea } from "./layout";
import { withDb } from "./listings-db";
import { connect } from "./purchase-journey";
import { realPurchase } from "./real-purchase";
import { injectEthereumWallet } from "./wallets/eip1193";
import { answer } from "./api-session";

const WIDTHS = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
];

let listingId = 0;
let transactionId = "";
let cancelledId = "";
let buyerApi: Awaited<ReturnType<typeof signInWithKey>>;
beforeAll(async () => {
  const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
  const list = async (price: string) => {
    const key = generatePrivateKey();
    return listAsAdmin(admin, { address: privateKeyToAccount(key).address, network: "ethereum", price, privateKey: key });
  };
  listingId = await list("0.0021");
  buyerApi = await signInWithKey(DEV_ACCOUNTS.otherBuyer.privateKey as Hex);
  const reserve = async (id: number) =>
    (await answer(buyerApi.api.transactions.initiate.$post({ json: { addressId: id, buyerId: DEV_ACCOUNTS.otherBuyer.address } }))).body.transactionId;
  transactionId = await reserve(await list("0.0022"));
  cancelledId = await reserve(await list("0.0023"));
  await answer(buyerApi.api.transactions[":id"].cancel.$post({ param: { id: cancelledId } }));
  // A custom order found and not paid in time: My Orders shows its whole address (it widened Profile to 436 px).
  const quote = await answer(buyerApi.api["custom-orders"].quote.$get({ query: { prefix: "abcd" } }));
  const order = await answer(
    buyerApi.api["custom-orders"].$post({
      json: { prefix: "abcd", suffix: "", caseSensitive: false, publicKey: publicKeyOf(randomSecret()), price: quote.body.price },
    }),
  );
  const found = privateKeyToAccount(generatePrivateKey()).address.replace(/^0x..../, "0xabcd");
  await withDb((db) =>
    db.prepare("UPDATE custom_orders SET status = 'expired', found_address = ?, found_at = ? WHERE id = ?").bind(found, Date.now(), order.body.id).run(),
  );
  // The profile's watchlist and saved searches, and the notifications page, with something in them.
  await answer(buyerApi.api.watchlist[":id"].$put({ param: { id: String(listingId) } }));
  await answer(buyerApi.api["saved-searches"].$post({ json: { name: "Long patterns on Ethereum", filters: { network: "ethereum", minCharLength: "8" } } }));
  await answer(admin.api.addresses[":id"].$patch({ param: { id: String(listingId) }, json: { price: "0.002" } }));
  await tickScheduled(inject("baseUrl"));
  // The tick answers once the run has started; the price drop is told at its end.
  // (expect.poll is for tests, not hooks: the same wait, by hand.)
  const unread = async () => (await answer(buyerApi.api.notifications["unread-count"].$get())).body.unread;
  const until = Date.now() + 60_000;
  while ((await unread()) === 0) {
    if (Date.now() > until) throw new Error("the cron run told the watcher nothing in 60 s");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}, 120_000);
afterAll(async () => {
  await answer(buyerApi.api.transactions[":id"].cancel.$post({ param: { id: transactionId } }));
});

const routes = () => [
  "/",
  "/marketplace",
  `/address/${listingId}`,
  "/profile",
  "/notifications",
  "/custom-order",
  "/activity",
  "/terms-of-service",
  `/transaction/${transactionId}`,
  `/transaction-cancelled/${cancelledId}`,
  "/no-such-page",
];

async function settled(page: Page) {
  await page.locator("main h1").first().waitFor({ timeout: 20_000 });
  await expect
    .poll(() => page.locator('[aria-busy="true"], [data-testid$="skeleton"], [role="status"]:has-text("Loading")').count(), { timeout: 20_000 })
    .toBe(0);
}

async function checkEveryRoute(page: Page, baseUrl: string, who: string): Promise<string[]> {
  const found: string[] = [];
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    for (const route of routes()) {
      await page.goto(`${baseUrl}${route}`);
      await settled(page);
      for (const p of await layoutProblems(page)) found.push(`${who} ${size.width}px ${route}: ${p}`);
    }
    // The header's menu, open, over the page.
    await page.goto(`${baseUrl}/`);
    await settled(page);
    const menu = page.getByTestId("menu-button");
    if ((await menu.count()) === 0) {
      found.push(`${who} ${size.width}px: no Menu button in the header`);
      continue;
    }
    await menu.click();
    await page.getByTestId("header-menu").waitFor();
    for (const p of await layoutProblems(page)) found.push(`${who} ${size.width}px menu open: ${p}`);
  }
  return found;
}

describe("phone layout (360 and 390 px)", () => {
  let s: Session | undefined;
  afterAll(async () => s?.close());

  it("signed out: every page, nothing covered, nothing off screen; the header is one row with a Menu", async () => {
    s = await openBrowser();
    const { page, baseUrl } = s;
    expect(await checkEveryRoute(page, baseUrl, "signed out")).toEqual([]);
    await page.setViewportSize(WIDTHS[0]);
    await page.goto(`${baseUrl}/`);
    // The prerendered page is replaced when the app starts, and for a moment there is no header to measure.
    let header: { height: number } | null = null;
    for (let tries = 0; !header && tries < 50; tries++) {
      await page.getByRole("banner").waitFor({ state: "visible" });
      header = await page.getByRole("banner").boundingBox();
    }
    expect(header!.height).toBeLessThan(72);
    // The links are in the menu, and the menu leads where they do.
    await page.getByTestId("menu-button").click();
    await page.getByTestId("header-menu").getByRole("link", { name: "Custom Order" }).click();
    await page.waitForURL((u) => u.pathname === "/custom-order");
    expect(await page.getByTestId("header-menu").count()).toBe(0);
    await s.close();
    s = undefined;
  }, 300_000);

  it("as admin: Analytics (with a real sale) and Settings (with a refused value shown at its field) fit, labels readable", async () => {
    await realPurchase("0.02345678");
    s = await openBrowser();
    const { page, baseUrl } = s;
    await injectEthereumWallet(page, { account: DEV_ACCOUNTS.admin.address, rpcUrl: inject("rpcUrl") });
    await page.goto(`${baseUrl}/`);
    await connect(page, "Admin (ETH)");
    const found: string[] = [];
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await page.goto(`${baseUrl}/admin?tab=analytics`);
      await page.getByTestId("sales-chart").waitFor({ timeout: 20_000 });
      await settled(page);
      for (const p of await layoutProblems(page)) found.push(`admin ${size.width}px analytics: ${p}`);
      await page.goto(`${baseUrl}/admin?tab=settings`);
      const form = page.getByRole("form", { name: "Change the fee configuration" });
      await form.getByLabel("Minimum fee").fill("0.123456789");
      await form.getByRole("button", { name: "Save fee configuration" }).click();
      await form.getByTestId("error-minimumFee").waitFor({ timeout: 20_000 });
      // Clicking Save scrolled the page: fields scrolled past lie under the sticky header, as on any scrolled page.
      // Judged from the top, where every element is in its place (overflow is checked below the fold as well).
      await page.evaluate(() => window.scrollTo(0, 0));
      for (const p of await layoutProblems(page)) found.push(`admin ${size.width}px settings: ${p}`);
    }
    expect(found).toEqual([]);
    await s.close();
    s = undefined;
  }, 300_000);

  it("signed in (the wallet chip in the header): every page, nothing covered, nothing off screen", async () => {
    s = await openBrowser();
    const { page, baseUrl } = s;
    await injectEthereumWallet(page, { account: DEV_ACCOUNTS.otherBuyer.address, rpcUrl: inject("rpcUrl") });
    await page.goto(`${baseUrl}/`);
    await connect(page, "0x3C44Cd");
    expect(await checkEveryRoute(page, baseUrl, "signed in")).toEqual([]);
  }, 300_000);
});

/** Every console warning and error, and every uncaught error, a page logs, with the page it was on. */
function consoleLines(page: Page): string[] {
  const lines: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "warning" || msg.type() === "error")
      lines.push(`${new URL(page.url()).pathname}${new URL(page.url()).search} console.${msg.type()}: ${msg.text()}`);
  });
  page.on("pageerror", (err) => lines.push(`${page.url()} pageerror: ${err.message}`));
  return lines;
}

/** The toast showing now, paused (F8 focuses the toasts, which stops their timer), against what it must not cover. */
async function toastCovers(page: Page, what: Record<string, ReturnType<Page["locator"]>>): Promise<string[]> {
  const shown = page.getByTestId("toast").first();
  await shown.waitFor({ timeout: 20_000 });
  await page.keyboard.press("F8");
  const at = await shown.boundingBox();
  const covered: string[] = [];
  for (const [name, locator] of Object.entries(what)) {
    const box = await locator.boundingBox();
    if (!box) covered.push(`${name}: not on the page`);
    else if (overlapArea(at, box) > 0)
      covered.push(
        `${name} (toast at y ${Math.round(at!.y)}..${Math.round(at!.y + at!.height)}, ${name} at ${Math.round(box.y)}..${Math.round(box.y + box.height)})`,
      );
  }
  // Closed, so the next page starts without it.
  await shown.getByRole("button", { name: "Close" }).click();
  await shown.waitFor({ state: "detached" });
  return covered;
}

describe("at 390 px: toasts, Profile, the header's links, a clean console", () => {
  let s: Session | undefined;
  afterAll(async () => s?.close());

  it("a toast covers no title, back link or header; Profile fits; the Menu reaches Activity and Grind by keyboard; no console warning", async () => {
    // With WebGPU (SwiftShader): without an adapter chromium itself warns "No available adapters" on /grind.
    s = await openBrowser({ webgpu: true });
    const { page, baseUrl } = s;
    await s.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
    const logged = consoleLines(page);
    await page.setViewportSize(WIDTHS[1]);
    await injectEthereumWallet(page, { account: DEV_ACCOUNTS.otherBuyer.address, rpcUrl: inject("rpcUrl") });
    await page.goto(`${baseUrl}/`);
    await connect(page, "0x3C44Cd");

    // The listing page: "Copied!" after Copy Address, clear of the back link, the title and the header.
    await page.goto(`${baseUrl}/address/${listingId}`);
    await settled(page);
    await page.getByRole("button", { name: "Copy Address" }).click();
    const onListing = await toastCovers(page, {
      "the back link": page.getByRole("link", { name: "Back to Marketplace" }),
      "the title": page.locator("main h1").first(),
      "the header": page.getByRole("banner"),
    });
    expect.soft(onListing).toEqual([]);

    // Profile: nothing past 390 px with a found order's address in My Orders; its Copy's toast clear of the title.
    await page.goto(`${baseUrl}/profile`);
    await settled(page);
    const orders = page.getByTestId("my-orders");
    await orders.waitFor({ timeout: 20_000 });
    expect(await orders.textContent()).toMatch(/0xabcd/i);
    expect.soft(await page.evaluate(() => document.documentElement.scrollWidth), "Profile's width").toBeLessThanOrEqual(390);
    expect.soft(await layoutProblems(page)).toEqual([]);
    await page.getByRole("button", { name: "Copy address" }).click();
    expect.soft(await toastCovers(page, { "the title": page.locator("main h1").first(), "the header": page.getByRole("banner") })).toEqual([]);

    // The header's Menu, by keyboard only: Activity, then Grind, each marked as the page it is on.
    for (const [label, path] of [
      ["Activity", "/activity"],
      ["Grind", "/grind"],
    ] as const) {
      await page.getByTestId("menu-button").focus();
      await page.keyboard.press("Enter");
      const menu = page.getByTestId("header-menu");
      await menu.waitFor();
      let reached = false;
      for (let tabs = 0; tabs < 12 && !reached; tabs++) {
        await page.keyboard.press("Tab");
        reached = await page.evaluate((name) => document.activeElement?.textContent?.trim() === name, label);
      }
      expect.soft(reached, `${label} reached with Tab from the Menu button`).toBe(true);
      if (!reached) {
        await page.keyboard.press("Escape");
        continue;
      }
      await page.keyboard.press("Enter");
      await page.waitForURL((u) => u.pathname === path);
      await page.locator("main h1").first().waitFor();
      // /grind names SwiftShader for what it is.
      if (path === "/grind")
        await expect
          .poll(() => page.getByTestId("gpu-status").textContent(), { timeout: 30_000 })
          .toMatch(/^Found a software renderer \(google swiftshader.*\), not a GPU/);
      await page.getByTestId("menu-button").click();
      const link = menu.getByRole("link", { name: label, exact: true });
      expect(await link.getAttribute("aria-current")).toBe("page");
      expect(await link.evaluate((el) => getComputedStyle(el).fontWeight)).toBe("600");
      await page.keyboard.press("Escape");
      expect(await layoutProblems(page)).toEqual([]);
    }

    // The marketplace, plain and filtered, loaded afresh: the browser reports a preload hint the page did not use
    // within a few seconds of the load (a filtered URL's hints were the plain page's reads).
    for (const query of ["", "?network=ethereum", "?search=dead", "?patternFilter=prefix&patternValue=000&sortBy=price&sortOrder=asc"]) {
      await page.goto(`${baseUrl}/marketplace${query}`);
      await settled(page);
      await page.waitForTimeout(4_000);
    }
    expect(logged).toEqual([]);
  }, 300_000);

  it("on a wide screen the header itself links Activity and Grind", async () => {
    s ??= await openBrowser();
    const { page, baseUrl } = s;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${baseUrl}/activity`);
    await settled(page);
    const nav = page.getByRole("banner").getByRole("navigation", { name: "Main" });
    for (const label of ["Activity", "Grind"]) expect(await nav.getByRole("link", { name: label, exact: true }).isVisible()).toBe(true);
    expect(await nav.getByRole("link", { name: "Activity", exact: true }).getAttribute("aria-current")).toBe("page");
    expect(await layoutProblems(page)).toEqual([]);
  }, 120_000);
});
