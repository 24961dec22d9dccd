import { afterEach, describe, expect, it, vi } from "vitest";
import { api, HttpError, idParam, read } from "./http";

function stubFetch(status: number, body: string, statusText = "") {
  const fetchMock = vi.fn(
    async (_url: RequestInfo | URL, _init?: RequestInit) =>
      new Response(body || null, { status, statusText, headers: body.startsWith("{") || body.startsWith("[") ? { "content-type": "application/json" } : {} }),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the generic request rule", () => {
  it("a non-OK answer becomes '<status>: <body text>'", async () => {
    stubFetch(409, '{"error":"Conflict","message":"Listing is reserved"}');
    const err = await read(api["market-stats"].$get()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(409);
    expect((err as HttpError).message).toBe('409: {"error":"Conflict","message":"Listing is reserved"}');
    expect((err as HttpError).serverMessage).toBe("Listing is reserved");
  });

  it("the body is read as the API's error shape, with its extra fields; anything else is no body", () => {
    const body = (text: string) => new HttpError(409, text, "Conflict").body;
    expect(body('{"error":"Conflict","message":"Reserved","reservedUntil":"2026-01-01T00:00:00.000Z"}')).toEqual({
      error: "Conflict",
      message: "Reserved",
      reservedUntil: "2026-01-01T00:00:00.000Z",
    });
    expect(body('{"error":"Conflict","message":5}')).toEqual({ error: "Conflict", message: undefined });
    expect(new HttpError(409, '{"error":"Conflict","message":5}', "").serverMessage).toBe("Conflict");
    for (const text of ["", "not json", "[]", "null", '"text"', '{"reservedUntil":"x"}', '{"message":null}']) expect(body(text), text).toBeNull();
  });

  it("an empty body falls back to the status text", async () => {
    stubFetch(502, "", "Bad Gateway");
    await expect(read(api["market-stats"].$get())).rejects.toThrow("502: Bad Gateway");
  });

  it("a call may name its own message (the home page's 'HTTP error! status: N'), still an HttpError with the body", async () => {
    stubFetch(503, '{"error":"Service Unavailable","message":"down"}');
    const err = (await read(api.addresses.featured.$get({ query: {} }), { message: (status) => `HTTP error! status: ${status}` }).catch(
      (e: unknown) => e,
    )) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect(err.message).toBe("HTTP error! status: 503");
    expect(err.serverMessage).toBe("down");
  });

  it("an OK answer is its JSON", async () => {
    stubFetch(200, '{"isAdmin":true,"userExists":false}');
    await expect(read(api.users["admin-status"].$get({ query: { walletAddress: "0xabc" } }))).resolves.toEqual({ isAdmin: true, userExists: false });
  });

  it("every call includes credentials; JSON bodies say they are JSON; the path, query and method are the route's", async () => {
    const fetchMock = stubFetch(200, '{"ok":true}');
    await read(api.transactions["calculate-fees"].$post({ json: { price: "1", currency: "ETH", membershipTier: "basic" } }));
    await read(api.users["admin-status"].$get({ query: { walletAddress: "0x a&b" } }));
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe("/api/transactions/calculate-fees");
    expect(init!.method).toBe("POST");
    expect(init!.credentials).toBe("include");
    expect(new Headers(init!.headers).get("content-type")).toBe("application/json");
    expect(init!.body).toBe('{"price":"1","currency":"ETH","membershipTier":"basic"}');
    expect(fetchMock.mock.calls[1][0]).toBe("/api/users/admin-status?walletAddress=0x+a%26b");
    expect(fetchMock.mock.calls[1][1]!.method).toBe("GET");
    expect(fetchMock.mock.calls[1][1]!.credentials).toBe("include");
  });

  it("path parameters are filled in, and a call's own init (signal, cache) reaches fetch", async () => {
    const fetchMock = stubFetch(200, "{}");
    const controller = new AbortController();
    await read(api.addresses[":id"].$get({ param: { id: "42" } }, { init: { signal: controller.signal, cache: "no-cache" } }));
    expect(fetchMock.mock.calls[0][0]).toBe("/api/addresses/42");
    expect(fetchMock.mock.calls[0][1]!.signal).toBe(controller.signal);
    expect(fetchMock.mock.calls[0][1]!.cache).toBe("no-cache");
    expect(fetchMock.mock.calls[0][1]!.credentials).toBe("include");
  });

  it("an id from a page's URL stays one path segment", async () => {
    vi.stubGlobal("localStorage", { getItem: (k: string) => (k === "walletAddress" ? "0xabc" : null) });
    const fetchMock = stubFetch(200, "{}");
    await read(api.transactions[":id"].$get(idParam("../admin/stats")));
    expect(fetchMock.mock.calls[0][0]).toBe("/api/transactions/..%2Fadmin%2Fstats");
    expect(new Headers(fetchMock.mock.calls[0][1]!.headers).get("x-wallet-address")).toBeNull();
  });

  it("/admin/ calls carry the stored wallet in x-wallet-address; others do not", async () => {
    vi.stubGlobal("localStorage", { getItem: (k: string) => (k === "walletAddress" ? "0xabc" : null) });
    const fetchMock = stubFetch(200, "{}");
    await read(api.admin.stats.$get());
    await read(api.addresses.featured.$get({ query: {} }));
    expect(new Headers(fetchMock.mock.calls[0][1]!.headers).get("x-wallet-address")).toBe("0xabc");
    expect(new Headers(fetchMock.mock.calls[1][1]!.headers).get("x-wallet-address")).toBeNull();
  });

  it("the data reader can turn a 401 into null, and otherwise throws it", async () => {
    stubFetch(401, '{"error":"Unauthorized","message":"Sign in first"}');
    await expect(read(api.auth.session.$get(), { on401: "null" })).resolves.toBeNull();
    await expect(read(api.auth.session.$get())).rejects.toThrow(/^401: /);
  });
});
