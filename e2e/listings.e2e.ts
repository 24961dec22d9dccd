// Listing journeys: the admin (anvil account 0, signed in through the injected EIP-1193 wallet)
// creates a single listing with ownership verification and sees it listed, uploads a small CSV with one bad
// row and sees the per-row results, works the admin panel (search, a bulk action, export, a row action), and
// sees it under My Listings; a non-admin gets the access-denied states. No console errors anywhere.
import fs from "node:fs";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { openBrowser, type Page, type Session } from "./browser";
import { USER_LISTINGS_PAGE } from "../web/src/api/listings-admin";
import { ensureUser, insertListings } from "./listings-db";
import { injectEthereumWallet } from "./wallets/eip1193";

const short = (a: string) => `${a.slice(0, 8)}...${a.slice(-6)}`;

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const walletButton = (page: Page) => page.getByRole("banner").getByTestId("wallet-button");
const toastWith = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text }).first().waitFor({ timeout: 20_000 });

async function signIn(page: Page, account: string, expected: string) {
  await injectEthereumWallet(page, { account, rpcUrl: inject("rpcUrl") });
  await page.goto(`${s!.baseUrl}/`);
  await walletButton(page).filter({ hasText: "Connect Wallet" }).click();
  await expect.poll(() => walletButton(page).textContent(), { timeout: 15_000 }).toContain(expected);
}

function freshAccount() {
  const key = generatePrivateKey();
  return { key, address: privateKeyToAccount(key).address };
}

describe("listings as the admin", () => {
  it("creates a listing with ownership proof, uploads a CSV with one bad row, manages listings in the admin panel", async () => {
    s = await openBrowser();
    const { page } = s;
    await signIn(page, DEV_ACCOUNTS.admin.address, "Admin (ETH)");

    // ---- single listing ----
    await page.getByRole("banner").getByRole("link", { name: "Create Listing" }).click();
    await page.getByRole("heading", { name: "Create Listing", level: 1 }).waitFor();
    const single = freshAccount();
    await page.getByLabel("Address", { exact: true }).fill(single.address);
    await page.getByTestId("address-valid").waitFor({ timeout: 15_000 });
    const create = page.getByRole("button", { name: "Create Listing" });
    // A fresh random address shows no notable pattern: the form says so beside the store's estimate, and
    // Create waits for the admin to confirm listing it anyway.
    await page
      .getByTestId("estimated-value")
      .getByText(/Estimated value: [\d.]+ ETH/)
      .waitFor();
    await page.getByTestId("price-warnings").getByText("No notable pattern (rarity 0)").waitFor();
    expect(await create.isEnabled()).toBe(false);
    await page.getByLabel("List it anyway: I know this address has no notable pattern").check();
    expect(await create.isEnabled()).toBe(true);
    // A price under a fifth of the estimate is said in words beside it; "Price at the estimate" takes the estimate.
    const shown = /Estimated value: ([\d.]+) ETH/.exec((await page.getByTestId("estimated-value").textContent()) ?? "")![1];
    const low = shown.startsWith("0.") ? shown.replace("0.", "0.0") : String(Number(shown) / 10);
    await page.getByLabel("Price (ETH)").fill(low);
    await page.getByTestId("price-warnings").getByText(`Price ${low} ETH is under a fifth of the estimated value ${shown} ETH (90% below it)`).waitFor();
    await page.getByRole("button", { name: "Price at the estimate" }).click();
    expect(await page.getByLabel("Price (ETH)").inputValue()).toBe(shown);
    await page
      .getByTestId("price-warnings")
      .getByText(/under a fifth/)
      .waitFor({ state: "detached" });

    await page.getByLabel("Price (ETH)").fill("-1");
    await page.getByText("Negative prices are not allowed").waitFor();
    await page.getByLabel("Price (ETH)").fill("0.05");
    await page.getByTestId("fee-breakdown").getByText("You receive").waitFor({ timeout: 15_000 });

    // Verify Ownership without a key, then with the wrong key, then with the right one.
    await page.getByRole("button", { name: "Verify Ownership" }).click();
    await toastWith(page, "Please enter both address and private key");
    const keyInput = page.getByLabel("Private key");
    expect(await keyInput.getAttribute("type")).toBe("password");
    expect(await keyInput.getAttribute("autocomplete")).toBe("off");
    await keyInput.fill(generatePrivateKey());
    await page.getByRole("button", { name: "Verify Ownership" }).click();
    await toastWith(page, "Verification Failed");
    await keyInput.fill(single.key);
    await page.getByRole("button", { name: "Show" }).click();
    expect(await keyInput.getAttribute("type")).toBe("text");
    await page.getByRole("button", { name: "Hide" }).click();
    await page.getByRole("button", { name: "Verify Ownership" }).click();
    await toastWith(page, "Ownership Verified");

    await create.click();
    await toastWith(page, "Listing Created Successfully!");
    // The form is reset and the key is gone from the page.
    expect(await page.getByLabel("Address", { exact: true }).inputValue()).toBe("");
    expect(await keyInput.inputValue()).toBe("");
    const listed = await page.evaluate(async (address) => (await fetch(`/api/addresses/search?search=${address}`)).json(), single.address);
    expect(JSON.stringify(listed)).toContain(single.address);

    // ---- bulk upload with one bad row ----
    await page.getByRole("button", { name: "Bulk Upload" }).click();
    const good = [freshAccount(), freshAccount()];
    const bad = freshAccount();
    const csv = [
      "address,private_key,platform,pattern_type,pattern_matched",
      ...good.map((a) => `${a.address},${a.key},ethereum,prefix,${a.address.slice(2, 5)}`),
      `${bad.address},${generatePrivateKey()},ethereum,prefix,${bad.address.slice(2, 5)}`,
    ].join("\n");
    await page.getByTestId("bulk-file-input").setInputFiles({ name: "listings.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await toastWith(page, "CSV Parsed");
    expect(await page.getByTestId("bulk-row").count()).toBe(3);
    // Three ground characters are a pattern (2^12 keys), estimated well above the spec's 0.00001 ETH: each row is
    // warned about, by number, until the upload is priced at the estimates.
    const warnings = page.getByTestId("bulk-warnings");
    await warnings.getByText(/^Row 1: Price 0\.00001 ETH is under a fifth of the estimated value [\d.]+ ETH/).waitFor({ timeout: 15_000 });
    await page.getByLabel(/At each row's estimated value/).check();
    await warnings.waitFor({ state: "detached" });
    const estimate = (await page.getByTestId("bulk-row").first().locator("td").nth(6).textContent())?.replace(" ETH", "");
    expect(Number(estimate)).toBeGreaterThan(5 * 0.00001);
    await page.getByRole("button", { name: /Start Upload/ }).click();
    await toastWith(page, "Bulk Upload Complete");
    expect(await page.getByTestId("toast").textContent()).toContain("2 successful, 1 failed");
    expect(await page.locator('[data-testid="bulk-row"][data-status="success"]').count()).toBe(2);
    // Listed at the estimate the preview showed.
    expect(await page.getByTestId("bulk-row").first().locator("td").nth(5).textContent()).toBe(estimate);
    const errorRow = page.locator('[data-testid="bulk-row"][data-status="error"]');
    expect(await errorRow.count()).toBe(1);
    expect(await errorRow.textContent()).toContain("Private key does not match the address");
    expect(await page.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("100");

    // A wrong file type is refused.
    await page.getByRole("button", { name: "Reset" }).click();
    await page.getByTestId("bulk-file-input").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await toastWith(page, "Please select a valid CSV file");
    await page
      .getByTestId("bulk-file-input")
      .setInputFiles({ name: "semi.csv", mimeType: "text/csv", buffer: Buffer.from("address;private_key;platform;pattern_type;pattern_matched\na;b;c;d;e") });
    await toastWith(page, "Invalid CSV Format");
    await page.getByTestId("bulk-file-input").setInputFiles({ name: "few.csv", mimeType: "text/csv", buffer: Buffer.from("address,private_key\na,b") });
    await toastWith(page, "Missing required headers: platform, pattern_type, pattern_matched");

    // ---- admin panel ----
    await page.getByRole("banner").getByRole("link", { name: "Admin", exact: true }).click();
    await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
    await page.getByRole("tab", { name: "Listings Management" }).waitFor();
    expect(await page.getByTestId("stat-card").count()).toBe(4);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await toastWith(page, "Please select listings to delete");

    await page.getByLabel("Search", { exact: true }).fill(single.address.toLowerCase());
    const rows = page.getByTestId("admin-row");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
    expect(await rows.first().textContent()).toContain(short(single.address));
    await page.getByLabel("Select all listings on this page").check();
    // Deactivating asks first: Cancel leaves the listing on the market, confirming takes it off.
    const deactivate = page.getByRole("toolbar", { name: "Bulk actions" }).getByRole("button", { name: "Deactivate", exact: true });
    const ask = page.getByRole("alertdialog", { name: "Deactivate 1 selected listing?" });
    const status = rows.first().getByTestId("status-badge");
    await deactivate.click();
    await ask.getByRole("button", { name: "Cancel" }).click();
    await ask.waitFor({ state: "detached" });
    expect(await status.textContent()).toBe("active");
    await deactivate.click();
    await ask.getByRole("button", { name: "Deactivate listings" }).click();
    await toastWith(page, "Bulk Update Complete");
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe("inactive");

    await page.getByLabel("Select all listings on this page").check();
    const download = page.waitForEvent("download");
    await page.getByRole("toolbar", { name: "Bulk actions" }).getByRole("button", { name: "Export" }).click();
    await toastWith(page, "Export Complete");
    expect((await download).suggestedFilename()).toMatch(/^vanity-listings-\d{4}-\d{2}-\d{2}\.csv$/);

    await rows.first().getByRole("button", { name: "Activate", exact: true }).click();
    await toastWith(page, "Status Updated");
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe("active");
    // A row's Deactivate asks too; Cancel leaves it on the market.
    await rows.first().getByRole("button", { name: "Deactivate", exact: true }).click();
    const askOne = page.getByRole("alertdialog", { name: "Deactivate this listing?" });
    expect(await askOne.textContent()).toContain("until an admin activates it again");
    await askOne.getByRole("button", { name: "Cancel" }).click();
    await askOne.waitFor({ state: "detached" });
    expect(await status.textContent()).toBe("active");

    await page.getByLabel("Select all listings on this page").check();
    await page.getByRole("toolbar", { name: "Bulk actions" }).getByRole("button", { name: "Feature", exact: true }).click();
    await toastWith(page, "Bulk Update Complete");
    await expect.poll(() => rows.first().textContent(), { timeout: 15_000 }).toContain("★ Yes");

    // A bulk-uploaded listing, deleted from its row after the browser's confirmation.
    await page.getByLabel("Search", { exact: true }).fill(good[1].address);
    await expect.poll(() => rows.first().textContent(), { timeout: 15_000 }).toContain(short(good[1].address));
    expect(await rows.count()).toBe(1);
    await rows
      .first()
      .getByRole("button", { name: `Delete ${good[1].address}` })
      .click();
    const confirm = page.getByRole("alertdialog", { name: "Delete this listing?" });
    expect(await confirm.textContent()).toContain(good[1].address);
    await confirm.getByRole("button", { name: "Delete listing" }).click();
    await toastWith(page, "Listing Deleted");

    // Arrow keys move between the tabs; the Bulk Upload tab holds the upload component.
    await page.getByRole("tab", { name: "Listings Management" }).focus();
    await page.keyboard.press("ArrowRight");
    await page.getByRole("heading", { name: "Bulk Upload" }).waitFor();
    expect(await page.getByRole("tab", { name: "Bulk Upload" }).getAttribute("aria-selected")).toBe("true");

    // ---- profile: My Listings ----
    await page.getByRole("banner").getByRole("link", { name: "Profile" }).click();
    await page.getByRole("heading", { name: "My Listings" }).waitFor();
    await page.getByRole("heading", { name: "Transaction History" }).waitFor();
    await expect.poll(() => page.getByTestId("listing-card").count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);

    expect(s.errors).toEqual([]);
    expect(s.warnings).toEqual([]);
  });
});

describe("admin panel paging and filters", () => {
  it("pages 20 at a time, changes the page size, filters by status and network, bulk-deletes after confirming", async () => {
    const token = `pg${Date.now().toString(36)}`;
    const now = Date.now();
    const addresses = Array.from({ length: 23 }, () => freshAccount().address);
    await insertListings(
      Array.from({ length: 23 }, (_, i) => ({
        address: addresses[i],
        network: "ethereum" as const,
        price: "0.01",
        rarity: 3,
        category: "custom",
        pattern: token,
        patternLength: token.length,
        status: i === 0 ? ("inactive" as const) : ("active" as const),
        createdAt: now - i * 1000,
      })),
    );
    s = await openBrowser();
    const { page } = s;
    await signIn(page, DEV_ACCOUNTS.admin.address, "Admin (ETH)");
    await page.getByRole("banner").getByRole("link", { name: "Admin", exact: true }).click();
    await page.getByLabel("Search", { exact: true }).fill(token.toUpperCase());
    const rows = page.getByTestId("admin-row");
    const summary = page.getByTestId("page-summary");
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toBe("Showing 1–20 of 23");
    expect(await rows.count()).toBe(20);
    // The export covers every listing the search matches, not only the 20 shown (the server's export route).
    const download = page.waitForEvent("download");
    await page.getByRole("toolbar", { name: "Bulk actions" }).getByRole("button", { name: "Export all matching" }).click();
    await toastWith(page, "23 listings exported to vanity-listings-");
    const csv = fs
      .readFileSync((await (await download).path())!, "utf8")
      .trim()
      .split("\n");
    expect(csv[0]).toBe("address,network,price,currency,category,pattern,status,featured,created");
    expect(
      csv
        .slice(1)
        .map((line) => line.split(",")[0])
        .sort(),
    ).toEqual([...addresses].sort());
    expect(csv.slice(1).every((line) => line.split(",")[5] === token)).toBe(true);
    await page.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toBe("Showing 21–23 of 23");
    expect(await rows.count()).toBe(3);
    await page.getByRole("button", { name: "Previous" }).click();
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toBe("Showing 1–20 of 23");
    await page.getByLabel("Per page").selectOption("50");
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toBe("Showing 1–23 of 23");

    await page.getByLabel("Status", { exact: true }).selectOption("inactive");
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toBe("Showing 1–1 of 1");
    await page.getByLabel("Network", { exact: true }).selectOption("solana");
    await page.getByText("No listings match these filters.").waitFor();
    await page.getByLabel("Network", { exact: true }).selectOption("all");
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toBe("Showing 1–1 of 1");

    await page.getByLabel("Select all listings on this page").check();
    await page.getByRole("toolbar", { name: "Bulk actions" }).getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("alertdialog", { name: "Delete 1 selected listing?" }).getByRole("button", { name: "Delete listings" }).click();
    await toastWith(page, "Bulk Delete Complete");
    await page.getByText("No listings match these filters.").waitFor({ timeout: 15_000 });
    expect(s.errors).toEqual([]);
  });
});

describe("admin defects found in the browser", () => {
  it("after deleting one selected row, bulk Delete removes the others instead of failing with 'Listing not found'", async () => {
    const token = `sel${Date.now().toString(36)}`;
    const now = Date.now();
    const made = Array.from({ length: 3 }, () => freshAccount().address);
    await insertListings(
      made.map((address, i) => ({
        address,
        network: "ethereum" as const,
        price: "0.01",
        rarity: 3,
        category: "custom",
        pattern: token,
        patternLength: token.length,
        createdAt: now - i * 1000,
      })),
    );
    s = await openBrowser();
    const { page } = s;
    await signIn(page, DEV_ACCOUNTS.admin.address, "Admin (ETH)");
    await page.getByRole("banner").getByRole("link", { name: "Admin", exact: true }).click();
    await page.getByLabel("Search", { exact: true }).fill(token);
    const rows = page.getByTestId("admin-row");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);
    await page.getByLabel("Select all listings on this page").check();
    await page.getByRole("button", { name: `Delete ${made[0]}` }).click();
    await page.getByRole("alertdialog", { name: "Delete this listing?" }).getByRole("button", { name: "Delete listing" }).click();
    await toastWith(page, "Listing Deleted");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => page.getByRole("toolbar", { name: "Bulk actions" }).textContent()).toContain("2 selected");
    await page.getByRole("toolbar", { name: "Bulk actions" }).getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("alertdialog", { name: "Delete 2 selected listings?" }).getByRole("button", { name: "Delete listings" }).click();
    await toastWith(page, "Bulk Delete Complete");
    expect(await page.getByTestId("toast").textContent()).toContain("2 listings deleted");
    await page.getByText("No listings match these filters.").waitFor({ timeout: 15_000 });
    expect(s.errors).toEqual([]);
  });

  it("My Listings on the admin's profile pages past the first page instead of stopping", async () => {
    const admin = await ensureUser("eth_0xf39fd6b92266", DEV_ACCOUNTS.admin.address);
    const now = Date.now();
    await insertListings(
      Array.from({ length: USER_LISTINGS_PAGE + 2 }, (_, i) => ({
        address: freshAccount().address,
        network: "ethereum" as const,
        price: "0.02",
        rarity: 2,
        category: "custom",
        pattern: "custom",
        patternLength: 0,
        sellerId: admin,
        createdAt: now - i * 1000,
      })),
    );
    s = await openBrowser();
    const { page } = s;
    await signIn(page, DEV_ACCOUNTS.admin.address, "Admin (ETH)");
    await page.getByRole("banner").getByRole("link", { name: "Profile" }).click();
    const cards = page.getByTestId("my-listings").getByTestId("listing-card");
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(USER_LISTINGS_PAGE);
    await page.getByRole("button", { name: "Show more" }).click();
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(USER_LISTINGS_PAGE + 2);
    expect(s.errors).toEqual([]);
  });
});

describe("listings as a non-admin", () => {
  it("sees the access-denied states on /admin and /create-listing", async () => {
    s = await openBrowser();
    const { page } = s;
    await signIn(page, DEV_ACCOUNTS.buyer.address, short(DEV_ACCOUNTS.buyer.address));
    expect(await page.getByRole("banner").getByRole("link", { name: "Admin", exact: true }).count()).toBe(0);
    await page.getByRole("contentinfo").getByRole("link", { name: "Create Listing" }).click();
    await page.getByRole("heading", { name: "Admin Access Required" }).waitFor({ timeout: 15_000 });
    expect(await page.locator("main").textContent()).toContain("Only admin wallets can create new listings.");
    await page.goto(`${s.baseUrl}/admin`);
    const alert = page.getByRole("alert").filter({ hasText: "Admin access required. Please connect with an authorized admin wallet." });
    await alert.waitFor({ timeout: 15_000 });
    expect(await page.locator("main").textContent()).toContain(DEV_ACCOUNTS.buyer.address);
    expect(s.errors).toEqual([]);
  });
});
