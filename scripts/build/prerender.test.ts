import { describe, expect, it } from "vitest";
import { disableControls, pageHtml } from "./prerender";

const SHELL = `<!doctype html><html><head><title>Vanity Addresses</title><link rel="stylesheet" crossorigin href="/assets/index-abc.css"></head><body><div id="root"></div></body></html>`;

describe("pageHtml", () => {
  const out = pageHtml(SHELL, { html: "<title>Marketplace · 0xVanity</title><main><h1>Market</h1></main>", routeId: "/marketplace" });

  it("puts the rendered tree in #root, marked with its route, and the route's title in <head>", () => {
    expect(out).toContain('<div id="root" data-prerendered-route="/marketplace"><main><h1>Market</h1></main></div>');
    expect(out).toContain("<head><title>Marketplace · 0xVanity</title>");
    expect(out.match(/<title>/g)).toHaveLength(1);
  });

  it("keeps the shell's stylesheet linked in <head>, not inlined", () => {
    expect(out).toContain('<link rel="stylesheet" crossorigin href="/assets/index-abc.css"></head>');
    expect(out).not.toContain("<style>");
  });

  it("names the route's own scripts on #root for the boot script", () => {
    const page = pageHtml(SHELL, { html: "<title>t</title>", routeId: "/" }, ["/assets/home-1.js", "/assets/card-1.js"]);
    expect(page).toContain('<div id="root" data-prerendered-route="/" data-route-modules="/assets/home-1.js /assets/card-1.js">');
    expect(out).not.toContain("data-route-modules");
  });

  it("disables the page's controls until the app renders over it, once each", () => {
    const page = pageHtml(SHELL, {
      html: '<title>t</title><input id="q" value=""/><button type="button" disabled="">Prev</button><button type="submit">Go</button><select id="s"></select><textarea rows="2"></textarea><a href="/x">x</a>',
      routeId: "/",
    });
    expect(page).toContain(
      '<input disabled="" id="q" value=""/><button type="button" disabled="">Prev</button><button disabled="" type="submit">Go</button><select disabled="" id="s"></select><textarea disabled="" rows="2"></textarea><a href="/x">x</a>',
    );
    expect(disableControls("<buttons><inputs>")).toBe("<buttons><inputs>");
  });

  it("escapes the route id in the attribute", () => {
    expect(pageHtml(SHELL, { html: "<title>t</title>", routeId: '/a"b<c' })).toContain('data-prerendered-route="/a&quot;b&lt;c"');
  });

  it("refuses a shell or a render it cannot assemble into a page that hydrates", () => {
    expect(() => pageHtml(SHELL.replace('<div id="root"></div>', "<div id=app></div>"), { html: "<title>t</title>", routeId: "/" })).toThrow(
      /no <div id="root">/,
    );
    expect(() => pageHtml(SHELL, { html: "<p>no title</p>", routeId: "/" })).toThrow(/0 titles/);
    expect(() => pageHtml(SHELL, { html: "<title>a</title><title>b</title>", routeId: "/" })).toThrow(/2 titles/);
    expect(() => pageHtml(SHELL.replace(/<link[^>]*>/, ""), { html: "<title>t</title>", routeId: "/" })).toThrow(/links 0 stylesheets/);
    const twoSheets = SHELL.replace("</head>", '<link rel="stylesheet" href="/assets/b.css"></head>');
    expect(() => pageHtml(twoSheets, { html: "<title>t</title>", routeId: "/" })).toThrow(/links 2 stylesheets/);
  });
});
