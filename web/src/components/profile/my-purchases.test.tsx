import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PurchaseListItem } from "../../../../schema/purchases";
import { KeyCell, privateKeyCell } from "./MyPurchases";

const purchase = (over: Partial<PurchaseListItem>): PurchaseListItem => ({
  id: "tx-1",
  status: "completed",
  failureReason: null,
  price: "0.5",
  currency: "ETH",
  network: "ethereum",
  totalAmount: "0.52",
  createdAt: "2026-12-01T10:00:00.000Z",
  completedAt: "2026-12-01T10:05:00.000Z",
  privateKeyDestroyed: false,
  address: { id: 7, address: "0xabc0000000000000000000000000000000000abc", network: "ethereum", rarityScore: "6.0" },
  customOrderId: null,
  ...over,
});

describe("My Purchases: the Private Key column", () => {
  it("offers Access Key + Destroy for a completed purchase whose key exists", () => {
    expect(privateKeyCell(purchase({ status: "completed" }))).toBe("access");
  });
  it("shows Destroyed once the key is gone", () => {
    expect(privateKeyCell(purchase({ status: "completed", privateKeyDestroyed: true }))).toBe("destroyed");
  });
  it("offers the key once verified, as the purchase page does (the server releases it then)", () => {
    expect(privateKeyCell(purchase({ status: "verified", privateKeyDestroyed: false }))).toBe("access");
  });
  it("says Available after completion while payment is awaited or confirming", () => {
    for (const status of ["initiated", "pending"] as const) expect(privateKeyCell(purchase({ status, privateKeyDestroyed: false }))).toBe("later");
  });
  it("never promises a key for a purchase that ended unpaid (a cancelled one read 'Available after completion')", () => {
    for (const status of ["failed", "cancelled", "expired"] as const) expect(privateKeyCell(purchase({ status, privateKeyDestroyed: false }))).toBe("none");
  });
});

describe("My Purchases: a paid custom order is the buyer's key, not the store's", () => {
  it("says the buyer holds it, and offers neither Access Key nor Destroy (the store never held it, so both would fail)", () => {
    for (const status of ["verified", "completed"] as const) {
      expect(privateKeyCell(purchase({ status, customOrderId: 12 }))).toBe("buyer");
      const html = renderToStaticMarkup(<KeyCell purchase={purchase({ status, customOrderId: 12 })} />);
      expect(html).toContain("You hold this key (made in your browser)");
      expect(html).not.toMatch(/Access Key|Destroy/);
    }
  });
  it("an ordinary completed purchase still offers Access Key and Destroy", () => {
    expect(privateKeyCell(purchase({}))).toBe("access");
  });
});
