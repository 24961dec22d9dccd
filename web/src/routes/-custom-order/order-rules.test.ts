import { describe, expect, it } from "vitest";
import { readPattern, whyNotPlaceable, type PlaceState } from "./order-rules";

describe("readPattern", () => {
  it("trims, drops a typed 0x and measures difficulty", () => {
    expect(readPattern({ prefix: " 0xDead ", suffix: "beef ", caseSensitive: false })).toEqual({
      pattern: { prefix: "Dead", suffix: "beef", caseSensitive: false },
      problems: [],
      bits: 32,
    });
    expect(readPattern({ prefix: "Dead", suffix: "", caseSensitive: true }).bits).toBe(20);
  });

  it("reports bad characters and an empty pattern with no difficulty", () => {
    expect(readPattern({ prefix: "xyz", suffix: "", caseSensitive: false })).toMatchObject({ bits: 0, problems: [expect.stringMatching(/only 0-9 and a-f/)] });
    expect(readPattern({ prefix: "", suffix: " ", caseSensitive: false }).problems).toEqual(["Enter a prefix, a suffix or both"]);
  });
});

describe("whyNotPlaceable", () => {
  const ready: PlaceState = { patternOk: true, refusal: null, quoteReady: true, wallet: "ethereum", keyFileSaved: true, confirmed: true };

  it("is null only when every step is done", () => {
    expect(whyNotPlaceable(ready)).toBeNull();
  });

  it("names the first missing step: pattern, refusal, quote, wallet, key file, confirmation", () => {
    expect(whyNotPlaceable({ ...ready, patternOk: false })).toMatch(/valid pattern/);
    expect(whyNotPlaceable({ ...ready, refusal: "Too hard" })).toMatch(/beyond what we take/);
    expect(whyNotPlaceable({ ...ready, quoteReady: false })).toMatch(/price/);
    expect(whyNotPlaceable({ ...ready, wallet: "none" })).toMatch(/Connect/);
    expect(whyNotPlaceable({ ...ready, wallet: "solana" })).toMatch(/Ethereum wallet/);
    expect(whyNotPlaceable({ ...ready, keyFileSaved: false })).toMatch(/Download/);
    expect(whyNotPlaceable({ ...ready, confirmed: false })).toMatch(/Confirm/);
  });
});
