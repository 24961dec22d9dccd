// /grind in a real browser and against the real stack: it grinds a short pattern with WebGPU (chromium on
// SwiftShader, its CPU Vulkan driver), the key derives the address and is never sent, the keystore opens with
// ethers; switched to Solana, a base58 pattern's key and keypair file derive its address; the page works by
// keyboard at 390 px with no serious axe findings, stops when asked, and says so where WebGPU is missing or the
// GPU fails its self-check; the checker and the custom-order page link to it; and `npm run grind -- --orders
// --gpu` fills a custom order on the GPU.
/// <reference types="@webgpu/types" />
import { spawn } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { Wallet } from "ethers";
import type { Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { afterEach, describe, expect, inject, it } from "vitest";
import { addressMatchesOrder } from "../schema/custom-order-pattern";
import { publicKeyOf, randomSecret } from "../schema/split-key";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { signInWithKey } from "./api-session";
import { seriousViolations } from "./axe";
import { openBrowser, type Page, type Session } from "./browser";
import { answer } from "./api-session";

const PHONE = { width: 390, height: 844 };
// compiling the kernel on SwiftShader takes seconds to a minute on a loaded 2-core machine (the Solana kernel
// about twice the Ethereum one's)
const COMPILE_MS = 150_000;
const SOLANA_COMPILE_MS = 300_000;

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function measure(page: Page, network = "Ethereum", timeout = COMPILE_MS) {
  await page.getByRole("button", { name: "Measure again" }).waitFor({ timeout });
  expect(await page.getByTestId("gpu-status").textContent()).toMatch(
    new RegExp(`^The software renderer \\(google swiftshader.*\\) checks about [\\d.,]+ (thousand )?${network} addresses a second in this tab`),
  );
}

/** Presses Tab until `target` has the focus (keyboard users reach every control in order). */
async function tabTo(page: Page, target: ReturnType<Page["locator"]>, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

describe("/grind: an address ground on the visitor's GPU", () => {
  it("grinds a one-character pattern; the shown key derives the address, saves as a keystore, and is never sent", async () => {
    s = await openBrowser({ webgpu: true });
    const { page } = s;
    const requests: string[] = [];
    page.on("request", (r) => requests.push(`${r.method()} ${r.url()} ${JSON.stringify(r.headers())} ${r.postData() ?? ""}`));
    await page.goto(`${s.baseUrl}/grind`);
    await page.getByRole("heading", { level: 1, name: "Grind an Address in Your Browser" }).waitFor();
    await page.getByLabel("Starts with (after 0x)").fill("b");
    expect(await page.getByTestId("grind-estimate").textContent()).toContain("measure the speed first");
    // SwiftShader is named for what it is: not the visitor's GPU.
    await expect
      .poll(() => page.getByTestId("gpu-status").textContent(), { timeout: 30_000 })
      .toMatch(/^Found a software renderer \(google swiftshader.*\), not a GPU/);
    expect(await page.getByRole("button", { name: "Start grinding" }).isDisabled()).toBe(true);

    await page.getByRole("button", { name: "Measure speed" }).click();
    await measure(page);
    // the expected time, from the measured rate, before starting
    expect(await page.getByTestId("grind-estimate").textContent()).toMatch(/Expected time(under a second|[\d.]+ seconds?)/);

    const sentBefore = requests.length;
    await page.getByRole("button", { name: "Start grinding" }).click();
    const found = page.getByTestId("found-address");
    await found.waitFor({ timeout: 60_000 });
    const address = (await found.textContent())!;
    expect(address).toMatch(/^0x[bB][0-9a-fA-F]{39}$/);
    expect(await page.getByTestId("grind-status").textContent()).toMatch(/^Found after [\d.]+ (thousand )?attempts/);
    expect(await page.getByTestId("found-private-key").textContent()).toBe("•".repeat(64));
    await page.getByRole("button", { name: "Show" }).click();
    const key = (await page.getByTestId("found-private-key").textContent())!;
    expect(privateKeyToAddress(key as Hex)).toBe(address);

    await page.getByLabel("Password", { exact: true }).fill("grind e2e password");
    await page.getByLabel("Repeat password").fill("grind e2e password");
    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 60_000 }),
      page.getByRole("button", { name: "Download keystore file" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^UTC--.*--${address.slice(2).toLowerCase()}\\.json$`));
    const wallet = await Wallet.fromEncryptedJson(fs.readFileSync((await download.path())!, "utf8"), "grind e2e password");
    expect({ address: wallet.address, key: wallet.privateKey }).toEqual({ address, key });

    // Nothing went out while grinding or since (the keystore form's code was fetched: code, not data), and no
    // request ever carried the key.
    const code = new RegExp(`^GET ${s.baseUrl}/assets/[\\w.-]+\\.js `);
    expect(requests.slice(sentBefore).filter((r) => !/^GET (blob|data):/.test(r) && !code.test(r))).toEqual([]);
    for (const r of requests) expect(r.toLowerCase()).not.toContain(key.slice(2).toLowerCase());
    expect(s.errors).toEqual([]);
  }, 240_000);

  it("switches to Solana: grinds a base58 pattern; the shown key and the keypair file derive the address, and are never sent", async () => {
    s = await openBrowser({ webgpu: true });
    const { page } = s;
    const requests: string[] = [];
    page.on("request", (r) => requests.push(`${r.method()} ${r.url()} ${JSON.stringify(r.headers())} ${r.postData() ?? ""}`));
    await page.goto(`${s.baseUrl}/grind`);
    await page.getByRole("heading", { level: 1, name: "Grind an Address in Your Browser" }).waitFor();
    await page.locator("label", { hasText: /^Solana$/ }).click();
    expect(await page.getByRole("radio", { name: "Solana" }).isChecked()).toBe(true);
    // base58 rules: no 0, and exact case has no 'l'
    const prefix = page.getByLabel("Starts with", { exact: true });
    await prefix.fill("0");
    expect(await page.getByRole("alert").first().textContent()).toMatch(/outside the base58 alphabet/);
    // '2' starts about one 44-character address in 18
    await prefix.fill("2");
    await page.getByLabel(/Match letter case exactly/).check();
    expect(await page.getByTestId("grind-estimate").getByTestId("power-of-two").getAttribute("aria-label")).toMatch(/^2 to the power 4\.\d$/);
    expect(await page.getByTestId("grind-estimate").textContent()).toMatch(/Difficulty24\.\d.*measure the speed first/);

    // the comb's table is built in a Web Worker, not on the page's thread
    const workers: string[] = [];
    page.on("worker", (w) => workers.push(w.url()));
    await page.getByRole("button", { name: "Measure speed" }).click();
    await measure(page, "Solana", SOLANA_COMPILE_MS);
    expect(workers.filter((url) => url.includes("comb-table-worker"))).toHaveLength(1);
    const sentBefore = requests.length;
    await page.getByRole("button", { name: "Start grinding" }).click();
    const found = page.getByTestId("found-address");
    await found.waitFor({ timeout: 120_000 });
    const address = (await found.textContent())!;
    expect(address).toMatch(/^2[1-9A-HJ-NP-Za-km-z]{42,43}$/);
    await page.getByRole("button", { name: "Show" }).click();
    const secret = base58.decode((await page.getByTestId("found-private-key").textContent())!);
    expect(secret).toHaveLength(64);
    expect(base58.encode(ed25519.getPublicKey(secret.subarray(0, 32)))).toBe(address);

    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 60_000 }),
      page.getByRole("button", { name: "Download keypair file" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${address}.json`);
    const keypair = Uint8Array.from(JSON.parse(fs.readFileSync((await download.path())!, "utf8")) as number[]);
    expect(keypair).toEqual(secret);

    // nothing went out while grinding or since but code (the key files' module), and no request carried the key
    const code = new RegExp(`^GET ${s.baseUrl}/assets/[\\w.-]+\\.js `);
    expect(requests.slice(sentBefore).filter((r) => !/^GET (blob|data):/.test(r) && !code.test(r))).toEqual([]);
    const seedText = base58.encode(secret.subarray(0, 32));
    for (const r of requests) expect(r).not.toContain(seedText);
    expect(s.errors).toEqual([]);
  }, 480_000);

  it("works by keyboard on a 390 px phone: measures, shows progress, stops, then finds; no serious axe findings", async () => {
    s = await openBrowser({ webgpu: true });
    const { page } = s;
    await page.setViewportSize(PHONE);
    await page.goto(`${s.baseUrl}/grind`);
    const measureButton = page.getByRole("button", { name: "Measure speed" });
    await measureButton.waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const prefix = page.getByLabel("Starts with (after 0x)");
    await tabTo(page, prefix);
    await page.keyboard.type("ffffffff");
    await tabTo(page, measureButton);
    await page.keyboard.press("Enter");
    await measure(page);
    expect(await page.getByTestId("grind-estimate").textContent()).toMatch(/Expected time[\d.]+ (hours|days|minutes)/);

    // A pattern that takes hours here: it shows progress and stops on request.
    await tabTo(page, page.getByRole("button", { name: "Start grinding" }));
    await page.keyboard.press("Enter");
    const attempts = page.getByTestId("progress-attempts");
    await expect.poll(() => attempts.textContent(), { timeout: 30_000 }).toMatch(/thousand|million/);
    const progress = (await page.getByTestId("grind-progress").textContent())!;
    expect(progress).toMatch(/Speed[\d.]+ (thousand|million)\/s/);
    expect(progress).toMatch(/Elapsed.+Expected time left[\d.]+ (hours|days|minutes)/);
    const seen = await attempts.textContent();
    await expect.poll(() => attempts.textContent(), { timeout: 30_000 }).not.toBe(seen);
    expect(await page.getByTestId("grind-status").textContent()).toContain("Grinding on the software renderer");
    expect(await seriousViolations(page)).toEqual([]);
    await tabTo(page, page.getByRole("button", { name: "Stop" }));
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.getByTestId("grind-status").textContent(), { timeout: 30_000 })
      .toMatch(/^Stopped after .+ Nothing was found, and nothing was kept\.$/);
    const stoppedAt = await attempts.textContent();
    await page.waitForTimeout(1000);
    expect(await attempts.textContent()).toBe(stoppedAt);

    // Then a short one, still by keyboard.
    await tabTo(page, prefix);
    await page.keyboard.press("Control+A");
    await page.keyboard.type("c");
    await tabTo(page, page.getByRole("button", { name: "Start grinding" }));
    await page.keyboard.press("Enter");
    await page.getByTestId("found-address").waitFor({ timeout: 60_000 });
    expect(await page.getByTestId("found-address").textContent()).toMatch(/^0x[cC]/);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
    expect(s.errors).toEqual([]);
  }, 300_000);

  it("says plainly when the browser has WebGPU but no adapter, and offers the other ways", async () => {
    s = await openBrowser(); // chromium without the WebGPU flags: navigator.gpu, but no adapter
    await s.page.goto(`${s.baseUrl}/grind`);
    const notice = s.page.getByTestId("webgpu-unavailable");
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/WebGPU is not available here.*found no graphics adapter/);
    expect(await notice.getByRole("link", { name: "order a custom address" }).getAttribute("href")).toBe("/custom-order");
    expect(await s.page.getByRole("button", { name: "Measure speed" }).isDisabled()).toBe(true);
    expect(await s.page.getByRole("button", { name: "Start grinding" }).isDisabled()).toBe(true);
  });

  it("does not grind on a GPU that fails its self-check, and says why", async () => {
    s = await openBrowser({ webgpu: true });
    // a faulty GPU, from outside the page's code: every large buffer read back (only the self-check's traced
    // addresses, about 127 kB on SwiftShader; hit buffers hold under 10 kB) comes back with one bit flipped
    await s.page.addInitScript(() => {
      const read = GPUBuffer.prototype.getMappedRange;
      GPUBuffer.prototype.getMappedRange = function (...args: Parameters<GPUBuffer["getMappedRange"]>) {
        const range = read.apply(this, args);
        if (range.byteLength > 50_000) new Uint8Array(range)[100] ^= 1;
        return range;
      };
    });
    await s.page.goto(`${s.baseUrl}/grind`);
    await s.page.getByLabel("Starts with (after 0x)").fill("b");
    await s.page.getByRole("button", { name: "Measure speed" }).click();
    const notice = s.page.getByTestId("webgpu-unavailable");
    await notice.waitFor({ timeout: COMPILE_MS });
    // byte 100 is in invocation 0's sixth candidate (20 bytes each): point -HALF + 0, variant 5
    expect(await notice.textContent()).toMatch(
      /(Your GPU|The software renderer) \(.*\) failed its self-check.*will not grind on it \(nothing was ground or kept\): known answer: invocation 0, key 0x[0-9a-f]+ - 16, variant 5: the GPU computed address 0x[0-9a-f]{40}, @noble\/curves 0x[0-9a-f]{40}/,
    );
    expect(await notice.getByRole("link", { name: "order a custom address" }).getAttribute("href")).toBe("/custom-order");
    expect(await s.page.getByRole("button", { name: "Measure speed" }).isDisabled()).toBe(true);
    expect(await s.page.getByRole("button", { name: "Start grinding" }).isDisabled()).toBe(true);
  }, 300_000);

  it("says plainly when the browser has no WebGPU at all", async () => {
    s = await openBrowser({ webgpu: true });
    await s.page.addInitScript(() => Object.defineProperty(Navigator.prototype, "gpu", { get: () => undefined, configurable: true }));
    await s.page.goto(`${s.baseUrl}/grind`);
    const notice = s.page.getByTestId("webgpu-unavailable");
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/This browser does not offer WebGPU/);
    expect(await s.page.getByRole("button", { name: "Measure speed" }).isDisabled()).toBe(true);
  });

  it("the checker and the custom-order page link to it", async () => {
    s = await openBrowser();
    const { page } = s;
    await page.goto(`${s.baseUrl}/`);
    await page.getByRole("link", { name: "grind a short one on your own GPU" }).click();
    await page.waitForURL(`${s.baseUrl}/grind`);
    await page.getByRole("heading", { level: 1, name: "Grind an Address in Your Browser" }).waitFor();
    await page.goto(`${s.baseUrl}/custom-order`);
    expect(await page.getByRole("link", { name: "Grind it yourself in your browser" }).getAttribute("href")).toBe("/grind");
  });
});

/**
 * Runs the grinder CLI without blocking this process (a blocked event loop misses the server closing idle
 * keep-alive sockets, and the next fetch fails on one).
 */
function grindCli(args: string[], timeoutMs: number): Promise<{ status: number | null; stderr: string }> {
  const cli = fileURLToPath(new URL("../scripts/grind/cli.ts", import.meta.url));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", cli, ...args], {
      env: { ...process.env, GRINDER_ADMIN_KEY: "" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stderr });
    });
  });
}

describe("npm run grind -- --orders --gpu", () => {
  it(
    "fills a waiting custom order on the GPU: the server accepts the offset and the address matches",
    async () => {
      const baseUrl = inject("baseUrl");
      const buyer = await signInWithKey(DEV_ACCOUNTS.buyer.privateKey);
      const pattern = { prefix: "c", suffix: "7", caseSensitive: false };
      const quote = await answer(buyer.api["custom-orders"].quote.$get({ query: { prefix: "c", suffix: "7" } }));
      expect(quote.status).toBe(200);
      const placed = await answer(
        buyer.api["custom-orders"].$post({
          json: {
            ...pattern,
            publicKey: publicKeyOf(randomSecret()),
            price: quote.body.price,
          },
        }),
      );
      expect(placed.status).toBe(201);

      const run = await grindCli(["--orders", "--once", "--gpu", "--api", baseUrl, "--quiet"], COMPILE_MS + 60_000);
      expect(run.stderr).toMatch(new RegExp(`order ${placed.body.id}: .*GPU google swiftshader`));
      expect(run.stderr).toContain(`order ${placed.body.id}: found`);
      expect(run.status).toBe(0);

      const after = await answer(buyer.api["custom-orders"][":id"].$get({ param: { id: String(placed.body.id) } }));
      expect(after.body.status).toBe("found");
      expect(addressMatchesOrder(pattern, after.body.address!)).toBe(true);
    },
    COMPILE_MS + 90_000,
  );
});
