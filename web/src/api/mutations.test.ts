// The forms' writes as react-query mutations: each refreshes the reads it changes, settled either
// way, and nothing else; the key-carrying ones leave no copy in the mutation cache.
import { MutationObserver, type QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "./query-client";
import { ADMIN_KEY, listingChangeMutation, verifyOwnershipMutation } from "./listings-admin";
import { startPurchaseMutation, TRANSACTIONS_KEY } from "./purchases";

const KEYS = {
  search: ["/api/addresses", "search", { q: "dead" }],
  mine: ["/api/addresses", "user", "0xabc"],
  adminTable: [ADMIN_KEY, "addresses", { limit: 20 }],
  adminStats: [ADMIN_KEY, "stats"],
  purchases: [TRANSACTIONS_KEY, "purchases"],
  config: ["/api/config"],
} as const;

function seeded(): QueryClient {
  const client = createQueryClient();
  for (const key of Object.values(KEYS)) client.setQueryData(key, { seeded: true });
  return client;
}

const invalidated = (client: QueryClient) =>
  Object.entries(KEYS)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();

describe("listingChangeMutation (create listing, bulk upload, admin row and bulk actions)", () => {
  it("on success: the listing reads and the admin table and stats are refreshed, nothing else", async () => {
    const client = seeded();
    const observer = new MutationObserver(
      client,
      listingChangeMutation(client, async (n: number) => n * 2),
    );
    expect(await observer.mutate(21)).toBe(42);
    expect(invalidated(client)).toEqual(["adminStats", "adminTable", "mine", "search"]);
  });

  it("on failure too: a call that failed part-way may have changed rows", async () => {
    const client = seeded();
    const observer = new MutationObserver(
      client,
      listingChangeMutation(client, async () => {
        throw new Error("chunk 3 failed");
      }),
    );
    await expect(observer.mutate(undefined)).rejects.toThrow("chunk 3 failed");
    expect(observer.getCurrentResult().isError).toBe(true);
    expect(invalidated(client)).toEqual(["adminStats", "adminTable", "mine", "search"]);
  });

  it("is pending while the call runs (the forms' only in-flight flag)", async () => {
    const client = seeded();
    let finish!: () => void;
    const observer = new MutationObserver(
      client,
      listingChangeMutation(client, () => new Promise<void>((resolve) => (finish = resolve))),
    );
    const done = observer.mutate(undefined);
    await Promise.resolve();
    expect(observer.getCurrentResult().isPending).toBe(true);
    finish();
    await done;
    expect(observer.getCurrentResult().isSuccess).toBe(true);
  });
});

describe("startPurchaseMutation (the buy buttons)", () => {
  it("refreshes the listings and the purchases, settled either way", async () => {
    for (const outcome of ["ok", "taken"] as const) {
      const client = seeded();
      const options = startPurchaseMutation(client);
      const observer = new MutationObserver(client, {
        ...options,
        // The network call is the server's (worker tests); here only what the mutation does around it.
        mutationFn: async () => {
          if (outcome === "taken") throw new Error("Address is no longer available");
          return "tx-1";
        },
      });
      const result = observer.mutate({ via: "initiate", addressId: 1, buyerId: "0xabc", price: "1", currency: "ETH" });
      if (outcome === "ok") expect(await result).toBe("tx-1");
      else await expect(result).rejects.toThrow("no longer available");
      expect(invalidated(client)).toEqual(["mine", "purchases", "search"]);
    }
  });
});

describe("verifyOwnershipMutation", () => {
  it("refreshes nothing, and once reset no copy of the key stays in the mutation cache", async () => {
    const client = seeded();
    const observer = new MutationObserver(client, { ...verifyOwnershipMutation(), mutationFn: async () => ({ verified: true, error: null }) });
    await observer.mutate({ address: "0xabc", privateKey: "0xsecret", network: "ethereum" });
    expect(invalidated(client)).toEqual([]);
    expect(client.getMutationCache().getAll()).toHaveLength(1);
    observer.reset();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(
      JSON.stringify(
        client
          .getMutationCache()
          .getAll()
          .map((m) => m.state.variables),
      ),
    ).not.toContain("0xsecret");
  });
});
