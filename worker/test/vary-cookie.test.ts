// Public API answers vary by Cookie (worker/http/vary-cookie.ts): a browser that cached the anonymous answer
// must not reuse it once it holds a session cookie.
import { describe, expect, it } from "vitest";
import { CACHE_STATUS_HEADER } from "../http/edge-cache";
import { buyerAccount, signInEthereum } from "./auth-helpers";
import { api } from "./helpers";

const varies = (res: Response) =>
  (res.headers.get("vary") ?? "")
    .split(",")
    .map((v) => v.trim().toLowerCase())
    .includes("cookie");
const PUBLIC_READS = ["/api/market-stats", "/api/prices/live", "/api/config", "/api/addresses/search", "/api/addresses/featured", "/api/health"];

describe("anonymous answers and the browser's cache", () => {
  it("every public answer to a visitor varies by Cookie, on a miss and on an edge-cache hit", async () => {
    const path = `/api/transactions/recent?x=${crypto.randomUUID()}`;
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
    const res = await api("/api/market-stats", { headers: { cookie } });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const personal = await api("/api/auth/session", { headers: { cookie } });
    expect(personal.headers.get("cache-control")).toBe("no-store");
    expect(varies(personal)).toBe(false);
  });
});
