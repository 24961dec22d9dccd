import { describe, expect, it } from "vitest";
import { shortAddress } from "../lib/short-address";
import { connectorNotFound, describeWalletError, isIphone, isMobileBrowser, isUserRejection, WALLET_APPS, WALLET_MESSAGES, WalletError } from "./wallet-errors";

describe("wallet errors", () => {
  it("recognises a refusal: EIP-1193 4001, viem's wrapped form, and wallets that only say so", () => {
    expect(isUserRejection({ code: 4001, message: "User rejected the request." })).toBe(true);
    const viemLike = Object.assign(new Error("User rejected the request."), { name: "UserRejectedRequestError", cause: { code: 4001 } });
    expect(isUserRejection(new Error("wrapped", { cause: viemLike }))).toBe(true);
    expect(isUserRejection(new Error("WalletSignMessageError: User denied message signature"))).toBe(true);
    expect(isUserRejection(new Error("network down"))).toBe(false);
    expect(isUserRejection({ code: 4100 })).toBe(false);
  });

  it("falls back to the spec's default message", () => {
    expect(describeWalletError(new Error("internal detail"))).toBe(WALLET_MESSAGES.failed);
    expect(describeWalletError(new WalletError("The wallet did not share an account."))).toBe("The wallet did not share an account.");
    expect(describeWalletError({ serverMessage: "Sign-in failed: message has expired" })).toBe("Sign-in failed: message has expired");
  });

  it("connector not found lists the available connectors", () => {
    expect(connectorNotFound("io.metamask", ["Phantom", "Rabby"])).toBe('Wallet connector "io.metamask" not found. Available: Phantom, Rabby.');
    expect(connectorNotFound("io.metamask", [])).toMatch(/Available: none/);
  });

  it("mobile detection and in-app browser links", () => {
    const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1";
    expect(isMobileBrowser(iphone)).toBe(true);
    expect(isIphone(iphone)).toBe(true);
    expect(isMobileBrowser("Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36")).toBe(false);
    const [metamask, phantom] = WALLET_APPS;
    expect(metamask.deepLink("https://vanity.example/profile?x=1")).toBe("https://metamask.app.link/dapp/vanity.example/profile?x=1");
    expect(phantom.deepLink("https://vanity.example/profile")).toBe(
      "https://phantom.app/ul/browse/https%3A%2F%2Fvanity.example%2Fprofile?ref=https%3A%2F%2Fvanity.example",
    );
  });

  it("short addresses follow the display rule: first 8, ..., last 6", () => {
    expect(shortAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).toBe("0x709979...dc79C8");
    expect(shortAddress("HTEt6JErUsgJjSEKtGvyvBDgiZq34p97uu2kaiGDtjHg")).toBe("HTEt6JEr...GDtjHg");
    expect(shortAddress("short")).toBe("short");
  });
});
