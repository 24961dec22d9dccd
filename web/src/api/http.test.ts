import { afterEach, describe, expect, it, vi } from "vitest";
import { getJson, HttpError, request } from "./http";

function stubFetch(status: number, body: string, statusText = "") {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => new Response(body || null, { status, statusText }));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the generic request rule", () => {
  it("a non-OK answer becomes '<status>: <body text>'", async () => {
    stubFetch(409, '{"error":"Conflict","message":"Listing is reserved"}');
    const err = await request("GET", "/api/x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).message).toBe('409: {"error":"Conflict","message":"Listing is reserved"}');
    expect((err as HttpError).serverMessage).toBe("Listing is reserved");
  });

  it("an empty body falls back to the status text", async () => {
    stubFetch(502, "", "Bad Gateway");
    await expect(request("GET", "/api/x")).rejects.toThrow("502: Bad Gateway");
  });

  it("every call includes credentials and JSON bodies say they are JSON", async () => {
    const fetchMock = stubFetch(200, '{"ok":true}');
    await request("POST", "/api/x", { a: 1 });
    const init = fetchMock.mock.calls[0][1]!;
    expect(init.credentials).toBe("include");
    expect((init.headers as Record<string, string>)["content-type"]).toBe("application/json");
    expect(init.body).toBe('{"a":1}');
  });

  it("/admin/ calls carry the stored wallet in x-wallet-address; others do not", async () => {
    vi.stubGlobal("localStorage", { getItem: (k: string) => (k === "walletAddress" ? "0xabc" : null) });
    const fetchMock = stubFetch(200, "{}");
    await request("GET", "/api/admin/stats");
    await request("GET", "/api/addresses/featured");
    expect((fetchMock.mock.calls[0][1]!.headers as Record<string, string>)["x-wallet-address"]).toBe("0xabc");
    expect((fetchMock.mock.calls[1][1]!.headers as Record<string, string>)["x-wallet-address"]).toBeUndefined();
  });

  it("the data reader can turn a 401 into null, and otherwise throws it", async () => {
    stubFetch(401, '{"error":"Unauthorized","message":"Sign in first"}');
    await expect(getJson("/api/auth/session", { on401: "null" })).resolves.toBeNull();
    await expect(getJson("/api/auth/session")).rejects.toThrow(/^401: /);
  });
});
