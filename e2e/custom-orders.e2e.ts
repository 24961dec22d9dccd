// The custom-order journey in chromium: the buyer (anvil account 1, injected wallet) orders a short pattern on
// /custom-order, saves the secret as an encrypted keystore, places the order; the grinder fills it; the order
// page shows the address; the buyer pays from the wallet on the purchase page, the payment settles, and the
// order page makes the key from the downloaded file and its password: it derives the ordered address. Every
// request body and URL the browser sends is recorded: neither the secret nor the final key appears in any. The
// admin then sees the address delivered to its buyer, with no status action.
// Then a harder order followed at 390 px while npm start's grinder works on it: the queue and a silent grinder,
// then attempts, rate, estimate and deadline, then the order back in the queue when the grinder stops.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { privateKeyToAddress } from "viem/accounts";
import { getPlatformProxy } from "wrangler";
import { publicKeyOf, randomSecret } from "../schema/split-key";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { type Child, startOrderGrinder, tickScheduled } from "../scripts/stack";
import { decryptKeystore } from "../web/src/payments/keystore";
import { signInWithKey } from "./api-session";
import { seriousViolations } from "./axe";
import { openBrowser, type Session } from "./browser";
import { connect } from "./purchase-journey";
import { injectEthereumWallet } from "./wallets/eip1193";
import { answer } from "./api-session";

const CLI = fileURLToPath(new URL("../scripts/grind/cli.ts", import.meta.url));
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PASSWORD = "correct horse battery";

describe("custom order journey", () => {
  let s: Session;
  const bodies: string[] = [];
  beforeAll(async () => {
    s = await openBrowser();
    s.page.on("request", (req) => {
      const body = req.postData();
      if (body) bodies.push(body);
      bodies.push(req.url());
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  it("orders a pattern with a saved secret; the grinder fills it; pays; makes the key that derives the address; the secret and the key are never sent", async () => {
    const page = s.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await injectEthereumWallet(page, { account: DEV_ACCOUNTS.buyer.address, rpcUrl: inject("rpcUrl") });
    await page.goto(`${s.baseUrl}/`);
    // reached from the checker's link
    await page.getByRole("link", { name: "Order a custom address" }).click();
    await page.waitForURL((u) => u.pathname === "/custom-order");
    await page.getByRole("heading", { name: "Order a Custom Address" }).waitFor();
    await page.getByText("Why not Solana?").waitFor();

    // live validation, then a short pattern and its quote
    await page.getByLabel("Starts with (after 0x)").fill("xy");
    await page.getByText("The prefix may hold only 0-9 and a-f").waitFor();
    await page.getByLabel("Starts with (after 0x)").fill("abcdef123456");
    await page
      .getByRole("alert")
      .filter({ hasText: /Too hard to order/ })
      .waitFor();
    await page.getByLabel("Starts with (after 0x)").fill("e7");
    await page.getByTestId("order-price").waitFor();
    expect(await page.getByTestId("order-quote").getByTestId("power-of-two").getAttribute("aria-label")).toBe("2 to the power 8");
    expect(await page.getByTestId("order-quote").textContent()).not.toContain("^");
    // The quote names the rate its time is at: the grinder running now, or (none here) the configured one.
    expect(await page.getByTestId("order-price").locator("..").textContent()).toMatch(
      /time at (the grinder running now, which checks|our grinder's rate of) [\d.]+ (thousand|million|billion) addresses a second; paid once the address is found/,
    );
    const place = page.getByRole("button", { name: /Place order/ });
    expect(await place.isDisabled()).toBe(true);

    await page.locator("main").getByRole("button", { name: "Connect Wallet" }).click();
    await page.getByText("Download your encrypted secret key file first.").waitFor({ timeout: 15_000 });
    await page.getByLabel("File password").fill(PASSWORD);
    await page.getByLabel("Password again").fill(PASSWORD);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download encrypted secret key file" }).click()]);
    const file = await download.path();
    const keystore = JSON.parse(fs.readFileSync(file, "utf8"));
    const secret = await decryptKeystore(keystore, PASSWORD);
    expect(await place.isDisabled()).toBe(true); // not confirmed yet
    await page.getByLabel(/I saved the file/).check();
    await place.click();
    await page.waitForURL((u) => u.pathname.startsWith("/custom-orders/"));
    const orderId = Number(new URL(page.url()).pathname.split("/").pop());
    await page.getByTestId("order-status").filter({ hasText: "Waiting for the grinder" }).waitFor();
    // waiting: the page says where the order stands, and the deadline by which it is found or costs nothing
    await page.getByRole("heading", { name: "In the queue" }).waitFor();
    expect(await page.getByTestId("grinding-deadline").textContent()).toMatch(
      /^Find by .* \(in 7 days\)\. Not found by then, the order expires and you pay nothing\./,
    );

    const placed = bodies.find((b) => b.includes('"publicKey"'))!;
    expect(JSON.parse(placed)).toMatchObject({ prefix: "e7", publicKey: publicKeyOf(BigInt(secret)) });

    const run = spawnSync(process.execPath, ["--import", "tsx", CLI, "--orders", "--once", "--api", s.baseUrl, "--threads", "1", "--quiet"], {
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(run.stderr).toContain(`order ${orderId}: found`);

    await page.reload();
    await page.getByTestId("order-status").filter({ hasText: "Found: waiting for payment" }).waitFor({ timeout: 20_000 });
    const address = (await page.getByTestId("order-address").textContent())!;
    expect(address.slice(2, 4).toLowerCase()).toBe("e7");

    // Pay: the order page reserves the address for this buyer and opens the purchase page, whose wallet
    // payment starts by itself (as after Buy Now); anvil mines the confirmations.
    await page.getByText(/The address is reserved for you alone until/).waitFor();
    await page.getByTestId("pay-order").click();
    await page.waitForURL((u) => u.pathname.startsWith("/transaction/"));
    const transactionId = new URL(page.url()).pathname.split("/").pop()!;
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __testEthereum: { control: { requests: string[] } } }).__testEthereum.control.requests), {
        timeout: 20_000,
      })
      .toContain("eth_sendTransaction");
    const delivered = page.getByTestId("custom-order-delivered");
    await delivered.waitFor({ timeout: 90_000 });
    expect(await page.getByTestId("private-key-card").count()).toBe(0); // no stored-key card for an order

    // Back on the order: delivered, and the key is made here from the downloaded file and its password.
    await delivered.getByRole("link", { name: `Open custom order #${orderId}` }).click();
    await page.waitForURL((u) => u.pathname === `/custom-orders/${orderId}`);
    await page.getByTestId("order-status").filter({ hasText: "Delivered" }).waitFor({ timeout: 20_000 });
    await page.getByLabel("Secret key file").setInputFiles(file);
    await page.getByLabel("File password").fill(PASSWORD);
    await page.getByRole("button", { name: "Make my key" }).click();
    await page.getByTestId("final-key").waitFor({ timeout: 60_000 });
    // The panel says in words what is secret and what to keep, asks the keystore's password twice, and marks the
    // raw key file as not encrypted where it is offered.
    const panel = page.getByTestId("final-key");
    await panel.getByText("Keep this key secret.").waitFor();
    await panel.getByText("Keep the secret key file too").waitFor();
    await panel.getByLabel("Password again").waitFor();
    await panel.getByRole("button", { name: "Download raw key file (not encrypted)" }).waitFor();
    await page.getByRole("button", { name: "Show" }).click();
    const finalKey = (await page.getByTestId("final-key-value").textContent())!.trim();
    expect(finalKey).toMatch(/^0x[0-9a-f]{64}$/);
    expect(privateKeyToAddress(finalKey as `0x${string}`)).toBe(address);

    // "My Orders" on the profile says delivered (its line links to the order; the address shows in the compact form
    // there); the purchase is the order's payment.
    await page.goto(`${s.baseUrl}/profile`);
    await page.getByTestId("my-orders").locator(`a[href$="/custom-orders/${orderId}"]`).getByText("Delivered").waitFor({ timeout: 20_000 });
    // My Purchases: the order's payment is a key the buyer holds, never one the store offers to show or destroy.
    const paid = page.locator(`[data-testid="purchase-row"][data-transaction-id="${transactionId}"]`);
    await paid.getByTestId("buyer-held-key").filter({ hasText: "You hold this key (made in your browser)" }).waitFor({ timeout: 20_000 });
    expect(await paid.getByRole("link", { name: "Access Key" }).count()).toBe(0);
    expect(await paid.getByRole("button", { name: "Destroy" }).count()).toBe(0);
    // The notification the cron job writes says so too, and leads to the order page.
    expect((await tickScheduled(s.baseUrl)).ok).toBe(true);
    const delivery = page.getByTestId("notification").filter({ hasText: "Custom order delivered" });
    await expect
      .poll(
        async () => {
          await page.goto(`${s.baseUrl}/notifications`);
          await page.locator('[data-testid="notification"], [data-testid="notifications-empty"]').first().waitFor({ timeout: 20_000 });
          return delivery.count();
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toBeGreaterThan(0);
    expect(await delivery.first().textContent()).toContain("You hold this key (made in your browser)");
    expect(await delivery.first().getByRole("link").first().getAttribute("href")).toBe(`/custom-orders/${orderId}`);
    expect(bodies.some((b) => b.includes(`/api/custom-orders/${orderId}/pay`))).toBe(true);
    expect(bodies.some((b) => b.includes(`/api/transactions/${transactionId}/confirm`))).toBe(true);

    const secretHex = secret.slice(2).toLowerCase();
    const finalHex = finalKey.slice(2).toLowerCase();
    for (const b of bodies) {
      expect(b.toLowerCase()).not.toContain(secretHex);
      expect(b.toLowerCase()).not.toContain(finalHex);
    }
    expect(s.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    expect(s.warnings).toEqual([]);

    // The admin sees the address as delivered to its buyer, with no status action (activating always failed), and
    // the order's status in words in Admin > Custom orders.
    const admin = await openBrowser();
    try {
      await injectEthereumWallet(admin.page, { account: DEV_ACCOUNTS.admin.address, rpcUrl: inject("rpcUrl") });
      await admin.page.goto(`${admin.baseUrl}/`);
      await connect(admin.page, "Admin (ETH)");
      await admin.page.goto(`${admin.baseUrl}/admin`);
      await admin.page.getByLabel("Search", { exact: true }).fill(address.toLowerCase());
      const row = admin.page.getByTestId("admin-row");
      await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
      expect(await row.getByTestId("status-badge").textContent()).toBe("delivered to its buyer");
      expect(await row.getByText(`Belongs to its buyer (custom order ${orderId})`).count()).toBe(1);
      expect(await row.getByRole("button", { name: /^(Activate|Deactivate|Delete)$/ }).count()).toBe(0);
      await admin.page.getByRole("tab", { name: "Custom Orders" }).click();
      await admin.page.getByLabel("Show").selectOption("delivered");
      const queued = admin.page.getByTestId("order-queue").getByRole("row").filter({ hasText: "0xe7" });
      await expect.poll(() => queued.filter({ hasText: "Delivered" }).count(), { timeout: 20_000 }).toBeGreaterThan(0);
      expect(admin.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
      expect(admin.warnings).toEqual([]);
    } finally {
      await admin.close();
    }
  }, 300_000);
});

/** Writes to the e2e stack's D1 (the same SQLite files wrangler dev serves), for what only the clock would do. */
async function writeD1(sql: string, ...values: unknown[]): Promise<void> {
  const proxy = await getPlatformProxy<Record<string, unknown>>({
    configPath: path.join(ROOT, "wrangler.toml"),
    persist: { path: path.join(inject("persistTo"), "v3") },
    remoteBindings: false,
  });
  try {
    type Db = { prepare: (sql: string) => { bind: (...v: unknown[]) => { run: () => Promise<unknown> } } };
    await (proxy.env.DB as Db)
      .prepare(sql)
      .bind(...values)
      .run();
  } finally {
    await proxy.dispose();
  }
}

describe("following an order while it is ground", () => {
  let s: Session;
  let grinder: Child | undefined;
  /** the order this attempt placed and its buyer, cancelled at the end whatever happened */
  let placedOrder: { id: number; api: Awaited<ReturnType<typeof signInWithKey>>["api"] } | undefined;
  // A page of its own per attempt: a retry on CI starts from a fresh page (a wallet is injected once per page).
  beforeEach(async () => {
    s = await openBrowser();
  });
  // Whatever happened, the grinder stops and the order is cancelled: a 2^32 order left in the queue would be the
  // oldest waiting order for every later grinder (the custom-orders-grinder journey's --once would grind it).
  afterEach(async () => {
    grinder?.stop();
    grinder = undefined;
    if (placedOrder) {
      const { id, api } = placedOrder;
      placedOrder = undefined;
      await api["custom-orders"][":id"].cancel.$post({ param: { id: String(id) } }).catch(() => undefined);
    }
    await s?.close();
  });

  it("at 390 px: the queue and no grinder reporting, then npm start's grinder's attempts, rate, estimate and deadline; stopped, the order goes back to the queue with its attempts", async () => {
    const page = s.page;
    await page.setViewportSize({ width: 390, height: 844 });
    // 2^32 attempts: an hour or more on the one niced thread npm start grinds with, so it is still grinding here
    const buyer = await signInWithKey(DEV_ACCOUNTS.buyer.privateKey);
    const quote = await answer(buyer.api["custom-orders"].quote.$get({ query: { prefix: "0e2e0e2e" } }));
    const placed = await answer(
      buyer.api["custom-orders"].$post({
        json: {
          prefix: "0e2e0e2e",
          suffix: "",
          caseSensitive: false,
          publicKey: publicKeyOf(randomSecret()),
          price: quote.body.price,
        },
      }),
    );
    expect(placed.status).toBe(201);
    const id = placed.body.id;
    placedOrder = { id, api: buyer.api };
    // A grinder ran earlier and stopped 5 minutes ago (as other journeys' grinders did, if they ran first).
    const earlier = Date.now() - 5 * 60_000;
    await writeD1(
      "INSERT OR IGNORE INTO order_grinders (id, admin_id, label, rate, started_at, last_seen_at) SELECT 'e2e-earlier-grinder', id, 'CPU, 1 thread', 1000000, ?, ? FROM users WHERE is_admin = 1 LIMIT 1",
      earlier,
      earlier,
    );
    await writeD1("UPDATE order_grinders SET last_seen_at = ?", earlier);

    await injectEthereumWallet(page, { account: DEV_ACCOUNTS.buyer.address, rpcUrl: inject("rpcUrl") });
    await page.goto(`${s.baseUrl}/custom-orders/${id}`);
    await page.locator("main").getByRole("button", { name: "Connect Wallet" }).click();
    await page.getByRole("heading", { name: "In the queue" }).waitFor({ timeout: 20_000 });
    const silent = page.getByTestId("grinder-silent");
    expect(await silent.textContent()).toMatch(/^No grinder has reported for 5 minutes\. Your order keeps its place in the queue/);
    expect(await silent.textContent()).toContain("you pay nothing");
    expect(await page.getByTestId("grinding-queue").textContent()).toMatch(/^(Next in line|\d+ orders? ahead of yours)$/);
    expect(await page.getByTestId("grinding-attempts").textContent()).toBe("No attempts yet; about 4.3 billion are expected");
    expect(await seriousViolations(page)).toEqual([]);

    // the grinder npm start runs, against this stack; one that exits by itself fails the journey at once, with its code
    let exited: (code: number | null) => void = () => undefined;
    const exit = new Promise<never>((_, reject) => {
      exited = (code) => reject(new Error(`the grinder exited by itself with code ${code}`));
    });
    exit.catch(() => undefined); // read by the races below; never left unhandled
    grinder = startOrderGrinder({ api: s.baseUrl, onExit: (code) => exited(code) });
    const orFail = async (what: string, wait: Promise<void>) => {
      try {
        await Promise.race([wait, exit]);
      } catch (e) {
        // what the server holds for the order says which side stopped: no claim, a claim with no report, or reports with no rate
        const view = await answer(buyer.api["custom-orders"][":id"].$get({ param: { id: String(id) } }));
        throw new Error(
          `${what}: ${(e as Error).message}; the order as served: ${JSON.stringify({ status: view.body.status, progress: view.body.progress, grinders: view.body.grinders })}`,
        );
      }
    };
    await orFail("no claim", page.getByRole("heading", { name: "Searching for your address" }).waitFor({ timeout: 90_000 }));
    // its first progress report comes 10 s after the claim and the page polls every 10 s; a niced thread on a busy
    // 2-core machine may take a while to start (its worker compiles TypeScript first)
    await orFail(
      "no rate",
      page
        .getByTestId("grinding-rate")
        .filter({ hasText: /attempts a second$/ })
        .waitFor({ timeout: 120_000 }),
    );
    expect(await page.getByTestId("grinding-attempts").textContent()).toMatch(/^[\d.,]+( thousand| million)? of about 4.3 billion expected attempts \(\d+%\)$/);
    expect(await page.getByTestId("grinding-estimate").textContent()).toMatch(/^Even odds within .+, 9 in 10 within .+ at this rate/);
    expect(await page.getByTestId("grinding-deadline").textContent()).toMatch(/^Find by .* \(in 7 days\)/);
    expect(await page.getByRole("progressbar").getAttribute("aria-valuenow")).toMatch(/^\d+$/);
    expect(await silent.count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);

    // Ctrl-C on npm start: the grinder hands the order back at once; what it searched still counts
    grinder.stop();
    grinder = undefined;
    await page.getByRole("heading", { name: "In the queue" }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("grinding-attempts").textContent()).toMatch(/of about 4.3 billion expected attempts/);

    await page.getByRole("button", { name: "Cancel order" }).click();
    await page.getByRole("alertdialog", { name: "Cancel this order?" }).getByRole("button", { name: "Cancel order" }).click();
    await page.getByTestId("order-status").filter({ hasText: "Cancelled" }).waitFor({ timeout: 20_000 });
    placedOrder = undefined;
    expect(s.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  }, 360_000);
});
