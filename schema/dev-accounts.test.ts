import { readFileSync } from "node:fs";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { mnemonicToSeedSync } from "@scure/bip39";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { DEV_ACCOUNTS, LOCAL_CHAIN, SOLANA_DEV_ACCOUNTS } from "./dev-accounts";
import { slip10Ed25519 } from "../scripts/test/slip10";

describe("dev accounts", () => {
  for (const [role, account] of Object.entries(DEV_ACCOUNTS)) {
    it(`${role}: the key derives the address, and both come from anvil's mnemonic`, () => {
      expect(privateKeyToAccount(account.privateKey).address).toBe(account.address);
      expect(mnemonicToAccount(LOCAL_CHAIN.mnemonic, { addressIndex: account.index }).address).toBe(account.address);
    });
  }

  it("wrangler.toml names the dev admin and platform accounts", () => {
    const toml = readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8");
    expect(toml).toMatch(new RegExp(`ADMIN_WALLETS = "${DEV_ACCOUNTS.admin.address}[,"]`));
    expect(toml).toContain(`PLATFORM_ETH_ADDRESS = "${DEV_ACCOUNTS.platform.address}"`);
  });

  for (const [role, account] of Object.entries(SOLANA_DEV_ACCOUNTS)) {
    it(`solana ${role}: the mnemonic derives the key on m/44'/501'/${account.index}'/0', and the key derives the address`, () => {
      const seed = slip10Ed25519(mnemonicToSeedSync(LOCAL_CHAIN.mnemonic), [44, 501, account.index, 0]);
      const secret = base58.decode(account.secretKey);
      expect(secret.slice(0, 32)).toEqual(seed);
      expect(base58.encode(ed25519.getPublicKey(seed))).toBe(account.address);
      expect(base58.encode(secret.slice(32))).toBe(account.address);
    });
  }

  it("wrangler.toml names the Solana dev admin and platform accounts", () => {
    const toml = readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8");
    expect(toml).toContain(`PLATFORM_SOL_ADDRESS = "${SOLANA_DEV_ACCOUNTS.platform.address}"`);
    expect(toml).toMatch(new RegExp(`ADMIN_WALLETS = "[^"]*${SOLANA_DEV_ACCOUNTS.admin.address}`));
  });
});
