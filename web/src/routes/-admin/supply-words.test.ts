import { describe, expect, it } from "vitest";
import { fillWords, targetWords } from "./supply-words";

describe("Admin > Supply's words", () => {
  it("names the target by its network, length and pattern, with the characters it grinds", () => {
    expect(targetWords({ network: "ethereum", category: "leading-zeros", patternLength: 7 })).toBe("Ethereum, 7 or more leading zeros (0000000…)");
    expect(targetWords({ network: "solana", category: "trailing-zeros", patternLength: 3 })).toBe("Solana, 3 or more trailing zeros (…111)");
  });

  it("says full, paused, unworked or the time to fill", () => {
    const t = { status: "active" as const, stock: 3, wanted: 10, secondsToFill: 7200, openClaims: 1 };
    expect(fillWords(t)).toBe("Full in about 2 hours at the current rate");
    expect(fillWords({ ...t, stock: 10 })).toBe("Full");
    expect(fillWords({ ...t, stock: 12, status: "paused" })).toBe("Full");
    expect(fillWords({ ...t, status: "paused" })).toBe("Paused: no grinder takes it");
    expect(fillWords({ ...t, secondsToFill: null, openClaims: 0 })).toBe("No grinder is working on it");
    expect(fillWords({ ...t, secondsToFill: null })).toBe("A grinder has claimed it and not reported yet");
  });
});
