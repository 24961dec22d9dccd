import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, type Session } from "./browser";

describe("smoke", () => {
  let s: Session;
  beforeAll(async () => {
    s = await openBrowser();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("the home page loads with the hero", async () => {
    const res = await s.page.goto(s.baseUrl + "/");
    expect(res?.status()).toBe(200);
    await s.page.getByRole("heading", { name: "Vanity Addresses" }).waitFor();
    expect(res?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  });

  it("navigation reaches every built page", async () => {
    const links = await s.page.locator("footer nav a, header nav a").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
    const paths = [...new Set(links)];
    expect(paths).toContain("/terms-of-service");
    for (const path of paths) {
      await s.page.goto(s.baseUrl + "/");
      await s.page.locator(`footer nav a[href="${path}"]`).first().click();
      await s.page.waitForURL((url) => url.pathname === path);
      await expect(s.page.locator("main h1").first().textContent()).resolves.toBeTruthy();
      expect(await s.page.locator("main").textContent()).not.toContain("404 Page Not Found");
    }
    await s.page.getByRole("link", { name: "Terms of Service" }).first().click();
    await s.page.getByRole("heading", { name: "Terms of Service" }).waitFor();
  });

  it("the browser runs React's production build, the one `npm start` and a deploy ship", async () => {
    // The e2e set-up builds the app under vitest (NODE_ENV=test); unpinned, Vite bundled React's development build.
    await s.page.goto(s.baseUrl + "/marketplace");
    await s.page.waitForLoadState("networkidle");
    const scripts = await s.page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((e) => e.name)
        .filter((url) => url.endsWith(".js")),
    );
    expect(scripts.length).toBeGreaterThan(3);
    for (const url of scripts) {
      const text = await (await s.page.request.get(url)).text();
      expect(/react-stack-top-frame|cannot be a descendant of/.test(text), `${url} is React's development build`).toBe(false);
    }
  });

  it("an unknown path shows the 404 page (status 200 from the SPA fallback)", async () => {
    const res = await s.page.goto(s.baseUrl + "/definitely/not/here");
    expect(res?.status()).toBe(200);
    await s.page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
  });

  it("an unknown API path is a JSON 404, not the SPA", async () => {
    const res = await fetch(s.baseUrl + "/api/definitely-not-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "Not Found" });
  });

  it("the browser console shows no errors", () => {
    expect(s.errors).toEqual([]);
  });
});
