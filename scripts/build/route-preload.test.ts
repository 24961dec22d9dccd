import { describe, expect, it } from "vitest";
import { routeHintHeaders, routeScriptFiles } from "./route-preload";

const manifest = {
  "index.html": { file: "assets/index-1.js", isEntry: true, imports: ["_react.js"], dynamicImports: ["src/app-start.ts"] },
  "src/app-start.ts": { file: "assets/app-start-1.js", imports: ["_shared.js"] },
  "_react.js": { file: "assets/react-1.js" },
  "_shared.js": { file: "assets/shared-1.js" },
  "_card.js": { file: "assets/card-1.js", imports: ["_shared.js"] },
  "src/routes/index.tsx?tsr-split=component": { file: "assets/home-1.js", imports: ["index.html", "_card.js", "_react.js"] },
  "src/routes/marketplace.tsx?tsr-split=component": { file: "assets/market-1.js", imports: ["index.html"] },
};

describe("routeScriptFiles", () => {
  it("names a route's own chunks, not the entry's nor those of what the entry imports to start", () => {
    expect(routeScriptFiles(manifest, "src/routes/index.tsx")).toEqual(["assets/home-1.js", "assets/card-1.js"]);
    expect(routeScriptFiles(manifest, "src/routes/marketplace.tsx")).toEqual(["assets/market-1.js"]);
  });

  it("fails the build when a route has no split chunk", () => {
    expect(() => routeScriptFiles(manifest, "src/routes/x.tsx")).toThrow(/no split chunk/);
  });
});

describe("routeHintHeaders", () => {
  it("preloads each route's first reads, credentials included; its scripts are hinted in the page, not here", () => {
    const text = routeHintHeaders(manifest, [
      { path: "/", routeSource: "src/routes/index.tsx", fetches: ["/api/a"] },
      { path: "/marketplace", routeSource: "src/routes/marketplace.tsx", fetches: [] },
    ]);
    expect(text.split("\n").slice(1)).toEqual(["/", "  Link: </api/a>; rel=preload; as=fetch; crossorigin=use-credentials", ""]);
  });

  it("fails the build when a route has no split chunk (a renamed route would otherwise lose its hints silently)", () => {
    expect(() => routeHintHeaders(manifest, [{ path: "/x", routeSource: "src/routes/x.tsx", fetches: [] }])).toThrow(/no split chunk/);
  });
});
