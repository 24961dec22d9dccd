// The custom-order journey in chromium: the buyer (anvil account 1, injected wallet) orders a short pattern on
// /custom-order, saves the secret as an encrypted keystore, places the order; the grinder fills it; the order
// page shows the address. Every request body the browser sends is recorded: the secret appears in none.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { publicKeyOf } from "../schema/split-key";
import { DEV_ACCOUNTS } from "../scripts/dev-accounts";
import { decryptKeystore } from "../web/src/routes/-purchase/keystore";
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

  it("orders a pattern with a saved secret; the grinder fills it; the secret is never sent", async () => {
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
    await page.getByRole("alert").filter({ hasText: /Too hard to order/ }).waitFor();
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

    const secretHex = secret.slice(2).toLowerCase();
    for (const b of bodies) expect(b.toLowerCase()).not.toContain(secretHex);
    expect(s.errors).toEqual([]);
  }, 180_000);
});
