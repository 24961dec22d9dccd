import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PowerOfTwo } from "./PowerOfTwo";

describe("a power of two", () => {
  it("is written with a raised exponent and read out in words, never as 2^n", () => {
    const html = renderToStaticMarkup(<PowerOfTwo bits={24} />);
    expect(html).toContain("2<sup");
    expect(html).toContain(">24</sup>");
    expect(html).toContain('aria-label="2 to the power 24"');
    expect(html).not.toContain("^");
  });
});
