import { describe, expect, it } from "vitest";
import { deriveUsername, normalizeWallet } from "./users";

describe("wallet identity", () => {
  it("Ethereum addresses are case-insensitive, Solana exact", () => {
    expect(normalizeWallet("ethereum", "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBe("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
    expect(normalizeWallet("solana", "HTEt6JErUsgJjSEKtGvyvBDgiZq34p97uu2kaiGDtjHg")).toBe("HTEt6JErUsgJjSEKtGvyvBDgiZq34p97uu2kaiGDtjHg");
  });

  it("usernames derive from the address and ignore EVM letter case", () => {
    expect(deriveUsername("ethereum", "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBe("eth_0xf39fd6b92266");
    expect(deriveUsername("ethereum", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266")).toBe("eth_0xf39fd6b92266");
    expect(deriveUsername("solana", "HTEt6JErUsgJjSEKtGvyvBDgiZq34p97uu2kaiGDtjHg")).toBe("sol_HTEt6JGDtjHg");
  });
});
