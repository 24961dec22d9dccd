// Admin > Supply in chromium (docs/supply.md): the admin (anvil account 0, injected wallet) is refused a target the
// grinders could not aim at, adds two by keyboard (a hard one nobody can fill here, and an easy one set two above its
// stock), and `npm run grind -- --supply --once`, run as a child in an empty folder, fills the easy one (sealed:
// nothing lands on its disk), then works on the hard one; the tab shows the stock, the rate and the time to fill
// as they change. Paused, the hard one sends the grinder away and it exits; at 390 px the tab fits and axe finds
// nothing serious; both targets are deleted. Other journeys run on this stack after this one (npm start's order
// grinder stocks any active target), so every target, claim and listing made here is removed, even on a failure.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Hex } from "viem";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { answer, type ApiSession, signInWithKey } from "./api-session";
import { seriousViolations } from "./axe";
import { openBrowser, type Session } from "./browser";
import { layoutProblems } from "./layout";
import { connect, recordToasts, toast } from "./purchase-journey";
import { injectEthereumWallet } from "./wallets/eip1193";

const CLI = fileURLToPath(new URL("../scripts/grind/cli.ts", import.meta.url));
/** tsx by its file URL: the grinder runs in an empty folder, where a bare "tsx" would not resolve. */
const TSX = new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url).href;

/**
 * The two shapes this journey keeps. Easy: three trailing zeros, about 4,096 keys a hit, a second or so on one
 * thread; the seed lists some already, so it is set two above its stock. Hard: ten leading zeros, about 2^40 keys,
 * which no grinder here finds; the seed has none, so it starts at zero stock and shows the grinder's rate.
 */
const EASY = { network: "ethereum", category: "trailing-zeros", patternLength: 3, price: "0.0031" } as const;
const HARD = { network: "ethereum", category: "leading-zeros", patternLength: 10, price: "0.75" } as const;
const EASY_WORDS = "Ethereum, 3 or more trailing zeros (…000)";
const HARD_WORDS = "Ethereum, 10 or more leading zeros (0000000000…)";

type Shape = { network: string; category: string; patternLength: number };
const sameShape = (a: Shape, b: Shape) => a.network === b.network && a.category === b.category && a.patternLength === b.patternLength;

async function targets(admin: ApiSession) {
  const res = await answer(admin.api.supply.targets.$get());
  expect(res.status).toBe(200);
  return res.body.targets;
}

/** Deletes this journey's targets (and with them their claims), as a failed run may have left them. */
async function deleteOurTargets(admin: ApiSession) {
  for (const t of await targets(admin)) {
    if (!sameShape(t, EASY) && !sameShape(t, HARD)) continue;
    const res = await fetch(`${inject("baseUrl")}/api/supply/targets/${t.id}`, { method: "DELETE", headers: { cookie: admin.cookie } });
    expect(res.status).toBe(200);
  }
}

describe("Admin > Supply", () => {
  let s: Session | undefined;
  let admin: ApiSession;
  let grinder: ChildProcess | undefined;
  let grinderLog = "";
  let work = "";

  // Around each attempt (CI retries a failed journey once on the same stack), so each starts and ends clean.
  beforeEach(async () => {
    grinderLog = "";
    work = mkdtempSync(path.join(tmpdir(), "grind-supply-"));
    admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    await deleteOurTargets(admin);
  });
  afterEach(async () => {
    grinder?.kill("SIGKILL");
    grinder = undefined;
    await s?.close();
    s = undefined;
    await deleteOurTargets(admin);
    // The listings the grinder made go too: the stack's listings stay as the seed and the other journeys made them.
    const ids = [...grinderLog.matchAll(/as listing #(\d+)/g)].map((m) => Number(m[1]));
    if (ids.length > 0) expect((await answer(admin.api.admin.addresses["bulk-delete"].$delete({ json: { listingIds: ids } }))).status).toBe(200);
    rmSync(work, { recursive: true, force: true });
  });

  it("refuses bad input, adds targets by keyboard, shows a grinder filling one and working on another, pauses and deletes them; fits 390 px", async () => {
    s = await openBrowser();
    const { page, baseUrl } = s;
    await injectEthereumWallet(page, { account: DEV_ACCOUNTS.admin.address, rpcUrl: inject("rpcUrl") });
    await recordToasts(page);
    await page.goto(`${baseUrl}/`);
    await connect(page, "Admin (ETH)");
    await page.goto(`${baseUrl}/admin`);
    // The tab by keyboard: the arrow keys move between the admin tabs.
    await page.getByRole("tab", { name: "Custom Orders" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.getByRole("tab", { name: "Supply" }).getAttribute("aria-selected")).toBe("true");
    await page.getByRole("heading", { name: "Supply", exact: true }).waitFor();
    const form = page.getByRole("form", { name: "Add a supply target" });
    const length = form.getByLabel(/^Characters/);
    const price = form.getByLabel(/^Price/);
    const wanted = form.getByLabel(/^Keep in stock/);
    const before = (await targets(admin)).length;

    // Bad input: a length the grinders cannot aim at, then no price. Each problem is said under its field, which
    // takes the focus and is described by it, and nothing is created.
    await length.fill("2");
    await price.fill("0.01");
    await wanted.fill("2");
    await wanted.press("Enter");
    const lengthProblem = form.getByTestId("error-patternLength");
    await lengthProblem.getByText("Ethereum leading zeros take 3 to 12 characters", { exact: true }).waitFor();
    expect(await length.getAttribute("aria-invalid")).toBe("true");
    expect(await length.getAttribute("aria-describedby")).toBe(await lengthProblem.getAttribute("id"));
    await expect.poll(() => length.evaluate((el) => el === document.activeElement)).toBe(true);
    await length.fill("3");
    await price.fill("");
    await price.press("Enter");
    await form.getByTestId("error-price").getByText("Price is required", { exact: true }).waitFor();
    expect(await price.getAttribute("aria-invalid")).toBe("true");
    expect(await lengthProblem.count()).toBe(0);
    expect((await targets(admin)).length).toBe(before);

    // The hard target, typed and sent with Enter: zero in stock, nobody working on it.
    await length.fill(String(HARD.patternLength));
    await price.fill(HARD.price);
    await wanted.fill("1");
    await wanted.press("Enter");
    await toast(page, `Target added: ${HARD_WORDS}`);
    // By CSS, not by role: while a confirmation is open the page behind it is hidden from the accessibility tree.
    const hard = page.getByTestId("supply-targets").locator("li").filter({ hasText: HARD_WORDS });
    await hard.getByText("0 of 1 in stock").waitFor();
    expect(await hard.textContent()).toContain("No grinder is working on it");
    // The same shape again is refused above the button (it names no one field), and adds nothing.
    await wanted.press("Enter");
    await form
      .getByRole("alert")
      .getByText(/already keeps this network, category and length; edit it instead/)
      .waitFor();
    expect((await targets(admin)).length).toBe(before + 1);

    // The easy one: the seed's listings already fill a count of 1; set two above the stock with the change form.
    await form.getByLabel("Pattern").selectOption(EASY.category);
    await length.fill(String(EASY.patternLength));
    await price.fill(EASY.price);
    await wanted.fill("1");
    await wanted.press("Enter");
    await toast(page, `Target added: ${EASY_WORDS}`);
    const easy = page.getByTestId("supply-targets").locator("li").filter({ hasText: EASY_WORDS });
    await easy.getByText("Full").waitFor();
    const stock = (await targets(admin)).find((t) => sameShape(t, EASY))!.stock;
    expect(stock).toBeGreaterThanOrEqual(1);
    await easy.getByRole("button", { name: "Change price or count" }).click();
    const edit = easy.getByRole("form", { name: "Change the target" });
    const count = edit.getByLabel(/^Keep in stock/);
    await count.fill("0");
    await count.press("Enter");
    await edit.getByTestId("error-wanted").getByText("Enter a whole number from 1 to 500", { exact: true }).waitFor();
    expect(await count.getAttribute("aria-invalid")).toBe("true");
    await count.fill(String(stock + 2));
    expect(await edit.getByTestId("error-wanted").count()).toBe(0);
    await count.press("Enter");
    await toast(page, "Target changed");
    await easy.getByText(`${stock} of ${stock + 2} in stock`).waitFor();
    expect(await easy.textContent()).toContain("No grinder is working on it");

    // The grinder, in an empty folder: the easy target lacks most, so it goes first.
    grinder = spawn(process.execPath, ["--import", TSX, CLI, "--supply", "--once", "--api", baseUrl, "--threads", "1", "--quiet"], {
      cwd: work,
      env: { ...process.env, GRINDER_ADMIN_KEY: "" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    grinder.stderr!.on("data", (chunk: Buffer) => {
      grinderLog += chunk;
    });
    const exited = new Promise<number | null>((resolve) => grinder!.on("close", resolve));

    // The tab refreshes by itself: the two listings count as stock.
    await easy.getByText(`${stock + 2} of ${stock + 2} in stock`).waitFor({ timeout: 60_000 });
    expect(await easy.textContent()).toContain("Full");
    const listedLines = () => [...grinderLog.matchAll(/listed (0x[0-9a-fA-F]{40}) as listing #(\d+) at ([\d.]+) ETH/g)];
    // The grinder logs a listing once the server's answer is back, which may be after the page's refresh.
    await expect.poll(() => listedLines().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    const listed = listedLines();
    expect(listed, grinderLog).toHaveLength(2);
    for (const [, address, id, at] of listed) {
      expect(address.toLowerCase().endsWith("000")).toBe(true);
      expect(at).toBe(EASY.price);
      const res = await fetch(`${baseUrl}/api/addresses/${id}`);
      expect(await res.json()).toMatchObject({ address, network: "ethereum", status: "active", price: EASY.price });
    }

    // Then the hard one: its first progress report (10 s after the claim) gives a rate and a time to fill.
    await expect.poll(async () => (await targets(admin)).find((t) => sameShape(t, HARD))?.rate ?? 0, { timeout: 30_000, interval: 1000 }).toBeGreaterThan(0);
    await page.reload();
    await hard.getByText(/keys a second from 1 grinder/).waitFor({ timeout: 20_000 });
    expect(await hard.textContent()).toMatch(/Full in about .+ at the current rate/);
    expect(await hard.textContent()).toContain("0 of 1 in stock");

    // Paused by keyboard (Tab from the change button, then Enter): the grinder is sent away at its next report and,
    // with nothing left to stock, exits.
    await hard.getByRole("button", { name: "Change price or count" }).focus();
    await page.keyboard.press("Tab");
    expect(await hard.getByRole("button", { name: "Pause" }).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    await toast(page, "Target paused");
    await hard.getByText("Paused: no grinder takes it").waitFor();
    await hard.getByRole("button", { name: "Resume" }).waitFor();
    expect(await Promise.race([exited, new Promise((r) => setTimeout(() => r("still running"), 30_000))]), grinderLog).toBe(0);
    grinder = undefined;
    expect(grinderLog).toContain("done: no target wants work now");
    expect(readdirSync(work)).toEqual([]);

    // At 390 px the tab fits and reads well.
    await page.setViewportSize({ width: 390, height: 844 });
    await hard.getByText("Paused: no grinder takes it").waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    // Deleted, the easy one by keyboard through its confirmation.
    await easy.getByRole("button", { name: "Delete" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog", { name: "Delete this target?" });
    await dialog.getByRole("button", { name: "Delete target" }).focus();
    await page.keyboard.press("Enter");
    await toast(page, "Target deleted");
    await easy.waitFor({ state: "detached" });
    await dialog.waitFor({ state: "detached" });
    await hard.getByRole("button", { name: "Delete" }).click();
    await dialog.getByRole("button", { name: "Delete target" }).click();
    await hard.waitFor({ state: "detached" });
    await dialog.waitFor({ state: "detached" });
    expect((await targets(admin)).filter((t) => sameShape(t, EASY) || sameShape(t, HARD))).toEqual([]);
    expect(s.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  }, 180_000);
});
