// The purchase page's reads and the key: GET /api/transactions/:id (buyer, seller, admin only), My Purchases,
// reveal (paying buyer only, after payment, until destroyed) and destroy (buyer only, irreversible).
import { env } from "cloudflare:test";
import type { Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app";
import { DEFAULT_SUPPORT_CONTACT } from "../vault/delivery";
import { actors, ethWallet, listWithKey, purchaseRow, reserve, type Wallet } from "./purchase-fixtures";
import { client, clientOf, refusal, unchecked } from "./client";
import { DELIVERY_SUITE, openSealedKey, RELOAD_FOR_SEALED_REVEAL, SealedKeyError } from "../../schema/sealed-delivery";
import { api, postJson } from "./helpers";
import { pageKey, REVEAL_BODY, revealSealed } from "./sealed-reveal";

let seller: Wallet;
let admin: Wallet;
beforeAll(async () => {
  ({ seller } = await actors());
  admin = seller; // the fixture seller is anvil account 0, an admin
});

/** A completed purchase by a fresh buyer, as settle leaves it. */
async function completed() {
  const buyer = await ethWallet();
  const listing = await listWithKey(seller.userId);
  const id = await reserve(buyer, listing.id);
  const hash = `0x${Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
  await env.DB.prepare("UPDATE transactions SET status = 'completed', tx_hash = ?, completed_at = ? WHERE id = ?").bind(hash, Date.now(), id).run();
  return { buyer, listing, id, hash };
}

const rowCounts = async () => ({
  revealed: (await env.DB.prepare("SELECT count(*) AS n FROM transaction_audit WHERE action = 'key_revealed'").first<{ n: number }>())!.n,
  limits: (await env.DB.prepare("SELECT count(*) AS n FROM rate_limits").first<{ n: number }>())!.n,
});
const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g)!, (h) => Number.parseInt(h, 16));

const audits = (id: string) =>
  env.DB.prepare("SELECT action, performed_by, metadata FROM transaction_audit WHERE transaction_id = ? ORDER BY id")
    .bind(id)
    .all<{ action: string; performed_by: string | null; metadata: string }>()
    .then((r) => r.results);

describe("GET /api/transactions/:id", () => {
  it("the buyer sees everything needed to pay, never key material, not cached", async () => {
    const buyer = await ethWallet();
    const listing = await listWithKey(seller.userId, { price: "0.25" });
    const id = await reserve(buyer, listing.id);
    const res = await client(buyer).transactions[":id"].$get({ param: { id } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    expect(text).not.toContain(listing.key.privateKey.slice(2, 20));
    expect(text).not.toMatch(/encrypted|wrapped|privateKey"/i);
    expect(JSON.parse(text)).toMatchObject({
      id,
      status: "initiated",
      address: listing.key.address,
      addressId: listing.id,
      network: "ethereum",
      price: "0.25",
      currency: "ETH",
      totalAmount: "0.25",
      amountBaseUnits: "250000000000000000",
      recipient: env.PLATFORM_ETH_ADDRESS,
      chainId: 31337,
      paymentReference: null,
      txHash: null,
      confirmations: 0,
      requiredConfirmations: Number(env.ETH_CONFIRMATIONS),
      privateKeyDestroyed: false,
      role: "buyer",
    });
  });

  it("the seller and admins see it with their role; another wallet gets 404; signed out 401", async () => {
    const buyer = await ethWallet();
    const sellerWallet = await ethWallet();
    const listing = await listWithKey(sellerWallet.userId);
    const id = await reserve(buyer, listing.id);
    expect(await (await client(sellerWallet).transactions[":id"].$get({ param: { id } })).json()).toMatchObject({ role: "seller" });
    expect(await (await client(admin).transactions[":id"].$get({ param: { id } })).json()).toMatchObject({ role: "admin" });
    const stranger = await client(await ethWallet()).transactions[":id"].$get({ param: { id } });
    expect(stranger.status).toBe(404);
    expect((await client().transactions[":id"].$get({ param: { id } })).status).toBe(401);
    expect((await client(buyer).transactions[":id"].$get({ param: { id: crypto.randomUUID() } })).status).toBe(404);
  });
});

describe("GET /api/transactions/purchases", () => {
  it("the session's own purchases, newest first, paged", async () => {
    const buyer = await ethWallet();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await reserve(buyer, (await listWithKey(seller.userId)).id));
      await env.DB.prepare("UPDATE transactions SET created_at = ? WHERE id = ?")
        .bind(1_000 + i, ids[i])
        .run();
    }
    await reserve(await ethWallet(), (await listWithKey(seller.userId)).id);
    const res = await client(buyer).transactions.purchases.$get({ query: { page: "1", limit: "2" } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.purchases.map((p) => p.id)).toEqual([ids[2], ids[1]]);
    expect(body.pagination).toEqual({ page: 1, totalPages: 2, total: 3, hasPrevPage: false, hasNextPage: true });
    const page2 = await (await client(buyer).transactions.purchases.$get({ query: { page: "2", limit: "2" } })).json();
    expect(page2.purchases.map((p) => p.id)).toEqual([ids[0]]);
    expect((await client().transactions.purchases.$get({ query: {} })).status).toBe(401);
    expect((await client(buyer).transactions.purchases.$get({ query: { limit: "100000" } })).status).toBe(400);
    expect((await client(buyer).transactions.purchases.$get({ query: { page: "-1" } })).status).toBe(400);
  }, 30_000);
});

describe("POST /api/transactions/:id/reveal-private-key", () => {
  it("the paying buyer gets the key sealed to the page's public key: it opens with the page's pair to the key of the listing's address; no plain key in the answer; no-store; audited", async () => {
    const { buyer, listing, id } = await completed();
    const reveal = await revealSealed(client(buyer), id);
    expect(reveal.status).toBe(200);
    expect(reveal.headers.get("cache-control")).toBe("no-store");
    expect(reveal.body).toEqual({
      success: true,
      sealed: { suite: DELIVERY_SUITE, enc: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), ciphertext: expect.stringMatching(/^[A-Za-z0-9_-]+$/) },
      address: listing.key.address,
      network: "ethereum",
    });
    expect(reveal.privateKey).toBe(listing.key.privateKey);
    expect(privateKeyToAddress(reveal.privateKey as Hex)).toBe(listing.key.address);
    expect(JSON.stringify(reveal.body)).not.toContain(listing.key.privateKey.slice(2, 20));
    const rows = await audits(id);
    expect(rows.at(-1)).toMatchObject({ action: "key_revealed", performed_by: buyer.address.toLowerCase() });
    expect(JSON.stringify(rows)).not.toContain(listing.key.privateKey.slice(2));

    // Only the page's own pair opens it, and only as this purchase: an answer replayed as another's does not open.
    if (!reveal.body.success) throw new Error(reveal.body.message);
    const sealed = reveal.body.sealed;
    await expect(openSealedKey((await pageKey()).pair, id, sealed)).rejects.toThrow(SealedKeyError);
    await expect(openSealedKey(reveal.pair, crypto.randomUUID(), sealed)).rejects.toThrow(SealedKeyError);
    // Each reveal is sealed afresh: a second page's answer differs and opens only with its own pair.
    const second = await revealSealed(client(buyer), id);
    expect(second.privateKey).toBe(listing.key.privateKey);
    if (!second.body.success) throw new Error(second.body.message);
    expect(second.body.sealed.enc).not.toBe(sealed.enc);
    await expect(openSealedKey(reveal.pair, id, second.body.sealed)).rejects.toThrow(SealedKeyError);
  });

  it("an older page's plain reveal (no public key) is refused 426, telling it to reload; nothing read, counted or logged", async () => {
    const { buyer, id } = await completed();
    const before = { own: (await audits(id)).length, ...(await rowCounts()) };
    const path = `/api/transactions/${id}/reveal-private-key`;
    const calls = [
      api(path, { method: "POST", headers: buyer.headers }), // what the old page sent: no body at all
      postJson(path, {}, { headers: buyer.headers }),
      postJson(path, { privateKey: true }, { headers: buyer.headers }),
      api(path, { method: "POST", headers: { ...buyer.headers, "content-type": "text/plain" }, body: REVEAL_BODY.publicKey }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(426);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toEqual({ error: "Upgrade Required", message: RELOAD_FOR_SEALED_REVEAL });
    }
    expect(RELOAD_FOR_SEALED_REVEAL).toMatch(/reload/i);
    expect({ own: (await audits(id)).length, ...(await rowCounts()) }).toEqual(before);
    // The page that sends its key is served as before.
    expect((await revealSealed(client(buyer), id)).status).toBe(200);
  });

  it("a malformed public key is refused 400: wrong length, not base64url, padded, not a string, or a point of small order; nothing logged", async () => {
    const { buyer, listing, id } = await completed();
    const before = { own: (await audits(id)).length, ...(await rowCounts()) };
    const b64 = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes))
        .replaceAll("+", "-")
        .replaceAll("/", "_")
        .replace(/=+$/, "");
    const wrong = [
      b64(new Uint8Array(31).fill(7)),
      b64(new Uint8Array(33).fill(7)),
      "",
      "not base64url at all, and forty-three long!",
      `${REVEAL_BODY.publicKey}=`,
      REVEAL_BODY.publicKey.replaceAll("_", "/"),
      42,
      null,
    ];
    for (const publicKey of wrong) {
      const res = await client(buyer).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: unchecked({ publicKey }) });
      expect(res.status, JSON.stringify(publicKey)).toBe(400);
      expect((await refusal(res)).message).toMatch(/^publicKey: /);
    }
    // Points of small order (0, 1, and one of order 8) would make the shared secret all zeros or guessable.
    const smallOrder = [
      new Uint8Array(32),
      Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0)),
      hexBytes("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
    ];
    for (const point of smallOrder) {
      const res = await client(buyer).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: { publicKey: b64(point) } });
      expect(res.status, b64(point)).toBe(400);
      const body = await res.text();
      expect(body).toContain("not a usable X25519 public key");
      expect(body).not.toContain(listing.key.privateKey.slice(2, 20));
    }
    expect({ own: (await audits(id)).length, ...(await rowCounts()) }).toEqual(before);
  });

  it("refused for another wallet (404), the seller (403), signed out (401), before payment (409): each signed-in attempt audited, no key", async () => {
    const { listing, id } = await completed();
    const stranger = await client(await ethWallet()).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY });
    expect(stranger.status).toBe(404);
    const bySeller = await client(seller).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY });
    expect(bySeller.status).toBe(403);
    expect(await bySeller.json()).toMatchObject({ success: false, error: "Forbidden" });
    const signedOut = await client().transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY });
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get("cache-control")).toBe("no-store");
    for (const r of [stranger, signedOut]) expect(await r.text()).not.toContain(listing.key.privateKey.slice(2));

    const unpaidBuyer = await ethWallet();
    const unpaid = await reserve(unpaidBuyer, (await listWithKey(seller.userId)).id);
    for (const status of ["initiated", "pending", "failed", "expired", "cancelled"]) {
      await env.DB.prepare("UPDATE transactions SET status = ? WHERE id = ?").bind(status, unpaid).run();
      const res = await client(unpaidBuyer).transactions[":id"]["reveal-private-key"].$post({ param: { id: unpaid }, json: REVEAL_BODY });
      expect(res.status, status).toBe(409);
      expect(await res.json()).toMatchObject({ success: false, message: "The private key is available once the payment is confirmed" });
    }
    // The stranger's and the seller's; a visitor writes nothing (purchase-limits.test.ts).
    const refused = (await audits(id)).filter((a) => a.action === "key_reveal_refused");
    expect(refused).toHaveLength(2);
  });

  it("a record that fails to decrypt: a 500-class answer with support info and the payment hash, audited", async () => {
    const { buyer, listing, id, hash } = await completed();
    await env.DB.prepare("UPDATE encrypted_keys SET mac = ? WHERE address_id = ?")
      .bind(btoa("x".repeat(32)), listing.id)
      .run();
    const res = await client(buyer).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({
      success: false,
      supportInfo: { message: expect.any(String), instructions: expect.any(String), txHash: hash, contactMethod: expect.any(String) },
    });
    expect((await audits(id)).at(-1)).toMatchObject({ action: "key_reveal_failed" });
  });

  it("the support contact is the SUPPORT_CONTACT setting, not a hard-coded address", async () => {
    const { buyer, listing, id } = await completed();
    await env.DB.prepare("UPDATE encrypted_keys SET mac = ? WHERE address_id = ?")
      .bind(btoa("x".repeat(32)), listing.id)
      .run();
    const reveal = (bindings: Partial<Env>) =>
      clientOf((input, init) => createApp().request(input, init, { ...env, ...bindings }), buyer).transactions[":id"]["reveal-private-key"].$post({
        param: { id },
        json: REVEAL_BODY,
      });
    const asSet = await reveal({ SUPPORT_CONTACT: "help@market.example" });
    expect(((await asSet.json()) as { supportInfo: { contactMethod: string } }).supportInfo.contactMethod).toBe("help@market.example");
    const unset = await reveal({ SUPPORT_CONTACT: " " });
    expect(((await unset.json()) as { supportInfo: { contactMethod: string } }).supportInfo.contactMethod).toBe(DEFAULT_SUPPORT_CONTACT);
  });
});

describe("DELETE /api/transactions/:id/private-key", () => {
  it("another wallet or the seller cannot destroy; the buyer can, once, irreversibly; reveal is refused after", async () => {
    const { buyer, listing, id } = await completed();
    expect((await client(await ethWallet()).transactions[":id"]["private-key"].$delete({ param: { id } })).status).toBe(404);
    expect((await client(seller).transactions[":id"]["private-key"].$delete({ param: { id } })).status).toBe(403);
    expect((await client().transactions[":id"]["private-key"].$delete({ param: { id } })).status).toBe(401);
    const kept = await env.DB.prepare("SELECT count(*) AS n FROM encrypted_keys WHERE address_id = ?").bind(listing.id).first<{ n: number }>();
    expect(kept!.n).toBe(1);

    const res = await client(buyer).transactions[":id"]["private-key"].$delete({ param: { id } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, message: "The private key has been permanently removed from our database." });
    const gone = await env.DB.prepare("SELECT count(*) AS n FROM encrypted_keys WHERE address_id = ?").bind(listing.id).first<{ n: number }>();
    expect(gone!.n).toBe(0);
    expect((await purchaseRow(id))!.private_key_destroyed).toBe(1);
    expect((await audits(id)).map((a) => a.action)).toContain("key_destroyed");

    const again = await client(buyer).transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: REVEAL_BODY });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ message: "The private key has been permanently destroyed" });
    expect((await client(buyer).transactions[":id"]["private-key"].$delete({ param: { id } })).status).toBe(409);
    const list = await (await client(buyer).transactions.purchases.$get({ query: {} })).json();
    expect(list.purchases[0].privateKeyDestroyed).toBe(true);
  });

  it("before payment the key cannot be destroyed (it is still the seller's)", async () => {
    const buyer = await ethWallet();
    const listing = await listWithKey(seller.userId);
    const id = await reserve(buyer, listing.id);
    expect((await client(buyer).transactions[":id"]["private-key"].$delete({ param: { id } })).status).toBe(409);
  });
});
