// Public API answers vary by Cookie (worker/http/vary-cookie.ts): a browser that cached the anonymous answer
// must not reuse it once it holds a session cookie.
import { describe, expect, it } from "vitest";
import { CACHE_STATUS_HEADER } from "../http/edge-cache";
import { buyerAccount, signInEthereum } from "./auth-helpers";
import { api } from "./helpers";
import { type Answer, client } from "./client";

const varies = (res: Answer) =>
  (res.headers.get("vary") ?? "")
    .split(",")
    .map((v) => v.trim().toLowerCase())
    .includes("cookie");
const routes = client();
const PUBLIC_READS = [
  routes["market-stats"].$path(),
  routes.prices.live.$path(),
  routes.config.$path(),
  routes.addresses.search.$path(),
  routes.addresses.featured.$path(),
  routes.health.$path(),
];

describe("anonymous answers and the browser's cache", () => {
  it("every public answer to a visitor varies by Cookie, on a miss and on an edge-cache hit", async () => {
    // A query key of no meaning makes a cache entry of its own (raw: the route takes no query).
    const path = `${routes.transactions.recent.$path()}?x=${crypto.randomUUID()}`;
    const miss = await api(path);
    expect(miss.headers.get(CACHE_STATUS_HEADER)).toBe("MISS");
    const hit = await api(path);
    expect(hit.headers.get(CACHE_STATUS_HEADER)).toBe("HIT");
    for (const res of [miss, hit]) {
      expect(res.headers.get("cache-control")).toBe("public, max-age=30");
      expect(varies(res)).toBe(true);
    }
    let publicAnswers = 0;
    for (const route of PUBLIC_READS) {
      const res = await api(route);
      expect(res.status, route).toBe(200);
      if (/\bpublic\b/.test(res.headers.get("cache-control") ?? "")) {
        publicAnswers++;
        expect(varies(res), route).toBe(true);
      }
    }
    expect(publicAnswers).toBeGreaterThanOrEqual(3);
  });

  it("answers that are not public are left alone: signed in the same reads are private, no-store", async () => {
    const { cookie } = await signInEthereum(buyerAccount);
    const res = await client(undefined, { cookie })["market-stats"].$get();
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const personal = await client(undefined, { cookie }).auth.session.$get();
    expect(personal.headers.get("cache-control")).toBe("no-store");
    expect(varies(personal)).toBe(false);
  });
});
