import { describe, expect, it } from "vitest";
import { privateKeyCell } from "./MyPurchases";

describe("My Purchases: the Private Key column", () => {
  it("offers Access Key + Destroy for a completed purchase whose key exists", () => {
    expect(privateKeyCell({ status: "completed", privateKeyDestroyed: false })).toBe("access");
  });
  it("shows Destroyed once the key is gone", () => {
    expect(privateKeyCell({ status: "completed", privateKeyDestroyed: true })).toBe("destroyed");
  });
  it("says Available after completion for anything not completed", () => {
    for (const status of ["initiated", "pending", "verified", "failed", "cancelled", "expired"] as const) {
      expect(privateKeyCell({ status, privateKeyDestroyed: false })).toBe("later");
    }
  });
});
