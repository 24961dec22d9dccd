import { readFileSync } from "node:fs";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { DEV_ACCOUNTS, LOCAL_CHAIN } from "./dev-accounts";

describe("dev accounts", () => {
  for (const [role, account] of Object.entries(DEV_ACCOUNTS)) {
    it(`${role}: the key derives the address, and both come from anvil's mnemonic`, () => {
      expect(privateKeyToAccount(account.privateKey).address).toBe(account.address);
      expect(mnemonicToAccount(LOCAL_CHAIN.mnemonic, { addressIndex: account.index }).address).toBe(account.address);
    });
  }

  it("wrangler.toml names the dev admin and platform accounts", () => {
    const toml = readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8");
    expect(toml).toContain(`ADMIN_WALLETS = "${DEV_ACCOUNTS.admin.address}"`);
    expect(toml).toContain(`PLATFORM_ETH_ADDRESS = "${DEV_ACCOUNTS.platform.address}"`);
  });
});
