import { describe, expect, it } from "vitest";
import { HttpError } from "../../api/http";
import { purchaseStartMessage } from "./purchase-start-message";

const http = (status: number, body: unknown) => new HttpError(status, typeof body === "string" ? body : JSON.stringify(body), "");
const now = Date.parse("2026-11-23T10:00:00Z");

describe("purchaseStartMessage", () => {
  it("says until when another buyer holds the reservation", () => {
    const msg = purchaseStartMessage(http(409, { error: "Conflict", message: "reserved", reservedUntil: "2026-11-23T10:12:30Z" }), "ETH", now);
    expect(msg).toMatch(/reserved this address until .*\(about 13 minutes\)/);
  });
  it("names the new price when it changed", () => {
    expect(purchaseStartMessage(http(409, { error: "Conflict", message: "price changed", currentPrice: "0.25" }), "SOL", now)).toBe(
      "The price has changed to 0.25 SOL. Check the new price and buy again.",
    );
  });
  it("asks to sign in again on 401", () => {
    expect(purchaseStartMessage(http(401, { error: "Unauthorized", message: "Sign in first" }), "ETH")).toMatch(/session has ended/);
  });
  it("passes the server's message through otherwise", () => {
    expect(purchaseStartMessage(http(409, { error: "Conflict", message: "You already hold 3 open reservations" }), "ETH")).toBe(
      "You already hold 3 open reservations",
    );
    expect(purchaseStartMessage(http(403, { error: "Forbidden" }), "ETH")).toBe("Forbidden");
    expect(purchaseStartMessage(http(500, ""), "ETH")).toBe("500: ");
    expect(purchaseStartMessage(new Error("Failed to fetch"), "ETH")).toBe("Failed to fetch");
    expect(purchaseStartMessage(undefined, "ETH")).toBe("An error occurred while creating the transaction");
  });
});
