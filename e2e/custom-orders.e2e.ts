// The custom-order journey in chromium: the buyer (anvil account 1, injected wallet) orders a short pattern on
// /custom-order, saves the secret as an encrypted keystore, places the order; the grinder fills it; the order
// page shows the address; the buyer pays from the wallet on the purchase page, the payment settles, and the
// order page makes the key from the downloaded file and its password: it derives the ordered address. Every
// request body and URL the browser sends is recorded: neither the secret nor the final key appears in any.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { privateKeyToAddress } from "viem/accounts";
import { publicKeyOf } from "../schema/split-key";
import { DEV_ACCOUNTS } from "../scripts/dev-accounts";
import { decryptKeystore } from "../web/src/payments/keystore";
import { openBrowser, type Session } from "./browser";
import { injectEthereumWallet } from "./wallets/eip1193";

const CLI = fileURLToPath(new URL("../scripts/grind/cli.ts", import.meta.url));
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
    await page.getByLabel("Starts with (after 0x)").fill("abcdef1234");
    await page
      .getByRole("alert")
      .filter({ hasText: /Too hard to order/ })
      .waitFor();
    await page.getByLabel("Starts with (after 0x)").fill("e7");
    await page.getByTestId("order-price").waitFor();
    expect(await page.getByTestId("order-quote").textContent()).toContain("2^8");
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
    await page.getByRole("button", { name: "Show" }).click();
    const finalKey = (await page.getByTestId("final-key-value").textContent())!.trim();
    expect(finalKey).toMatch(/^0x[0-9a-f]{64}$/);
    expect(privateKeyToAddress(finalKey as `0x${string}`)).toBe(address);

    // "My Orders" on the profile says delivered; the purchase is the order's payment.
    await page.goto(`${s.baseUrl}/profile`);
    await page.getByTestId("my-orders").getByRole("link").filter({ hasText: address }).getByText("Delivered").waitFor({ timeout: 20_000 });
    expect(bodies.some((b) => b.includes(`/api/custom-orders/${orderId}/pay`))).toBe(true);
    expect(bodies.some((b) => b.includes(`/api/transactions/${transactionId}/confirm`))).toBe(true);

    const secretHex = secret.slice(2).toLowerCase();
    const finalHex = finalKey.slice(2).toLowerCase();
    for (const b of bodies) {
      expect(b.toLowerCase()).not.toContain(secretHex);
      expect(b.toLowerCase()).not.toContain(finalHex);
    }
    expect(s.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  }, 300_000);
});
