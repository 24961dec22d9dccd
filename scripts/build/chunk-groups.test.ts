import { describe, expect, it } from "vitest";
import { chunkGroupsOf, type ModuleGraph } from "./chunk-groups";

const R = "/repo/web/";
const NM = "/repo/node_modules/";
const m = (imports: string[] = [], dynamicImports: string[] = []) => ({ imports: [...imports, ...dynamicImports], dynamicImports });
const graph: ModuleGraph = new Map([
  [`${R}src/main.tsx`, m([`${R}src/wallet/evm-discovery.ts`], [`${R}src/wallet/dev/index.ts`, `${NM}react-dom/client.js`, `${R}src/app-start.ts`])],
  [`${R}src/wallet/evm-discovery.ts`, m()],
  [`${R}src/wallet/dev/index.ts`, m([`${R}src/api/http.ts`])],
  [`${NM}react-dom/client.js`, m([`${NM}react/index.js`])],
  [`${NM}react/index.js`, m()],
  [
    `${R}src/app-start.ts`,
    m([`${R}src/api/http.ts`, `${NM}react/index.js`, `${R}src/wallet/evm-discovery.ts`], [`${R}src/routes/index.tsx?tsr-split=component`]),
  ],
  [`${R}src/api/http.ts`, m([`${NM}hono/client.js`])],
  [`${NM}hono/client.js`, m()],
  [`${R}src/routes/index.tsx?tsr-split=component`, m([`${R}src/components/Card.tsx`, `${R}src/api/http.ts`], [`${R}src/components/Toaster.tsx`])],
  [`${R}src/routes/marketplace.tsx?tsr-split=component`, m([`${R}src/components/Card.tsx`, `${R}src/components/Table.tsx`])],
  [`${R}src/components/Card.tsx`, m([`${NM}viem/index.js`])],
  [`${R}src/components/Table.tsx`, m()],
  [`${R}src/components/Toaster.tsx`, m()],
  [`${R}src/routes/admin.tsx?tsr-split=component`, m([`${R}src/components/Admin.tsx`])],
  [`${NM}viem/index.js`, m()],
  [`${R}src/components/Admin.tsx`, m()],
]);
const options = {
  entry: "web/src/main.tsx",
  steps: ["react-dom/client.js", "web/src/app-start.ts"],
  landingRoutes: ["src/routes/index.tsx", "src/routes/marketplace.tsx"],
};

describe("chunkGroupsOf", () => {
  const groups = chunkGroupsOf(graph, options);
  const short = new Map([...groups].map(([id, g]) => [id.replace(/^\/repo\//, ""), g]));

  it("puts each start step's static reach in one chunk named after it, what the entry or an earlier step has left out", () => {
    expect(short.get("node_modules/react-dom/client.js")).toBe("client");
    expect(short.get("node_modules/react/index.js")).toBe("client");
    expect(short.get("web/src/app-start.ts")).toBe("app-start");
    expect(short.get("web/src/api/http.ts")).toBe("app-start");
    expect(short.get("node_modules/hono/client.js")).toBe("app-start");
    expect(short.has("web/src/main.tsx")).toBe(false);
    expect(short.has("web/src/wallet/evm-discovery.ts")).toBe(false);
  });

  it("leaves the entry's other dynamic imports, and what is only dynamically imported, to rolldown", () => {
    expect(short.has("web/src/wallet/dev/index.ts")).toBe(false);
    expect(short.has("web/src/components/Toaster.tsx")).toBe(false);
  });

  it("puts the landing routes' own modules beyond the start in one landing chunk: not the routes, their packages or other routes' code", () => {
    expect(short.get("web/src/components/Card.tsx")).toBe("landing");
    expect(short.get("web/src/components/Table.tsx")).toBe("landing");
    expect(short.has("web/src/routes/index.tsx?tsr-split=component")).toBe(false);
    expect(short.has("node_modules/viem/index.js")).toBe(false);
    expect(short.has("web/src/components/Admin.tsx")).toBe(false);
  });

  it("gives the prerender step's server build (no browser entry) no groups, and fails on a renamed step or route", () => {
    expect(chunkGroupsOf(new Map([...graph].filter(([id]) => !id.endsWith("main.tsx"))), options).size).toBe(0);
    expect(() => chunkGroupsOf(graph, { ...options, steps: ["web/src/boot/gone.ts"] })).toThrow(/imports no web\/src\/boot\/gone.ts/);
    expect(() => chunkGroupsOf(graph, { ...options, landingRoutes: ["src/routes/gone.tsx"] })).toThrow(/no split route module/);
  });
});
