import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EMPTY_PATTERN, PatternFields, PatternProblems } from "./PatternFields";

const fields = (value = EMPTY_PATTERN) =>
  renderToStaticMarkup(
    <PatternFields
      id="p"
      value={value}
      onChange={() => {}}
      prefixLabel="Starts with (after 0x)"
      placeholders={{ prefix: "dead", suffix: "beef" }}
      caseHint="Match letter case exactly"
    />,
  );

describe("PatternFields: the one way a pattern is typed", () => {
  it("labels each field for the e2e journeys and screen readers, and shows what is typed", () => {
    const html = fields({ prefix: "cafe", suffix: "f00d", caseSensitive: true });
    expect(html).toMatch(/<label[^>]*for="p-prefix"[^>]*>Starts with \(after 0x\)<input id="p-prefix" placeholder="dead"[^>]*value="cafe"\/>/);
    expect(html).toMatch(/<label[^>]*for="p-suffix"[^>]*>Ends with<input id="p-suffix" placeholder="beef"[^>]*value="f00d"\/>/);
    expect(html).toMatch(/<input type="checkbox"[^>]*checked=""\/><span>Match letter case exactly<\/span>/);
    expect(fields()).not.toContain('checked=""');
    // no spelling fixes or autofill on a hex or base58 pattern
    expect(html.match(/spellCheck="false"/g)).toHaveLength(2);
    expect(html.match(/autoComplete="off"/g)).toHaveLength(2);
  });

  it("lists the problems only once something is typed", () => {
    const problems = ["The prefix may hold only 0-9 and a-f"];
    expect(renderToStaticMarkup(<PatternProblems value={EMPTY_PATTERN} problems={problems} />)).toBe("");
    expect(renderToStaticMarkup(<PatternProblems value={{ ...EMPTY_PATTERN, suffix: "xyz" }} problems={[]} />)).toBe("");
    const html = renderToStaticMarkup(<PatternProblems value={{ ...EMPTY_PATTERN, prefix: "xyz" }} problems={problems} />);
    expect(html).toBe('<ul class="mt-3 list-disc pl-5 text-sm text-amber-300" role="alert"><li>The prefix may hold only 0-9 and a-f</li></ul>');
  });

  it("the custom-order page and /grind type their pattern into it", () => {
    for (const path of ["routes/custom-order.tsx", "routes/grind.tsx"]) {
      const text = readFileSync(join(import.meta.dirname, "..", path), "utf8");
      expect(text).toContain("<PatternFields");
      expect(text).toContain("<PatternProblems");
      expect(text).not.toMatch(/htmlFor=\{`\$\{id\}-(prefix|suffix)`\}/);
    }
  });
});
