import { describe, expect, it } from "vitest";
import { privateKeyCell } from "./MyPurchases";

describe("My Purchases: the Private Key column", () => {
  it("offers Access Key + Destroy for a completed purchase whose key exists", () => {
    expect(privateKeyCell({ status: "completed", privateKeyDestroyed: false })).toBe("access");
  });
  it("shows Destroyed once the key is gone", () => {
    expect(privateKeyCell({ status: "completed", privateKeyDestroyed: true })).toBe("destroyed");
  });
  it("offers the key once verified, as the purchase page does (the server releases it then)", () => {
    expect(privateKeyCell({ status: "verified", privateKeyDestroyed: false })).toBe("access");
  });
  it("says Available after completion while payment is awaited or confirming", () => {
    for (const status of ["initiated", "pending"] as const) expect(privateKeyCell({ status, privateKeyDestroyed: false })).toBe("later");
  });
  it("never promises a key for a purchase that ended unpaid (a cancelled one read 'Available after completion')", () => {
    for (const status of ["failed", "cancelled", "expired"] as const) expect(privateKeyCell({ status, privateKeyDestroyed: false })).toBe("none");
  });
});
