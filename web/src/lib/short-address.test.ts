import { describe, expect, it } from "vitest";
import { shortAddress } from "./short-address";

describe("shortAddress", () => {
  it("keeps 20 characters or fewer as they are", () => {
    expect(shortAddress("")).toBe("");
    expect(shortAddress("12345678901234567890")).toBe("12345678901234567890");
  });
  it("beyond 20: first 8 ... last 6", () => {
    expect(shortAddress("123456789012345678901")).toBe("12345678...678901");
    expect(shortAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBe("0xf39Fd6...b92266");
    expect(shortAddress("HTEt6JErUsgJjSEKtGvyvBDgiZq34p97uu2kaiGDtjHg")).toBe("HTEt6JEr...GDtjHg");
  });
});
