// The operator's price warnings (docs/listings.md#prices-an-operator-can-trust): under a fifth of the store's own
// estimate, or an address with no notable pattern, said in words; nothing for a fair price.
import { describe, expect, it } from "vitest";
import { priceWarnings } from "./price-advice";

describe("price warnings", () => {
  it("a 4-character listing at the spec's 0.00001 ETH beside its 0.00125 ETH estimate is flagged, with both figures", () => {
    expect(priceWarnings({ price: "0.00001", estimate: "0.00125", currency: "ETH", notable: true })).toEqual([
      { kind: "underpriced", message: "Price 0.00001 ETH is under a fifth of the estimated value 0.00125 ETH (99% below it)" },
    ]);
  });

  it("a fifth of the estimate or more is no warning; just under it is", () => {
    expect(priceWarnings({ price: "0.00025", estimate: "0.00125", currency: "ETH", notable: true })).toEqual([]);
    expect(priceWarnings({ price: "0.00124", estimate: "0.00125", currency: "ETH", notable: true })).toEqual([]);
    expect(priceWarnings({ price: "0.00024999", estimate: "0.00125", currency: "SOL", notable: true }).map((w) => w.kind)).toEqual(["underpriced"]);
  });

  it("no notable pattern is said whatever the price; an unreadable price or estimate adds nothing", () => {
    expect(priceWarnings({ price: "5", estimate: "0.001", currency: "ETH", notable: false })).toEqual([
      { kind: "no-pattern", message: "No notable pattern (rarity 0): a random key makes an address like it more often than 1 in 2,900 tries" },
    ]);
    expect(priceWarnings({ price: "", estimate: "0.001", currency: "ETH", notable: true })).toEqual([]);
    expect(priceWarnings({ price: "0.00001", estimate: null, currency: "ETH", notable: true })).toEqual([]);
    expect(priceWarnings({ price: "0.00001", estimate: "0", currency: "ETH", notable: true })).toEqual([]);
  });
});
