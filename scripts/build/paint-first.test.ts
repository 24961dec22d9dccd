import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { cspWithScript, paintFirstHtml } from "./paint-first";

const BUILT = `<head>
    <title>t</title>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-1.js">
    <link rel="stylesheet" crossorigin href="/assets/index-1.css">
  </head>`;

describe("paintFirstHtml", () => {
  const BOOT = "(() => start())();";
  const out = paintFirstHtml(BUILT, BOOT, ["/assets/client-1.js"]);

  it("starts the entry from the inline boot script instead of a module script the browser would run before painting", () => {
    expect(out).not.toContain('<script type="module"');
    expect(out).toContain(
      '<script data-entry="/assets/index-1.js" data-modules="/assets/index-1.js /assets/react-1.js /assets/client-1.js">(() => start())();</script>',
    );
  });

  it("hints no script in the HTML (the boot script asks for them after the first paint); the stylesheet stays", () => {
    expect(out).not.toContain("modulepreload");
    expect(out).toContain('<link rel="stylesheet" crossorigin href="/assets/index-1.css">');
  });

  it("fails the build on an index.html it does not recognise (no entry, or more than one), or a script it cannot inline", () => {
    expect(() => paintFirstHtml("<head></head>", BOOT)).toThrow(/found 0/);
    const two = BUILT.replace("</head>", '<script type="module" crossorigin src="/assets/other.js"></script></head>');
    expect(() => paintFirstHtml(two, BOOT)).toThrow(/found 2/);
    expect(() => paintFirstHtml(BUILT, 'x("</script>")')).toThrow(/cannot be inlined/);
  });
});

describe("cspWithScript", () => {
  const HEADERS = "/*\n  Content-Security-Policy: default-src 'self'; script-src 'self'; style-src 'self'\n";

  it("allows exactly the inline boot script, by its hash, beside 'self'", () => {
    const hash = createHash("sha256").update("boot()").digest("base64");
    expect(cspWithScript(HEADERS, "boot()")).toBe(`/*\n  Content-Security-Policy: default-src 'self'; script-src 'self' 'sha256-${hash}'; style-src 'self'\n`);
  });

  it("fails the build when the CSP is not the one it extends", () => {
    expect(() => cspWithScript("/*\n  X-Frame-Options: DENY\n", "boot()")).toThrow(/no script-src/);
  });
});
