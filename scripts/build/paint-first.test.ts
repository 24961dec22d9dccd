import { describe, expect, it } from "vitest";
import { paintFirstHtml } from "./paint-first";

const BUILT = `<head>
    <title>t</title>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-1.js">
    <link rel="stylesheet" crossorigin href="/assets/index-1.css">
  </head>`;

describe("paintFirstHtml", () => {
  const out = paintFirstHtml(BUILT, "/assets/boot-1.js");

  it("starts the entry from the boot script instead of a module script the browser would run before painting", () => {
    expect(out).not.toContain('<script type="module"');
    expect(out).toContain('<script defer fetchpriority="low" src="/assets/boot-1.js" data-entry="/assets/index-1.js"></script>');
  });

  it("still fetches the entry and its imports with the HTML, at low priority", () => {
    expect(out).toContain('<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/index-1.js">');
    expect(out).toContain('<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/react-1.js">');
    expect(out).not.toMatch(/<link rel="modulepreload" crossorigin href=/);
    expect(out).toContain('<link rel="stylesheet" crossorigin href="/assets/index-1.css">');
  });

  it("hints what the entry imports to start, beside the entry", () => {
    const withStart = paintFirstHtml(BUILT, "/assets/boot-1.js", ["/assets/client-1.js"]);
    expect(withStart).toContain('data-entry="/assets/index-1.js"></script>\n    <link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/client-1.js">');
  });

  it("fails the build on an index.html it does not recognise (no entry, or more than one)", () => {
    expect(() => paintFirstHtml("<head></head>", "/b.js")).toThrow(/found 0/);
    const two = BUILT.replace("</head>", '<script type="module" crossorigin src="/assets/other.js"></script></head>');
    expect(() => paintFirstHtml(two, "/b.js")).toThrow(/found 2/);
  });
});
