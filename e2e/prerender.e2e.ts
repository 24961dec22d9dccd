// The landing pages arrive prerendered (scripts/build/prerender.ts, worker/landing/pages.ts): the HTML alone shows the
// page; the app (web/src/main.tsx) then renders over it once the route's first reads have answered, with no
// console error (also for a returning visitor whose stored wallet differs from what was prerendered) and
// without moving the header. Any other URL gets the empty shell and renders at once.
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { openBrowser, type Page, type Session } from "./browser";
import { ensureUser, insertListings } from "./listings-db";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

let listingId = 0;
const LISTING_ADDRESS = "0x000000009e9e9e9e9e9e9e9e9e9e9e9e9e9e9e9e";
beforeAll(async () => {
  const seller = await ensureUser("e2e_prerender_seller", "0x000000000000000000000000000000000000beef");
  [listingId] = await insertListings([
    {
      address: LISTING_ADDRESS,
      network: "ethereum",
      price: "0.05",
      rarity: 7,
      category: "leading-zeros",
      pattern: "00000000",
      patternLength: 8,
      sellerId: seller,
      createdAt: Date.now() - 3_600_000,
    },
  ]);
}, 120_000);

/**
 * Opens `/`, `/marketplace` and a listing in turn and lets each settle, including what renders after the first
 * commit (the marketplace's other rows, the listing's sections below the first screen), then runs `check`.
 */
async function settleEachLandingPage(session: Session, check: (path: string) => Promise<void>) {
  for (const c of [
    { path: "/", ready: "market-stats" },
    { path: "/marketplace", ready: "results-range" },
    { path: `/address/${listingId}`, ready: "purchase-breakdown" },
  ]) {
    await session.page.goto(`${session.baseUrl}${c.path}`);
    await session.page.getByTestId(c.ready).first().waitFor();
    await session.page.waitForLoadState("networkidle");
    await session.page.mouse.wheel(0, 4000);
    await session.page.waitForTimeout(300);
    await check(c.path);
  }
}

/** What an init script collected in `window[name]` (an array or a set). */
function recorded(page: Page, name: string): Promise<string[]> {
  return page.evaluate((key) => [...(window as unknown as Record<string, Iterable<string>>)[key]], name);
}

/** Remembers where the header and the first heading were as the HTML delivered them, before any script ran. */
async function markDeliveredLayout(page: Page) {
  await page.addInitScript(() => {
    // Every layout shift of the page's life, as CLS counts them; and which of them moved the listing's first
    // screen (its summary with the address, the price, the grid holding the price): those the Worker rendered.
    const w = window as unknown as { __shifted?: number; __firstScreenShifts?: string[] };
    w.__shifted = 0;
    w.__firstScreenShifts = [];
    const SECTIONS = 'section[aria-labelledby="listing-address"], section[aria-labelledby="price-title"]';
    const GRID = 'main .grid:has(> section[aria-labelledby="price-title"])';
    type Shift = PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
    };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Shift[]) {
        if (e.hadRecentInput) continue;
        w.__shifted! += e.value;
        for (const src of e.sources) {
          const el = src.node instanceof Element ? src.node : src.node?.parentElement;
          if (el?.closest(SECTIONS) || el?.matches(GRID))
            w.__firstScreenShifts!.push(`${el.tagName}.${el.className}: ${JSON.stringify(src.previousRect)} -> ${JSON.stringify(src.currentRect)}`);
        }
      }
    }).observe({ type: "layout-shift", buffered: true });
    // The marketplace's results start below the featured strip: they stay put when its cards replace their placeholders.
    const RESULTS = 'section[aria-labelledby="results-title"]';
    const measure = () => {
      const box = (sel: string) => {
        const r = document.querySelector(sel)?.getBoundingClientRect();
        return r ? [r.top, r.height] : null;
      };
      (window as unknown as { __delivered?: unknown }).__delivered = {
        header: box("header"),
        h1: box("main h1"),
        results: document.querySelector(RESULTS)?.getBoundingClientRect().top ?? null,
        rendered: !!document.querySelector("#root header"),
      };
    };
    // As first painted: once the page is parsed and its stylesheet (render-blocking, so painted with it) is in.
    document.addEventListener("DOMContentLoaded", () => {
      const sheet = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');
      if (!sheet || sheet.sheet) measure();
      else sheet.addEventListener("load", measure, { once: true });
    });
  });
}

/** The delivered layout, and the header's and heading's places now: the same when the app did not move them. */
const layouts = (page: Page) =>
  page.evaluate(() => {
    const box = (sel: string) => {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      return r ? [r.top, r.height] : null;
    };
    const delivered = (window as unknown as { __delivered?: { header: unknown; h1: unknown; results: unknown; rendered: boolean } }).__delivered;
    return {
      delivered,
      now: {
        header: box("header"),
        h1: box("main h1"),
        results: document.querySelector('section[aria-labelledby="results-title"]')?.getBoundingClientRect().top ?? null,
        rendered: true,
      },
    };
  });

describe("prerendered landing pages", () => {
  it("the HTML alone carries each page's heading, title and preload hints; other paths get the empty shell", async () => {
    const base = inject("baseUrl");
    const pages = [
      { path: "/", route: "/", h1: "Vanity Addresses", title: "0xVanity: vanity Ethereum and Solana addresses" },
      { path: "/marketplace", route: "/marketplace", h1: "Premium Vanity Address Marketplace", title: "Marketplace · 0xVanity" },
      { path: `/address/${listingId}`, route: "/address/$id", h1: null, title: `Listing #${listingId} · 0xVanity` },
    ];
    for (const p of pages) {
      const res = await fetch(base + p.path);
      expect(res.status, p.path).toBe(200);
      const html = await res.text();
      expect(html, p.path).toContain(`data-prerendered-route="${p.route}"`);
      expect(html, p.path).toContain(`<title>${p.title}</title>`);
      if (p.h1) expect(html, p.path).toContain(`>${p.h1}</h1>`);
      // One stylesheet, linked in <head> (render-blocking, so the page never paints unstyled) and not inlined:
      // the HTML stays small enough for the first round trip, and the sheet is fetched once for every page.
      expect(html.slice(0, html.indexOf("</head>")).match(/<link rel="stylesheet"[^>]*>/g), p.path).toHaveLength(1);
      expect(html, p.path).not.toMatch(/<style>/);
      const sheet = html.match(/<link rel="stylesheet"[^>]*href="([^"]+)"/)?.[1];
      expect((await fetch(base + sheet)).headers.get("cache-control"), p.path).toBe("public, max-age=31536000, immutable");
      // The page's own _headers preload hints for its first reads still come with it (the Worker serves / and
      // /address/{id}); its scripts are named for the boot script, which asks for them after the first paint,
      // and none is a module script the browser would run before painting (scripts/build/paint-first.ts).
      expect(res.headers.get("link") ?? "", p.path).toMatch(/rel=preload; as=fetch/);
      expect(html, p.path).toMatch(/data-route-modules="\/assets\/[^"]+\.js/);
      expect(html, p.path).not.toContain('<script type="module"');
      expect(html, p.path).not.toContain('<link rel="modulepreload"');
      // A raster icon: an SVG one is a document of its own that the page's thread lays out (text and all) while
      // the app starts.
      expect(html, p.path).toContain('<link rel="icon" type="image/png"');
      expect(html, p.path).not.toMatch(/<link rel="icon"[^>]*svg/);
      // The inline boot script is allowed by its hash, and only it: script-src is otherwise 'self'.
      expect(res.headers.get("content-security-policy") ?? "", p.path).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
    }
    // The listing's page carries the listing (worker/landing/listing-page.ts): its address is the heading, and its read
    // is in the page, so the page no longer preloads it for a visitor without a session.
    const listingPage = await fetch(`${base}/address/${listingId}`);
    const listingHtml = await listingPage.text();
    expect(listingHtml).toMatch(new RegExp(`<h1 id="listing-address"[^>]*>.*${LISTING_ADDRESS.slice(10)}.*</h1>`));
    expect(listingHtml).toContain(`<script type="application/json" id="listing-data">{"id":"${listingId}","listing":{"id":${listingId},`);
    expect(listingPage.headers.get("cache-control")).toBe("no-cache");
    expect(listingPage.headers.get("link") ?? "").not.toContain(`</api/addresses/${listingId}>`);
    expect(listingPage.headers.get("link") ?? "").toContain(`</api/addresses/${listingId}/context>`);
    // An id nobody can see gets the plain shell with its placeholders.
    const unknown = await (await fetch(`${base}/address/987654321`)).text();
    expect(unknown).toContain('data-listing-slot="summary"');
    expect(unknown).not.toContain("listing-data");
    const shell = await (await fetch(`${base}/profile`)).text();
    expect(shell).toContain('<div id="root"></div>');
    expect(shell).not.toContain("data-prerendered-route");
  });

  it("paints /, /marketplace and a listing from the HTML, then shows their data in place, without a console error", async () => {
    s = await openBrowser();
    await markDeliveredLayout(s.page);
    await s.page.setViewportSize({ width: 390, height: 844 });

    await s.page.goto(`${s.baseUrl}/`);
    await s.page.getByTestId("market-stats").waitFor();
    let l = await layouts(s.page);
    expect(l.delivered).toEqual(l.now);

    await s.page.goto(`${s.baseUrl}/marketplace`);
    await s.page.getByTestId("results-range").filter({ hasText: /\d/ }).waitFor();
    await s.page.getByTestId("listing-card").first().waitFor();
    l = await layouts(s.page);
    expect(l.delivered?.results).not.toBeNull();
    expect(l.delivered).toEqual(l.now);

    // The listing arrives with its address in the HTML; the app renders over it (the breakdown is the app's
    // alone) without moving the header or the address, and without reading the listing again.
    const listingReads: string[] = [];
    s.page.on("request", (req) => {
      if (new URL(req.url()).pathname === `/api/addresses/${listingId}`) listingReads.push(req.url());
    });
    await s.page.goto(`${s.baseUrl}/address/${listingId}`);
    await s.page.getByTestId("purchase-breakdown").waitFor();
    await s.page.getByTestId("detail-skeleton").waitFor({ state: "detached" });
    l = await layouts(s.page);
    expect(l.delivered?.h1).not.toBeNull();
    expect(l.delivered).toEqual(l.now);
    expect(await s.page.locator("main h1").textContent()).toBe(LISTING_ADDRESS);
    expect(listingReads).toEqual([]);
    // Nothing the Worker rendered moved (the summary, with its Explorer note, rendered as the HTML had it); the
    // page as a whole stays far under CLS 0.05 (the breakdown's amounts may still widen as the fees arrive).
    await s.page.waitForTimeout(300);
    const shifts = await s.page.evaluate(() => {
      const w = window as unknown as { __shifted: number; __firstScreenShifts: string[] };
      return { __shifted: w.__shifted, __firstScreenShifts: w.__firstScreenShifts };
    });
    expect(shifts.__firstScreenShifts).toEqual([]);
    expect(shifts.__shifted).toBeLessThan(0.01);
    expect(await s.page.title()).toBe(`Listing #${listingId} · 0xVanity`);

    expect(s.errors).toEqual([]);
  });

  it("each landing page paints before any of the app's script is fetched or evaluated", async () => {
    s = await openBrowser();
    // How many modulepreload hints each task added: a mutation observer's callback runs once at the end of each
    // task that changed the document.
    await s.page.addInitScript(() => {
      const batches: number[] = [];
      (window as unknown as { __hintBatches: number[] }).__hintBatches = batches;
      new MutationObserver((records) => {
        const hints = records.flatMap((r) => [...r.addedNodes]).filter((n) => n instanceof HTMLLinkElement && n.rel === "modulepreload").length;
        if (hints) batches.push(hints);
      }).observe(document, { childList: true, subtree: true });
    });
    // Each page as on a first visit: scripts the previous page left in the renderer's memory cache would be
    // reused without a request (and without a resource timing entry to check).
    await (await s.context.newCDPSession(s.page)).send("Network.setCacheDisabled", { cacheDisabled: true });
    const checks = [
      { path: "/", ready: "market-stats" },
      { path: "/marketplace", ready: "results-range" },
      // Not the price: the Worker renders it into the HTML, so it is there before any script has arrived.
      { path: `/address/${listingId}`, ready: "purchase-breakdown" },
      // The empty shell has nothing to paint first: the app starts at once (and must start at all).
      { path: "/terms-of-service", ready: null },
    ];
    for (const c of checks) {
      await s.page.goto(`${s.baseUrl}${c.path}`);
      await s.page.waitForFunction(() => performance.getEntriesByName("app-entry-start").length > 0);
      if (c.ready) await s.page.getByTestId(c.ready).first().waitFor();
      // web/src/boot/start-after-paint.ts marks the moment it asks for the entry; nothing else starts the app.
      const t = await s.page.evaluate(() => ({
        paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
        entry: performance.getEntriesByName("app-entry-start")[0]?.startTime ?? null,
        modules: document.querySelectorAll('script[type="module"]').length,
        scriptStarts: performance
          .getEntriesByType("resource")
          .filter((r) => r.name.endsWith(".js"))
          .map((r) => r.startTime),
      }));
      expect(t.entry, c.path).not.toBeNull();
      expect(t.modules, c.path).toBe(0);
      if (!c.ready) continue;
      expect(t.paint, c.path).not.toBeNull();
      expect(t.paint!, c.path).toBeLessThanOrEqual(t.entry!);
      expect(t.scriptStarts.length, c.path).toBeGreaterThan(0);
      expect(Math.min(...t.scriptStarts), c.path).toBeGreaterThanOrEqual(t.paint!);
      // The boot script hints everything the start and the route need (a few per task), and nothing twice.
      const hints = await s.page.evaluate(() => ({
        wanted: [
          ...(document.querySelector<HTMLScriptElement>("script[data-modules]")?.dataset.modules ?? "").split(" "),
          ...(document.getElementById("root")?.dataset.routeModules ?? "").split(" "),
        ].filter((m) => m && m !== document.querySelector<HTMLScriptElement>("script[data-entry]")?.dataset.entry),
        hinted: [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => new URL(l.href).pathname),
        // Read with the links, in the same task: the app's own lazy imports may add hints of their own later.
        batches: [...(window as unknown as { __hintBatches: number[] }).__hintBatches],
      }));
      // A handful: the landing routes' scripts come in a few chunks (scripts/build/chunk-groups.ts).
      expect(hints.wanted.length, c.path).toBeGreaterThan(3);
      expect(hints.hinted, c.path).toEqual(expect.arrayContaining(hints.wanted));
      expect(new Set(hints.hinted).size, c.path).toBe(hints.hinted.length);
      // A few per task: the two dozen added in one task were a 10-40 ms task at Lighthouse's 4x CPU.
      expect(
        hints.batches.reduce((a, b) => a + b, 0),
        c.path,
      ).toBe(hints.hinted.length);
      expect(Math.max(...hints.batches), c.path).toBeLessThanOrEqual(6);
      // The page's own <link> fetched the stylesheet; the app's lazy routes do not fetch it again, which cost a
      // second parse of the sheet and a style recalculation of the whole page while the app rendered.
      const sheets = await s.page.evaluate(() => performance.getEntriesByType("resource").filter((r) => /\.css(\?|$)/.test(r.name)).length);
      expect(sheets, c.path).toBe(1);
    }
    expect(s.errors).toEqual([]);
  });

  it("no landing page starts ICU while it starts: figures and dates are written out (web/src/lib/number-format.ts, web/src/lib/date-format.ts)", async () => {
    s = await openBrowser();
    // A page's first Intl formatter (or toLocaleString) loads ICU's data: a 10-15 ms task on this machine, 40-60 ms
    // on Lighthouse's slow phone, in the middle of the app's start. Every use while the pages start is recorded.
    await s.page.addInitScript(() => {
      const used: string[] = [];
      (window as unknown as { __intl: string[] }).__intl = used;
      const record = (what: string) => used.push(`${what} ${new Error().stack?.split("\n").slice(2, 4).join(" <")}`);
      const intl = Intl as unknown as Record<string, new (...args: unknown[]) => object>;
      for (const name of ["DateTimeFormat", "NumberFormat", "PluralRules", "RelativeTimeFormat", "ListFormat", "Collator", "Segmenter", "DisplayNames"]) {
        const Original = intl[name];
        intl[name] = new Proxy(Original, {
          construct: (target, args) => {
            record(`Intl.${name}`);
            return Reflect.construct(target, args);
          },
          apply: (target, self, args) => {
            record(`Intl.${name}`);
            return Reflect.apply(target, self, args);
          },
        });
      }
      const methods: [object, string][] = [
        [Number.prototype, "toLocaleString"],
        [BigInt.prototype, "toLocaleString"],
        [Date.prototype, "toLocaleString"],
        [Date.prototype, "toLocaleDateString"],
        [Date.prototype, "toLocaleTimeString"],
        [String.prototype, "localeCompare"],
      ];
      for (const [proto, name] of methods) {
        const original = (proto as Record<string, (...args: unknown[]) => unknown>)[name];
        Object.defineProperty(proto, name, {
          configurable: true,
          writable: true,
          value(this: unknown, ...args: unknown[]) {
            record(name);
            return original.apply(this, args);
          },
        });
      }
    });
    await settleEachLandingPage(s, async (path) => expect(await recorded(s!.page, "__intl"), path).toEqual([]));
    expect(s.errors).toEqual([]);
  });

  it("nothing animates or blurs while a landing page starts: placeholders are still, the header is opaque", async () => {
    s = await openBrowser();
    // Every frame that changes is composited again (and, under Lighthouse, screenshotted): a pulsing placeholder
    // or a spinner makes one every 16 ms while the app starts, on the same two cores as its script. Each frame's
    // running animations are recorded from the first paint until the page has settled.
    await s.page.addInitScript(() => {
      const seen = new Set<string>();
      (window as unknown as { __animations: Set<string> }).__animations = seen;
      const sample = () => {
        for (const a of document.getAnimations()) {
          const target = (a.effect as KeyframeEffect | null)?.target;
          seen.add(`${(a as CSSAnimation).animationName ?? a.constructor.name} on ${target?.className ?? "?"}`);
        }
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    await settleEachLandingPage(s, async (path) => {
      expect(await recorded(s!.page, "__animations"), path).toEqual([]);
      expect(
        await s!.page
          .locator("header")
          .first()
          .evaluate((h) => getComputedStyle(h).backdropFilter),
        path,
      ).toBe("none");
    });
    expect(s.errors).toEqual([]);
  });

  it("the app renders a landing page once, with its first reads in: no placeholder comes back after the HTML's", async () => {
    s = await openBrowser();
    // main.tsx renders over a prerendered page once the reads in flight have answered; a read the route's loader
    // does not start is only started by that render, which then shows its placeholder and renders the page a
    // second time (another commit, style and layout) when it answers. Every element the app adds is checked.
    await s.page.addInitScript(() => {
      const placeholders: string[] = [];
      (window as unknown as { __placeholders: string[] }).__placeholders = placeholders;
      const PLACEHOLDER = '[data-testid$="skeleton"], [data-testid="table-skeleton-row"], [data-testid="results-loading"], [aria-busy="true"]';
      document.addEventListener("DOMContentLoaded", () => {
        new MutationObserver((records) => {
          for (const r of records)
            for (const node of r.addedNodes) {
              if (!(node instanceof Element)) continue;
              for (const el of [node, ...node.querySelectorAll(PLACEHOLDER)])
                if (el.matches(PLACEHOLDER)) placeholders.push(el.getAttribute("data-testid") ?? `${el.tagName} aria-busy`);
            }
        }).observe(document.getElementById("root")!, { childList: true, subtree: true });
      });
    });
    await settleEachLandingPage(s, async (path) => expect(await recorded(s!.page, "__placeholders"), path).toEqual([]));
    expect(s.errors).toEqual([]);
  });

  it("a listing's address and price show with JavaScript off, in the place the app renders them", async () => {
    // JavaScript off in the browser: not even the inline boot script runs (a failed start would reload the page).
    s = await openBrowser({ javaScript: false });
    await s.page.setViewportSize({ width: 390, height: 844 });
    await s.page.goto(`${s.baseUrl}/address/${listingId}`);
    const h1 = s.page.locator("h1#listing-address");
    expect(await h1.textContent()).toBe(LISTING_ADDRESS);
    expect(await s.page.getByTestId("detail-price").textContent()).toBe("0.05 ETH");
    expect(await s.page.locator("#root header").count()).toBe(1);
    const withoutScript = await h1.boundingBox();
    expect(withoutScript?.height).toBeGreaterThan(0);

    await s.close();
    s = await openBrowser();
    await s.page.setViewportSize({ width: 390, height: 844 });
    await s.page.goto(`${s.baseUrl}/address/${listingId}`);
    await s.page.getByTestId("purchase-breakdown").waitFor();
    expect(await s.page.locator("h1#listing-address").boundingBox()).toEqual(withoutScript);
    expect(s.errors).toEqual([]);
  });

  it("a start whose module does not arrive reloads the page once; a start that keeps failing is not retried in a loop", async () => {
    s = await openBrowser();
    const { page, baseUrl } = s;
    const entry = /data-entry="([^"]+)"/.exec(await (await fetch(`${baseUrl}/`)).text())?.[1];
    expect(entry).toMatch(/\.js$/);
    let loads = 0;
    // Documents asked for (a reload is one; the router's history writes are not).
    page.on("request", (req) => {
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) loads++;
    });
    // The entry module fails as a dropped connection would, on the first load only (web/src/boot/start-after-paint.ts).
    let failFor = 1;
    await page.route(`**${entry}`, (route) => (loads <= failFor ? route.abort("connectionreset") : route.continue()));
    const button = page.getByRole("banner").getByTestId("wallet-button");
    await page.goto(`${baseUrl}/`);
    await expect.poll(() => button.isEnabled(), { timeout: 20_000 }).toBe(true);
    expect(loads).toBe(2);
    expect(s.errors.filter((e) => e.includes("the app did not start"))).toHaveLength(1);

    // A new visit in the same tab may reload again (the flag was cleared); one that keeps failing reloads once and
    // then stays on the prerendered page, its controls disabled, instead of asking the server in a loop.
    failFor = Number.POSITIVE_INFINITY;
    loads = 0;
    await page.goto(`${baseUrl}/`);
    await expect.poll(() => s!.errors.filter((e) => e.includes("the app did not start")).length, { timeout: 20_000 }).toBe(3);
    await page.waitForTimeout(1500);
    expect(loads).toBe(2);
    expect(await button.isDisabled()).toBe(true);
    await page.unrouteAll();

    // A module the entry imports while it starts (main.tsx reports that failure to the boot script): the same.
    await page.evaluate(() => sessionStorage.clear());
    loads = 0;
    await page.route("**/assets/app-start-*.js", (route) => (loads <= 1 ? route.abort("connectionreset") : route.continue()));
    await page.goto(`${baseUrl}/`);
    await expect.poll(() => button.isEnabled(), { timeout: 20_000 }).toBe(true);
    expect(loads).toBe(2);
    expect(s.errors.filter((e) => e.includes("the app did not start"))).toHaveLength(4);
  });

  it("a returning visitor's stored wallet renders without an error (the page was prerendered signed out)", async () => {
    s = await openBrowser();
    await s.page.addInitScript(() => {
      localStorage.setItem("walletAddress", "0x000000000000000000000000000000000000beef");
      localStorage.setItem("walletNetwork", "ethereum");
      localStorage.setItem("walletType", "injected");
      localStorage.setItem("isWalletConnected", "true");
    });
    await s.page.goto(`${s.baseUrl}/`);
    await s.page.getByTestId("market-stats").waitFor();
    // The server has no session for it, so the app signs the stale wallet out (it may log that check).
    expect(s.errors.filter((e) => /hydrat|Minified React error/i.test(e))).toEqual([]);
  });

  it("the marketplace's results commit their first rows first and the rest of the page after", async () => {
    s = await openBrowser();
    await s.page.setViewportSize({ width: 390, height: 844 });
    // Each MutationObserver callback follows one task's changes to the page, i.e. one of React's commits.
    await s.page.addInitScript(() => {
      const w = window as unknown as { __rowCounts?: number[] };
      w.__rowCounts = [];
      document.addEventListener("DOMContentLoaded", () => {
        const root = document.getElementById("root")!;
        new MutationObserver(() => w.__rowCounts!.push(root.querySelectorAll('[data-testid="listing-row"]').length)).observe(root, {
          childList: true,
          subtree: true,
        });
      });
    });
    await s.page.goto(`${s.baseUrl}/marketplace`);
    await s.page.getByTestId("results-range").filter({ hasText: /\d/ }).waitFor();
    await expect.poll(() => s!.page.getByTestId("listing-row").count()).toBe(20);
    const counts = await s.page.evaluate(() => (window as unknown as { __rowCounts: number[] }).__rowCounts.filter((n) => n > 0));
    // The first commit with rows had the first screen's, a later one the whole page's.
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[0]).toBeLessThanOrEqual(5);
    expect(counts.at(-1)).toBe(20);
    expect(s.errors).toEqual([]);
  });

  it("a URL with a query string renders its own state over the same page, without a console error", async () => {
    s = await openBrowser();
    await s.page.goto(`${s.baseUrl}/marketplace?search=9e9e`);
    await s.page.getByTestId("results-range").filter({ hasText: /\d/ }).waitFor();
    expect(await s.page.getByRole("searchbox", { name: "Search addresses" }).inputValue()).toBe("9e9e");
    expect(s.errors).toEqual([]);
  });
});
