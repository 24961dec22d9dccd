// worker/landing/listing-page.ts through servePrerenderedPage: the page for /address/{id} carries the listing a visitor
// without a session is shown, read through the real API and D1. The assets are a stand-in shell with the
// listing skeleton's two placeholders (the worker tests run without a built SPA); e2e/prerender.e2e.ts checks
// the real built page in a browser.
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ListingView } from "../../schema/browse";
import { EMBEDDED_LISTING_ELEMENT_ID, type EmbeddedListing } from "../../schema/embedded-listing";
import { anonymousListing, listingPageId, scriptSafeJson, withoutListingPreload } from "../landing/listing-page";
import { servePrerenderedPage } from "../landing/pages";
import { foundOrder } from "./custom-order-fixtures";
import { insertListing } from "./browse-fixtures";
import { actors, ethWallet, type Wallet } from "./purchase-fixtures";
import { client } from "./client";

const SUMMARY_PLACEHOLDER = '<div data-listing-slot="summary" class="animate-pulse" aria-hidden="true"><div class="h-8"></div></div>';
const PRICE_PLACEHOLDER = '<div data-listing-slot="price" class="h-48" aria-hidden="true"></div>';
const SHELL = `<!doctype html><html><head><title>Listing #0 · 0xVanity</title></head><body><div id="root" data-prerendered-route="/address/$id"><main><div data-testid="detail-skeleton">${SUMMARY_PLACEHOLDER}<div class="grid">${PRICE_PLACEHOLDER}<div class="h-48"></div></div></div></main></div></body></html>`;

const assetsEnv = {
  ...env,
  ASSETS: {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      const path = new URL(req.url).pathname;
      const headers = new Headers({ "content-type": "text/html; charset=utf-8", etag: '"shell"' });
      const id = /^\/address\/([^/]+)/.exec(path)?.[1];
      if (id)
        headers.set(
          "Link",
          `</assets/address._id-x.js>; rel=modulepreload, </api/addresses/${id}>; rel=preload; as=fetch; crossorigin=use-credentials, </api/config>; rel=preload; as=fetch`,
        );
      return new Response(req.method === "HEAD" ? null : SHELL, { headers });
    },
  } as unknown as Fetcher,
};

/** The Worker's own API, as worker/index.ts hands it over. */
const ownApi = (req: Request) => SELF.fetch(req);

async function page(path: string, headers: Record<string, string> = {}, apiFetch = ownApi) {
  const res = (await servePrerenderedPage(new Request(`http://localhost${path}`, { headers }), assetsEnv, apiFetch))!;
  return { res, html: await res.text() };
}

const embeddedRe = new RegExp(`<script type="application/json" id="${EMBEDDED_LISTING_ELEMENT_ID}">([\\s\\S]*?)</script>`);
const embedded = (html: string) => {
  const m = embeddedRe.exec(html);
  return m ? (JSON.parse(m[1]) as EmbeddedListing) : null;
};

/** What the page carries when there is nothing for a visitor: the shell's placeholders, no data. */
function expectPlainShell(html: string) {
  expect(html).toContain(SUMMARY_PLACEHOLDER);
  expect(html).toContain(PRICE_PLACEHOLDER);
  expect(html).not.toContain("listing-address");
  expect(html).not.toContain(EMBEDDED_LISTING_ELEMENT_ID);
}

const configAnswer = async () => (await client().config.$get()).json();

async function anonymousAnswer(id: number): Promise<ListingView> {
  const res = await client().addresses[":id"].$get({ param: { id: String(id) } });
  expect(res.status).toBe(200);
  return res.json();
}

let seller: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
});

describe("the listing page for /address/{id}", () => {
  it("paints the listing's summary and price from the HTML and embeds the visitor's answer", async () => {
    const id = await insertListing({
      address: "0x00000000c0ffee00000000000000000000000042",
      pattern: "00000000",
      patternLength: 8,
      category: "leading-zeros",
      price: "0.25",
      rarity: 8.8,
    });
    const { res, html } = await page(`/address/${id}`);
    expect(res.status).toBe(200);
    // The address is the heading, highlighted where its pattern is; the placeholders are gone.
    expect(html).toMatch(
      /<h1 id="listing-address"[^>]*><span class="inline-block max-w-full font-mono text-balance " data-address="0x00000000c0ffee00000000000000000000000042" data-breaks="11,21,32">.*0x.*<mark[^>]*>00000000<\/mark>.*<wbr\/>.*0ffee.*<\/h1>/,
    );
    expect(html).not.toContain('data-listing-slot="');
    expect(html).toContain('data-testid="detail-price">0.25<!-- --> <!-- -->ETH</div>');
    expect(html).toContain("Available for Purchase");
    expect(html).toContain("<title>Listing #" + id + " · 0xVanity</title>");
    // The embedded answers are exactly what GET /api/addresses/{id} and /api/config answer a visitor; the
    // Explorer button was rendered with that config (the worker tests' chain is local: the note says so).
    expect(html).toContain('id="explorer-note"');
    expect(embedded(html)).toEqual({ id: String(id), listing: await anonymousAnswer(id), config: await configAnswer() });
  });

  it("is never kept by a browser or a shared cache without asking again, and drops only its own read's preload", async () => {
    const id = await insertListing();
    const { res } = await page(`/address/${id}`, { "If-None-Match": '"shell"' });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("etag")).toBeNull();
    expect(res.headers.get("last-modified")).toBeNull();
    expect(res.headers.get("Link")).toBe("</assets/address._id-x.js>; rel=modulepreload, </api/config>; rel=preload; as=fetch");
  });

  it("shows a sold listing as not available on the next visit (read through the edge cache's version)", async () => {
    const id = await insertListing();
    expect((await page(`/address/${id}`)).html).toContain("Available for Purchase");
    await env.DB.prepare("UPDATE addresses SET status = 'sold', is_listed = 0 WHERE id = ?").bind(id).run();
    const { html } = await page(`/address/${id}`);
    expect(html).toContain("Not Available");
    expect(html).not.toContain("Available for Purchase");
    expect(embedded(html)?.listing.status).toBe("sold");
  });

  it("escapes what a listing holds: the markup shows it as text and the JSON cannot close its element", async () => {
    const hostile = `</script><script>alert(1)</script><!--<b>&amp;\u2028`;
    const id = await insertListing({ category: hostile, pattern: `--><script>x</script>` });
    const { html } = await page(`/address/${id}`);
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<script>x");
    // The page shows a category in words (an unknown one with its hyphens as spaces: web/src/lib/category-words.ts).
    expect(html).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!  &lt;b&gt;&amp;amp;");
    // Exactly one </script> in the page (the JSON's own), and the data round-trips unchanged.
    expect(html.match(/<\/script/gi)).toHaveLength(1);
    expect(html.slice(html.indexOf(EMBEDDED_LISTING_ELEMENT_ID))).not.toContain("<!--");
    const data = embedded(html)!;
    expect(data.listing.category).toBe(hostile);
    expect(data.listing.pattern).toBe(`--><script>x</script>`);
    expect(data).toEqual({ id: String(id), listing: await anonymousAnswer(id), config: await configAnswer() });
  });

  it("scriptSafeJson leaves no <, >, & or line separator in the text and parses back to the value", () => {
    const value = { a: "</script><!-- & \u2028\u2029 -->", b: [1, "<"] };
    const text = scriptSafeJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it("embeds nothing session-specific when the request carries the seller's session cookie", async () => {
    const id = await insertListing({ sellerId: seller.userId });
    const mine = await (await client(undefined, { cookie: seller.cookie }).addresses[":id"].$get({ param: { id: String(id) } })).json();
    expect(mine.isOwner).toBe(true);
    const { res, html } = await page(`/address/${id}`, { cookie: seller.cookie });
    const data = embedded(html)!;
    expect(data.listing.isOwner).toBe(false);
    expect(data).toEqual({ id: String(id), listing: await anonymousAnswer(id), config: await configAnswer() });
    expect(html).not.toContain(seller.address);
    expect(html.toLowerCase()).not.toContain(seller.address.toLowerCase());
    expect(res.headers.get("set-cookie")).toBeNull();
    // A signed-in visitor's app reads the listing with its session: its preload stays.
    expect(res.headers.get("Link")).toContain(`</api/addresses/${id}>`);
  });

  it("gives a deleted listing the plain shell, even to its owner's request", async () => {
    const id = await insertListing({ sellerId: seller.userId, status: "deleted", isListed: false });
    expect((await client(undefined, { cookie: seller.cookie }).addresses[":id"].$get({ param: { id: String(id) } })).status).toBe(200);
    const { res, html } = await page(`/address/${id}`, { cookie: seller.cookie });
    expect(res.status).toBe(200);
    expectPlainShell(html);
  });

  it("gives a custom order's hidden listing the plain shell, even to its buyer's request", async () => {
    const buyer = await ethWallet();
    const order = await foundOrder(buyer, seller);
    expect((await client(undefined, { cookie: buyer.cookie }).addresses[":id"].$get({ param: { id: String(order.listingId) } })).status).toBe(200);
    const { html } = await page(`/address/${order.listingId}`, { cookie: buyer.cookie });
    expectPlainShell(html);
    expect(html).not.toContain(order.order.address!);
  });

  it("gives unknown and malformed ids the plain shell without asking the API", async () => {
    const asked: string[] = [];
    const recording = (req: Request) => {
      asked.push(new URL(req.url).pathname);
      return SELF.fetch(req);
    };
    expectPlainShell((await page("/address/999999999", {}, recording)).html);
    expect(asked).toContain("/api/addresses/999999999");
    asked.length = 0;
    for (const path of ["/address/abc", "/address/0", "/address/007", "/address/1234567890123456", "/address/%3Cscript%3E", "/address/1e3"]) {
      expectPlainShell((await page(path, {}, recording)).html);
    }
    expect(asked).toEqual([]);
  });

  it("gives the plain shell when the API fails, and renders nothing for HEAD", async () => {
    const id = await insertListing();
    expectPlainShell((await page(`/address/${id}`, {}, () => Promise.reject(new Error("D1 is down")))).html);
    expectPlainShell((await page(`/address/${id}`, {}, async () => new Response("{}", { status: 500 }))).html);
    // An answer the components cannot render (here an invalid date) leaves the page a shell, never a 500.
    const broken = async (req: Request) => {
      const res = await SELF.fetch(req);
      if (!new URL(req.url).pathname.startsWith("/api/addresses/")) return res;
      return Response.json({ ...(await res.json<ListingView>()), createdAt: "not a date" });
    };
    const odd = await page(`/address/${id}`, {}, broken);
    expect(odd.res.status).toBe(200);
    expectPlainShell(odd.html);
    const head = await servePrerenderedPage(new Request(`http://localhost/address/${id}`, { method: "HEAD" }), assetsEnv, () =>
      Promise.reject(new Error("must not be asked")),
    );
    expect(head!.status).toBe(200);
  });
});

describe("listing-page helpers", () => {
  it("takes a listing id only as the API accepts it", () => {
    expect(listingPageId("/address/42")).toBe("42");
    expect(listingPageId("/address/42/")).toBe("42");
    expect(listingPageId("/address/999999999999999")).toBe("999999999999999");
    for (const path of ["/address/0", "/address/042", "/address/1234567890123456", "/address/-1", "/address/4 2", "/address/42/x", "/address/"])
      expect(listingPageId(path), path).toBeNull();
  });

  it("asks the API without anything from the visitor's request", async () => {
    const seen: Request[] = [];
    await anonymousListing("http://localhost", "1", async (req) => {
      seen.push(req);
      return new Response("{}", { status: 404 });
    });
    expect(seen.map((r) => new URL(r.url).pathname).sort()).toEqual(["/api/addresses/1", "/api/config"]);
    for (const r of seen) expect([...r.headers.keys()]).toEqual([]);
  });

  it("drops exactly the listing's own read from the Link header", () => {
    const link = "</a.js>; rel=modulepreload, </api/addresses/42>; rel=preload; as=fetch, </api/addresses/42/context>; rel=preload; as=fetch";
    expect(withoutListingPreload(link, "42")).toBe("</a.js>; rel=modulepreload, </api/addresses/42/context>; rel=preload; as=fetch");
    expect(withoutListingPreload(link, "4")).toBe(link);
  });
});
