// Admin > Analytics and Admin > Settings in a real browser, with data from a real purchase: a buyer
// pays a reservation in full on the e2e anvil, the purchase completes and the buyer reveals the key; the admin
// sees the sale in Analytics (chart and table), exports the CSV, and changes a fee setting, which shows in the
// history and the audit trail. Admin > Health lists each chain's node by host as the cron probed it, and a grinder
// that reported in by its name. At 390 px the tabs do not scroll sideways.
import fs from "node:fs";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { grinderName } from "../schema/health";
import { openBrowser, type Session } from "./browser";
import type { Hex } from "viem";
import { tickScheduled } from "../scripts/stack";
import { answer, signInWithKey } from "./api-session";
import { seriousViolations } from "./axe";
import { layoutProblems } from "./layout";
import { realPurchase } from "./real-purchase";
import type { Locator } from "playwright-core";
import { connect, recordToasts, toast } from "./purchase-journey";
import { injectEthereumWallet } from "./wallets/eip1193";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function adminTab(tab: "Analytics" | "Settings" | "Health") {
  s ??= await openBrowser();
  const { page, baseUrl } = s;
  await injectEthereumWallet(page, { account: DEV_ACCOUNTS.admin.address, rpcUrl: inject("rpcUrl") });
  await recordToasts(page);
  await page.goto(`${baseUrl}/`);
  await connect(page, "Admin (ETH)");
  await page.goto(`${baseUrl}/admin`);
  await page.getByRole("tab", { name: tab }).click();
  return page;
}

/** The text of the elements an input's aria-describedby names, in order: what a screen reader reads after its label. */
const descriptionOf = (input: Locator) =>
  input.evaluate((el) =>
    (el.getAttribute("aria-describedby") ?? "")
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" "),
  );

describe("Admin > Analytics and Settings", () => {
  it("shows a real sale in the chart and its table, and exports what is shown as CSV", async () => {
    await realPurchase("0.021");
    const page = await adminTab("Analytics");
    const today = new Date().toISOString().slice(0, 10);
    // The page words a UTC day as date-format.ts does: the browser's locale (en-US here), Intl's long date style.
    const dayWords = (day: string) => new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));
    await page.getByRole("img", { name: /^Bar chart: \d+ sales/ }).waitFor({ timeout: 20_000 });
    const salesTable = page.getByRole("region", { name: "Sales per day and network" });
    await salesTable
      .getByRole("row")
      .filter({ hasText: dayWords(today) })
      .filter({ hasText: "ethereum" })
      .first()
      .waitFor();
    // One slot per day of the period asked, the sale's day as one bar in its own (the last) slot; the axis spans the
    // period (sales-chart.ts). The chart is 600 wide in its own units.
    const chartShows = async (days: number) => {
      await page.getByRole("heading", { name: `Sales per day (${days} days)` }).waitFor();
      const start = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
      await expect.poll(() => page.getByTestId("sales-chart-axis").textContent()).toMatch(new RegExp(`^${dayWords(start)}.*${dayWords(today)}$`));
      const bar = page.getByTestId("sales-chart").locator(`rect[data-day="${today}"]`).first();
      const slot = 600 / (days + 1);
      expect(Number(await bar.getAttribute("width"))).toBeCloseTo(slot * 0.7, 5);
      expect(Number(await bar.getAttribute("x"))).toBeCloseTo(days * slot + slot * 0.15, 5);
    };
    await chartShows(30);
    expect(Number(await page.getByTestId("depth-to-release").locator("dd").first().textContent())).toBeGreaterThanOrEqual(1);
    await page.locator("label").filter({ hasText: "7 days" }).click();
    expect(await page.getByRole("radio", { name: "7 days" }).isChecked()).toBe(true);
    await chartShows(7);

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^vanity-analytics-7d-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await download.path())!, "utf8");
    expect(csv.split("\n")[0]).toBe("section,item,network,value,unit");
    expect(csv).toMatch(new RegExp(`^sales,${today},ethereum,\\d+,sales$`, "m"));
    expect(csv).toMatch(/^depth to release,releases,,[1-9]\d*,releases$/m);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The chart's labels keep the page's text size at 390 px (they were 6 px tall, drawn inside the scaled SVG).
    expect(await layoutProblems(page)).toEqual([]);
  }, 180_000);

  it("changes a fee setting: it is in force at once, in the history and in the audit trail; a bad value is refused", async () => {
    const page = await adminTab("Settings");
    const form = page.getByRole("form", { name: "Change the fee configuration" });
    await form.getByLabel("Network").selectOption("solana");
    // A refused value is named at its field, in words, and the focus goes there; nothing reads as code above Save.
    const commission = form.getByLabel("Commission fee %");
    await commission.fill("1.2345678");
    await form.getByLabel("Gas multiplier").fill("-1");
    await form.getByRole("button", { name: "Save fee configuration" }).click();
    await expect.poll(() => commission.getAttribute("aria-invalid")).toBe("true");
    expect(await descriptionOf(commission)).toBe("Commission fee: use at most 4 decimals 0 to 50, at most 4 decimals");
    expect(await descriptionOf(form.getByLabel("Gas multiplier"))).toBe("Gas multiplier: enter a multiplier such as 1.2 1 to 5, at most 2 decimals");
    expect(await form.getByLabel("Exchange fee %").getAttribute("aria-invalid")).toBeNull();
    await expect.poll(() => commission.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await form.getByRole("alert").count()).toBe(0);
    expect(await form.textContent()).not.toMatch(/commissionFeePercentage|gasFeeMultiplier/);
    await form.getByLabel("Gas multiplier").fill("1.2");
    expect(await form.getByLabel("Gas multiplier").getAttribute("aria-invalid")).toBeNull();

    await form.getByLabel("Commission fee %").fill("1.25");
    await form.getByRole("button", { name: "Save fee configuration" }).click();
    await toast(page, "Fees for Solana changed");
    const history = page.getByRole("region", { name: "Fee configurations, newest first per network" });
    await history.getByRole("row").filter({ hasText: "Solana" }).filter({ hasText: "In force" }).filter({ hasText: "1.25" }).waitFor();
    const audit = page.getByRole("region", { name: "Every settings change, newest first" });
    await audit
      .getByRole("row")
      .filter({ hasText: DEV_ACCOUNTS.admin.address.toLowerCase() })
      .filter({ hasText: "commission fee percentage 1.25" })
      .first()
      .waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }, 180_000);

  it("Health lists the last cron run's tasks, each chain's node by host as the cron last probed it, the migrations and a grinder by name, in words, and fits 390 px", async () => {
    // A cron run probes every node: tick it and wait for its record (written at its end).
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const lastRun = async () => (await answer(admin.api.health.$get())).body.operations?.lastCronRun?.startedAt ?? null;
    const before = await lastRun();
    expect(await tickScheduled(inject("baseUrl"))).toEqual({ ok: true, body: "Ran scheduled event" });
    await expect.poll(lastRun, { timeout: 60_000, interval: 500 }).not.toBe(before);
    // A grinder reports in (its poll for work); an order it is handed goes straight back to the queue.
    const grinder = crypto.randomUUID();
    const claim = await answer(admin.api["custom-orders"].admin.claim.$post({ json: { grinder, label: "CPU, 1 thread" } }));
    expect(claim.status).toBe(200);
    const handed = claim.body.order;
    if (handed) await answer(admin.api["custom-orders"].admin[":id"].release.$post({ param: { id: String(handed.id) }, json: { grinder } }));
    const page = await adminTab("Health");
    for (const [network, name] of [
      ["ethereum", "Ethereum"],
      ["solana", "Solana"],
    ] as const) {
      const nodes = page.getByRole("list", { name: `${name} nodes` }).getByRole("listitem");
      await expect.poll(() => nodes.first().getAttribute("data-state"), { timeout: 30_000, interval: 500 }).toBe("ok");
      expect(await nodes.count()).toBe(1);
      expect(await nodes.first().textContent()).toMatch(/^127\.0\.0\.1:\d+Answeringhead (block|slot) \d+$/);
      expect(await page.getByTestId(`health-${network}`).textContent()).toContain("One node decides alone");
    }
    // The run just ticked, each task in words; every migration of this build applied.
    const run = page.getByRole("list", { name: "Tasks of the last run" });
    expect(await run.getByRole("listitem").first().textContent()).toBe("Recording the runDone");
    expect(await page.getByTestId("health-cron").textContent()).toMatch(/^Started .+; took /);
    expect(await page.getByTestId("health-migrations").textContent()).toContain("Every migration this version needs is applied.");
    // The grinder by its name in words, what it runs on and what it holds; its id only beside the name.
    const named = page.getByTestId("health-grinder").filter({ hasText: grinderName(grinder) });
    await named.waitFor({ timeout: 20_000 });
    expect(await named.textContent()).toContain(`${grinderName(grinder)} on CPU, 1 thread`);
    expect(await named.textContent()).toContain(`(${grinder.slice(0, 8)})`);
    if (!handed) expect(await named.textContent()).toContain("Holds no order.");
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await layoutProblems(page)).toEqual([]);
    expect(s!.warnings).toEqual([]);
  }, 180_000);
});
