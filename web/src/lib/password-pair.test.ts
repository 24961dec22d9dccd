import { describe, expect, it } from "vitest";
import { passwordPairProblem } from "./password-pair";

describe("passwordPairProblem", () => {
  it("too short: says the minimum, whatever the repeat", () => {
    expect(passwordPairProblem("1234567", "1234567", 8)).toBe("Choose a password of at least 8 characters.");
    expect(passwordPairProblem("", "", 8)).toMatch(/at least 8/);
  });

  it("long enough but not repeated: asks for the repeat", () => {
    expect(passwordPairProblem("12345678", "", 8)).toBe("Type the password again to check it.");
  });

  it("repeat differs, even by case or a trailing space: a clear error", () => {
    expect(passwordPairProblem("correct horse", "correct hors", 8)).toMatch(/differ/);
    expect(passwordPairProblem("correct horse", "Correct horse", 8)).toMatch(/differ/);
    expect(passwordPairProblem("correct horse", "correct horse ", 8)).toMatch(/differ/);
  });

  it("same password twice, at the minimum length: no problem", () => {
    expect(passwordPairProblem("12345678", "12345678", 8)).toBeNull();
  });
});
