import { describe, expect, it } from "vitest";
import { accountChange } from "./account-change";

const admin = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

describe("wallet account changes", () => {
  it("an empty account list clears the state", () => {
    expect(accountChange("ethereum", admin, [])).toEqual({ action: "clear" });
    expect(accountChange("solana", "HTEt6JErUsgJjSEKtGvyvBDgiZq34p97uu2kaiGDtjHg", [])).toEqual({ action: "clear" });
  });

  it("an EVM account that differs only in letter case is ignored", () => {
    expect(accountChange("ethereum", admin, [admin.toLowerCase()])).toEqual({ action: "ignore" });
    expect(accountChange("ethereum", admin, [admin])).toEqual({ action: "ignore" });
  });

  it("another account is switched to", () => {
    const buyer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    expect(accountChange("ethereum", admin, [buyer, admin])).toEqual({ action: "switch", address: buyer });
    expect(accountChange("ethereum", null, [buyer])).toEqual({ action: "switch", address: buyer });
  });

  it("Solana addresses are case-sensitive: a case change is another account", () => {
    const sol = "HTEt6JErUsgJjSEKtGvyvBDgiZq34p97uu2kaiGDtjHg";
    const other = "hTEt6JErUsgJjSEKtGvyvBDgiZq34p97uu2kaiGDtjHg";
    expect(accountChange("solana", sol, [sol])).toEqual({ action: "ignore" });
    expect(accountChange("solana", sol, [other])).toEqual({ action: "switch", address: other });
  });
});
