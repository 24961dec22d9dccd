// The committed list of public dev accounts is what the mnemonics derive, entry for entry: derived again here
// from the mnemonics themselves, so an account cannot be missing, misspelt or out of place.
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { mnemonicToSeedSync } from "@scure/bip39";
import { HDKey, hdKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { LOCAL_CHAIN } from "../../schema/dev-accounts";
import { slip10Ed25519 } from "../../scripts/test/slip10";
import {
  describeDevAccount,
  isPublicDevWallet,
  PUBLIC_DEV_ACCOUNT_LISTS,
  PUBLIC_DEV_MNEMONICS,
  type PublicDevMnemonic,
  publicDevAccount,
  publicDevAddresses,
} from "./public-dev-accounts";

/** The mnemonics in full (kept out of the Worker: only their addresses ship). */
const MNEMONICS: Record<PublicDevMnemonic, string> = {
  test: LOCAL_CHAIN.mnemonic,
  ganache: "myth like bonus scare over problem client lizard pioneer submit female collect",
};

/** The hardened indexes of a Solana path such as m/44'/501'/3'/0'. */
const hardened = (path: string) =>
  path
    .split("/")
    .slice(1)
    .map((part) => Number(part.replace("'", "")));

/** BIP-39 seeds, computed once each (2,048 rounds of PBKDF2). */
const seeds = new Map<string, Uint8Array>();
const seedOf = (mnemonic: string) => seeds.get(mnemonic) ?? seeds.set(mnemonic, mnemonicToSeedSync(mnemonic)).get(mnemonic)!;

function derive(network: "ethereum" | "solana", mnemonic: string, path: string): string {
  const seed = seedOf(mnemonic);
  if (network === "ethereum") return hdKeyToAccount(HDKey.fromMasterSeed(seed), { path: path as `m/44'/60'/${string}` }).address;
  const secret = path === "seed" ? seed.slice(0, 32) : slip10Ed25519(seed, hardened(path));
  return base58.encode(ed25519.getPublicKey(secret));
}

describe("the public dev accounts", () => {
  it("are exactly what each mnemonic derives on each listed path", () => {
    for (const list of PUBLIC_DEV_ACCOUNT_LISTS) {
      const expected = list.addresses.map((_, i) => derive(list.network, MNEMONICS[list.mnemonic], list.path.replace("{i}", String(i))));
      expect(list.addresses, `${list.network} ${list.mnemonic} ${list.path}`).toEqual(expected);
    }
  });

  it("cover Hardhat's 20 funded accounts and Ganache's deterministic ones, and the Solana wallets' and CLI's paths", () => {
    const lists = PUBLIC_DEV_ACCOUNT_LISTS.map((l) => `${l.network} ${l.mnemonic} ${l.path} ${l.addresses.length}`);
    for (const mnemonic of ["test", "ganache"]) {
      expect(lists).toContain(`ethereum ${mnemonic} m/44'/60'/0'/0/{i} 20`);
      expect(lists).toContain(`solana ${mnemonic} m/44'/501'/{i}'/0' 20`);
      expect(lists).toContain(`solana ${mnemonic} m/44'/501'/{i}' 20`);
      expect(lists).toContain(`solana ${mnemonic} m/44'/501' 1`);
      expect(lists).toContain(`solana ${mnemonic} seed 1`);
    }
    // The well-known first accounts, as the tools print them.
    expect(publicDevAccount("0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199")).toMatchObject({ mnemonic: "test", index: 19 });
    expect(publicDevAccount("0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1")).toMatchObject({ mnemonic: "ganache", index: 0 });
  });

  it("are found in any letter case on Ethereum, exactly on Solana, and described without the mnemonic's words", () => {
    const eth = publicDevAccount("0x8626F6940E2EB28930EFB4CEF49B2D1F2C9C1199".replace("0X", "0x"));
    expect(eth).toMatchObject({ network: "ethereum", index: 19 });
    const sol = PUBLIC_DEV_ACCOUNT_LISTS.find((l) => l.network === "solana" && l.mnemonic === "ganache")!.addresses[4];
    expect(publicDevAccount(sol)).toMatchObject({ network: "solana", mnemonic: "ganache", index: 4 });
    expect(publicDevAccount(sol.toUpperCase())).toBeNull();
    expect(describeDevAccount(publicDevAccount(sol)!)).toBe(`public dev account 4 of ${PUBLIC_DEV_MNEMONICS.ganache}, m/44'/501'/4'/0'`);
    for (const list of PUBLIC_DEV_ACCOUNT_LISTS)
      for (const address of list.addresses) {
        const text = describeDevAccount(publicDevAccount(address)!);
        expect(text).not.toContain(MNEMONICS.test);
        expect(text).not.toContain(MNEMONICS.ganache);
      }
  });

  it("isPublicDevWallet: every public dev account (Ethereum in any case, Solana exactly), no other address", () => {
    const eth = publicDevAddresses("ethereum");
    for (const a of eth) {
      expect(isPublicDevWallet(a), a).toBe(true);
      expect(isPublicDevWallet(a.toLowerCase()), a).toBe(true);
      expect(isPublicDevWallet(`0x${a.slice(2).toUpperCase()}`), a).toBe(true);
    }
    for (const a of publicDevAddresses("solana")) {
      expect(isPublicDevWallet(a), a).toBe(true);
      expect(isPublicDevWallet(a.toLowerCase()), a).toBe(false);
    }
    // Addresses nobody ships as dev accounts (fresh, valid), and a dev address cut short.
    const own = ["0x52908400098527886E0F7030069857D2E4169EE7", "GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW"];
    for (const a of [...own, "", "0x", eth[0].slice(0, 41)]) expect(isPublicDevWallet(a), a).toBe(false);
  });
});
