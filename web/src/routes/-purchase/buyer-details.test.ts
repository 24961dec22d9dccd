// The smaller things that are words and once-only news.
import { describe, expect, it } from "vitest";
import { wrongNetworkMessage } from "../../components/listing/use-buy-flow";
import { releasedNewsOnce } from "./PrivateKeyCard";

describe("wrong network message", () => {
  it("an Ethereum wallet, a Solana wallet", () => {
    expect(wrongNetworkMessage("ethereum")).toBe("This address is sold on Ethereum. Connect an Ethereum wallet to buy it.");
    expect(wrongNetworkMessage("solana")).toBe("This address is sold on Solana. Connect a Solana wallet to buy it.");
  });
});

describe("'Private Key Released!' once per purchase", () => {
  const memory = () => {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
  };
  it("shows on the first visit only, per purchase", () => {
    const storage = memory();
    expect(releasedNewsOnce("a", storage)).toBe(true);
    expect(releasedNewsOnce("a", storage)).toBe(false);
    expect(releasedNewsOnce("b", storage)).toBe(true);
  });
  it("without usable storage it still shows", () => {
    const broken = {
      getItem: () => null,
      setItem: () => {
        throw new Error("quota");
      },
    };
    expect(releasedNewsOnce("a", broken)).toBe(true);
    expect(releasedNewsOnce("a", null)).toBe(true);
  });
});
