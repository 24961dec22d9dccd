import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { listAsAdmin, signInWithKey } from "./api-session";
import { openBrowser, type Session } from "./browser";

describe("the address checker on the home page", () => {
  let s: Session;
  beforeAll(async () => {
    s = await openBrowser();
    await s.page.goto(s.baseUrl + "/");
  });
  afterAll(async () => {
    await s?.close();
  });

  const box = () => s.page.getByLabel("Address to check");
  const checkButton = () => s.page.getByRole("button", { name: "Validate and Check Rarity" });

  it("an empty box gives the Error toast and calls nothing", async () => {
    await checkButton().click();
    await s.page.getByTestId("toast").filter({ hasText: "Please enter an address" }).waitFor();
    expect(await s.page.getByTestId("check-result").count()).toBe(0);
  });

  it("a known address shows its score, pattern, value and the explanation", async () => {
    await box().fill("  0x0000000049cbd371133c6caece543d8108839081 ");
    await checkButton().click();
    const result = s.page.getByTestId("check-result");
    await result.getByText("Valid Address").waitFor();
    expect(await result.textContent()).toContain("8/10");
    // The category in words, never its slug.
    expect(await result.textContent()).toContain("leading zeros");
    expect(await result.textContent()).not.toContain("leading-zeros");
    expect(await result.locator("mark").first().textContent()).toBe("00000000");
    expect(await s.page.getByTestId("rarity-explanation").textContent()).toMatch(/One CPU core of our grinder \(1,000,000 keys\/s\): about 1.2 hours/);
    expect(await s.page.getByTestId("rarity-meaning").textContent()).toMatch(/As hard as 8\.0 fixed hex characters: about 4\.3\s?billion attempts/i);
    await s.page.getByTestId("toast").filter({ hasText: "Rarity Score: 8/10" }).waitFor();
  });

  it("the burn address says no key exists and is worth 0", async () => {
    await box().fill("0x000000000000000000000000000000000000dEaD");
    await checkButton().click();
    const notice = s.page.getByTestId("keyless-notice");
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/No private key exists.*burn address/);
    expect(await s.page.getByTestId("check-result").textContent()).toMatch(/0 ETH/);
  });

  it("an invalid checksum shows Invalid Address with the server's message", async () => {
    await box().fill("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD");
    await checkButton().click();
    await s.page.getByTestId("check-result").getByText("Invalid Address").waitFor();
    expect(await s.page.getByTestId("check-result").textContent()).toMatch(/checksum/i);
  });

  it("Clear empties the box and the result", async () => {
    await s.page.getByRole("button", { name: "Clear" }).click();
    expect(await box().inputValue()).toBe("");
    expect(await s.page.getByTestId("check-result").count()).toBe(0);
  });

  it("an address pasted over several lines is checked as one; two addresses get a plain reason", async () => {
    await box().fill("0x0000000049cbd37113\r\n3c6caece543d8108839081\n");
    await checkButton().click();
    await s.page.getByTestId("check-result").getByText("Valid Address").waitFor();
    await s.page.getByRole("button", { name: "Clear" }).click();
    await box().fill("0x0000000049cbd371133c6caece543d8108839081\n0x000000000000000000000000000000000000dEaD");
    await checkButton().click();
    await s.page.getByTestId("toast").filter({ hasText: "check one address at a time" }).waitFor();
    expect(await s.page.getByTestId("check-result").count()).toBe(0);
    await s.page.getByRole("button", { name: "Clear" }).click();
  });

  it("an address for sale here says so with its price and links to its listing", async () => {
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const key = generatePrivateKey();
    const address = privateKeyToAccount(key).address;
    const listingId = await listAsAdmin(admin, { address, network: "ethereum", price: "0.0042", privateKey: key });
    await box().fill(address);
    await checkButton().click();
    const notice = s.page.getByTestId("for-sale-notice");
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.textContent()).toContain("This address is for sale here at 0.0042 ETH.");
    await notice.getByRole("link").click();
    await s.page.waitForURL((u) => u.pathname === `/address/${listingId}`);
    await s.page.goto(`${s.baseUrl}/`);
  });

  it("no console errors or warnings", () => {
    expect(s.errors).toEqual([]);
    expect(s.warnings).toEqual([]);
  });
});
