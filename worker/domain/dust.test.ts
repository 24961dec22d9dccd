import { describe, expect, it } from "vitest";
import { DEFAULT_DUST, MAX_DUST, readDust, refundStatusFor } from "./dust";

describe("dust", () => {
  it("reads the setting exactly, and falls back to the default for anything unreadable or too high", () => {
    expect(readDust("0.00001", "ETH")).toBe(10_000_000_000_000n);
    expect(readDust("0.0001", "SOL")).toBe(100_000n);
    expect(readDust("0", "SOL")).toBe(0n);
    expect(readDust("0.001", "ETH")).toBe(MAX_DUST.ETH);
    expect(readDust("0.0010000000000001", "ETH")).toBe(DEFAULT_DUST.ETH);
    expect(readDust("0.02", "SOL")).toBe(DEFAULT_DUST.SOL);
    for (const bad of [undefined, "", "-1", "lots", "1e-5"]) expect(readDust(bad, "ETH")).toBe(DEFAULT_DUST.ETH);
    expect(DEFAULT_DUST).toEqual({ ETH: 10n ** 13n, SOL: 10_000n });
  });

  it("an amount owed back below the threshold, or zero, is ignored; at or above it, needed", () => {
    expect(refundStatusFor(null, 100n)).toBeNull();
    expect(refundStatusFor(0n, 0n)).toBe("ignored");
    expect(refundStatusFor(0n, 100n)).toBe("ignored");
    expect(refundStatusFor(99n, 100n)).toBe("ignored");
    expect(refundStatusFor(100n, 100n)).toBe("needed");
    expect(refundStatusFor(1n, 0n)).toBe("needed");
  });
});
