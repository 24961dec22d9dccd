// Wallet journeys in a real browser: an injected EIP-1193 provider backed by anvil's unlocked dev accounts,
// and an injected Wallet Standard Solana wallet with a test Ed25519 key. Each connects, signs in, shows the
// right button label, survives a reload and disconnects.
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { openBrowser, type Page, type Session } from "./browser";
import { injectEthereumWallet } from "./wallets/eip1193";
import { injectSolanaWallet, SOLANA_ADMIN_SEED, solanaTestKey } from "./wallets/wallet-standard";

const short = (a: string) => `${a.slice(0, 8)}...${a.slice(-6)}`;
const WALLET_KEYS = ["walletAddress", "walletNetwork", "walletType", "isWalletConnected"];

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const walletButton = (page: Page) => page.getByRole("banner").getByTestId("wallet-button");
const stored = (page: Page) => page.evaluate((keys) => Object.fromEntries(keys.map((k) => [k, localStorage.getItem(k)])), WALLET_KEYS);
const session = (page: Page) => page.evaluate(async () => (await fetch("/api/auth/session", { credentials: "include" })).json());

async function expectLabel(page: Page, label: string) {
  await expect.poll(() => walletButton(page).textContent(), { timeout: 15_000 }).toContain(label);
}

async function connect(page: Page) {
  await walletButton(page).filter({ hasText: "Connect Wallet" }).click();
}

/** Reload, wait past the 500 ms reconnect check, and expect the same label. */
async function reloadAndExpect(page: Page, label: string) {
  await page.reload();
  await expectLabel(page, label);
  await page.waitForTimeout(1200);
  await expectLabel(page, label);
  expect((await stored(page)).isWalletConnected).toBe("true");
}

async function disconnectAndCheck(page: Page) {
  // The button flips to "Connect Wallet" before the logout call answers; asking for the session before then
  // raced it, so wait for the logout response itself.
  const logout = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/auth/logout" && res.request().method() === "POST");
  await page.getByRole("button", { name: "Disconnect wallet" }).click();
  expect((await logout).ok()).toBe(true);
  await expectLabel(page, "Connect Wallet");
  expect(await stored(page)).toEqual({ walletAddress: null, walletNetwork: null, walletType: null, isWalletConnected: null });
  expect(await session(page)).toEqual({ authenticated: false });
  await page.reload();
  await page.waitForTimeout(1000);
  await expectLabel(page, "Connect Wallet");
}

describe("Ethereum wallet (EIP-6963 provider backed by anvil)", () => {
  it("the admin (anvil account 0) signs in, sees Admin (ETH), keeps it over a reload, sees the profile header, disconnects", async () => {
    s = await openBrowser();
    await injectEthereumWallet(s.page, { account: DEV_ACCOUNTS.admin.address, rpcUrl: inject("rpcUrl") });
    await s.page.goto(`${s.baseUrl}/`);
    await connect(s.page);
    await expectLabel(s.page, "Admin (ETH)");
    expect(await stored(s.page)).toEqual({
      walletAddress: DEV_ACCOUNTS.admin.address,
      walletNetwork: "ethereum",
      walletType: "org.example.testwallet",
      isWalletConnected: "true",
    });
    expect(await session(s.page)).toMatchObject({ authenticated: true, user: { walletAddress: DEV_ACCOUNTS.admin.address.toLowerCase(), isAdmin: true } });
    // The message names the host the browser is on (what MetaMask compares with the page's origin).
    const nonce = await s.page.evaluate(async (address) => {
      const res = await fetch("/api/auth/nonce", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ network: "ethereum", address }),
      });
      return (await res.json()) as { message: string };
    }, DEV_ACCOUNTS.admin.address);
    expect(nonce.message.split("\n")[0]).toBe(`${s.baseUrl} wants you to sign in with your Ethereum account:`);
    // The session cookie is HttpOnly: page scripts cannot read it.
    expect(await s.page.evaluate(() => document.cookie)).not.toContain("session=");

    await reloadAndExpect(s.page, "Admin (ETH)");

    // The button links to the profile, whose header shows the wallet.
    await walletButton(s.page).click();
    await s.page.waitForURL((u) => u.pathname === "/profile");
    const main = s.page.locator("main");
    await main.getByText("Verified Admin").waitFor();
    await expect.poll(() => main.textContent()).toContain(short(DEV_ACCOUNTS.admin.address));
    expect(await main.textContent()).toContain("Ethereum");
    expect(await s.page.getByTestId("profile-avatar").textContent()).toBe("F3");
    expect(await main.textContent()).toMatch(/Member since [A-Z][a-z]+ \d{1,2}, \d{4}/);
    await main.getByRole("link", { name: "Terms of Service" }).waitFor();

    await disconnectAndCheck(s.page);
    expect(s.errors).toEqual([]);
  });

  it("a non-admin (anvil account 1) sees the short address; Admin link logic stays off", async () => {
    s = await openBrowser();
    await injectEthereumWallet(s.page, { account: DEV_ACCOUNTS.buyer.address, rpcUrl: inject("rpcUrl") });
    await s.page.goto(`${s.baseUrl}/profile`);
    await s.page.getByRole("heading", { name: "Connect Your Wallet" }).waitFor();
    await s.page.locator("main").getByRole("button", { name: "Connect Wallet" }).click();
    const label = short(DEV_ACCOUNTS.buyer.address);
    expect(label).toBe("0x709979...dc79C8");
    await expectLabel(s.page, label);
    await s.page.locator("main").getByRole("heading", { name: label }).waitFor();
    expect(await s.page.locator("main").textContent()).not.toContain("Verified Admin");
    await reloadAndExpect(s.page, label);
    await disconnectAndCheck(s.page);
    expect(s.errors).toEqual([]);
  });

  it("saying no in the wallet (4001) gives a calm note and leaves the button as it was", async () => {
    s = await openBrowser();
    await injectEthereumWallet(s.page, { account: DEV_ACCOUNTS.buyer.address, rpcUrl: inject("rpcUrl") });
    await s.page.goto(`${s.baseUrl}/`);
    await s.page.evaluate(() => {
      (window as unknown as { __testEthereum: { control: { rejectNext: boolean } } }).__testEthereum.control.rejectNext = true;
    });
    await connect(s.page);
    await s.page.getByTestId("toast").filter({ hasText: "Connection cancelled" }).waitFor();
    expect(await s.page.getByTestId("toast").textContent()).not.toContain("Failed");
    await expectLabel(s.page, "Connect Wallet");
    expect(await session(s.page)).toEqual({ authenticated: false });
    expect(s.errors).toEqual([]);
  });

  it("account changes: a letter-case change is ignored; an empty account list clears the state and reloads", async () => {
    s = await openBrowser();
    await injectEthereumWallet(s.page, { account: DEV_ACCOUNTS.buyer.address, rpcUrl: inject("rpcUrl") });
    await s.page.goto(`${s.baseUrl}/`);
    await connect(s.page);
    const label = short(DEV_ACCOUNTS.buyer.address);
    await expectLabel(s.page, label);
    const emit = (accounts: string[]) =>
      s!.page.evaluate((a) => (window as unknown as { __testEthereum: { setAccounts: (a: string[]) => void } }).__testEthereum.setAccounts(a), accounts);

    await emit([DEV_ACCOUNTS.buyer.address.toLowerCase()]);
    await s.page.waitForTimeout(500);
    expect((await stored(s.page)).walletAddress).toBe(DEV_ACCOUNTS.buyer.address);
    await expectLabel(s.page, label);

    const navigation = s.page.waitForEvent("framenavigated");
    await emit([]);
    await navigation;
    await expectLabel(s.page, "Connect Wallet");
    expect(await stored(s.page)).toEqual({ walletAddress: null, walletNetwork: null, walletType: null, isWalletConnected: null });
    expect(await session(s.page)).toEqual({ authenticated: false });
  });

  it("another account: the new one is stored, the page reloads, and it must sign in itself", async () => {
    s = await openBrowser();
    await injectEthereumWallet(s.page, { account: DEV_ACCOUNTS.buyer.address, rpcUrl: inject("rpcUrl") });
    await s.page.goto(`${s.baseUrl}/`);
    await connect(s.page);
    await expectLabel(s.page, short(DEV_ACCOUNTS.buyer.address));
    const navigation = s.page.waitForEvent("framenavigated");
    await s.page.evaluate(
      (a) => (window as unknown as { __testEthereum: { setAccounts: (a: string[]) => void } }).__testEthereum.setAccounts([a]),
      DEV_ACCOUNTS.otherBuyer.address,
    );
    await navigation;
    await expectLabel(s.page, "Connect Wallet");
    expect(await stored(s.page)).toMatchObject({ walletAddress: DEV_ACCOUNTS.otherBuyer.address, isWalletConnected: "false" });
    expect(await session(s.page)).toEqual({ authenticated: false });
  });
});

describe("Solana wallet (Wallet Standard)", () => {
  it("a solana:signIn wallet signs in, shows the short address, survives a reload and disconnects", async () => {
    s = await openBrowser();
    const key = solanaTestKey(0x11);
    await injectSolanaWallet(s.page, key, { signIn: true });
    await s.page.goto(`${s.baseUrl}/`);
    await connect(s.page);
    await expectLabel(s.page, short(key.address));
    expect(await stored(s.page)).toEqual({ walletAddress: key.address, walletNetwork: "solana", walletType: "Test Solana Wallet", isWalletConnected: "true" });
    const calls = await s.page.evaluate(() => (window as unknown as { __testSolana: { control: { calls: string[] } } }).__testSolana.control.calls);
    expect(calls).toContain("signIn");
    expect(calls).not.toContain("signMessage");
    await reloadAndExpect(s.page, short(key.address));
    await walletButton(s.page).click();
    await s.page.waitForURL((u) => u.pathname === "/profile");
    await expect.poll(() => s!.page.locator("main").textContent()).toContain("Solana");
    await disconnectAndCheck(s.page);
    expect(s.errors).toEqual([]);
  });

  it("a wallet with only solana:signMessage signs the server's message; the Solana admin sees Admin (SOL)", async () => {
    s = await openBrowser();
    const key = solanaTestKey(SOLANA_ADMIN_SEED);
    await injectSolanaWallet(s.page, key, { signIn: false, name: "Plain Solana Wallet" });
    await s.page.goto(`${s.baseUrl}/`);
    await connect(s.page);
    await expectLabel(s.page, "Admin (SOL)");
    const calls = await s.page.evaluate(() => (window as unknown as { __testSolana: { control: { calls: string[] } } }).__testSolana.control.calls);
    expect(calls.slice(0, 2)).toEqual(["connect", "signMessage"]);
    await reloadAndExpect(s.page, "Admin (SOL)");
    await disconnectAndCheck(s.page);
    expect(s.errors).toEqual([]);
  });
});

describe("wallet picker", () => {
  it("lists an EVM and a Solana wallet with their icons and signs in with the one chosen", async () => {
    s = await openBrowser();
    const key = solanaTestKey(0x22);
    await injectEthereumWallet(s.page, { account: DEV_ACCOUNTS.buyer.address, rpcUrl: inject("rpcUrl"), name: "Test EVM Wallet" });
    await injectSolanaWallet(s.page, key);
    await s.page.goto(`${s.baseUrl}/`);
    await connect(s.page);
    const dialog = s.page.getByRole("dialog", { name: "Connect Wallet" });
    await dialog.waitFor();
    expect(await dialog.locator("img").count()).toBe(2);
    expect(await dialog.locator("img").first().getAttribute("src")).toMatch(/^data:image\/svg\+xml,/);
    await dialog.getByRole("button", { name: "Test Solana Wallet" }).click();
    await expectLabel(s.page, short(key.address));
    expect(s.errors).toEqual([]);
  });

  it("with no wallet installed it says which extension to install for each network", async () => {
    s = await openBrowser();
    await s.page.goto(`${s.baseUrl}/`);
    await connect(s.page);
    const dialog = s.page.getByRole("dialog", { name: "Connect Wallet" });
    await dialog.getByText("Ethereum wallet extension not found").waitFor();
    await dialog.getByText("Solana wallet extension not found").waitFor();
    expect(await dialog.getByRole("link", { name: "Get MetaMask" }).getAttribute("href")).toBe("https://metamask.io/download/");
    expect(s.errors).toEqual([]);
  });
});

describe("mobile browser without a wallet", () => {
  it("explains the situation, guides iPhone users and opens the wallet's in-app browser link", async () => {
    s = await openBrowser();
    const cdp = await s.context.newCDPSession(s.page);
    await cdp.send("Emulation.setUserAgentOverride", {
      userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
    });
    await s.context.route("https://metamask.app.link/**", (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<h1>MetaMask</h1>" }));
    await s.page.goto(`${s.baseUrl}/`);
    await connect(s.page);
    const dialog = s.page.getByRole("dialog", { name: "Connect Wallet" });
    await dialog.getByText("Mobile wallet connection unavailable. Please install a mobile wallet and try again.").waitFor();
    await dialog.getByText(/On iPhone/).waitFor();
    await dialog.getByRole("button", { name: "Open in MetaMask" }).click();
    await s.page.waitForURL((u) => u.host === "metamask.app.link");
    expect(s.page.url()).toBe(`https://metamask.app.link/dapp/${new URL(s.baseUrl).host}/`);
  });
});

describe("seed", () => {
  it("the admin wallet seeded by the e2e setup is in the database wrangler dev reads", async () => {
    const res = await fetch(`${inject("baseUrl")}/api/users/admin-status?walletAddress=${DEV_ACCOUNTS.admin.address}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ isAdmin: true, userExists: true });
  });
});
