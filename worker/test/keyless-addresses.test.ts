// Addresses nobody holds a key for: the checker says so and values them at nothing, and
// no way of creating a listing (single, bulk upload, the seed's import) accepts one.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { AddressCheckResponse } from "../../schema/api";
import { createDb } from "../db/database";
import { importListings } from "../listings/import";
import { type Caller, counts, ethKey, signInAll } from "./listing-fixtures";
import { client, refusal } from "./client";

const DEAD = "0x000000000000000000000000000000000000dEaD";
const SYSTEM_PROGRAM = "11111111111111111111111111111111";
const ZERO = `0x${"0".repeat(40)}`;

let admin: Caller;
beforeAll(async () => {
  ({ admin } = await signInAll());
});

async function check(address: string, network?: "ethereum" | "solana") {
  const res = await client().addresses.validate.$post({ json: { address, ...(network ? { network } : {}) } });
  expect(res.status).toBe(200);
  return (await res.json()) as AddressCheckResponse;
}

describe("the checker", () => {
  it("says the burn address 0x…dEaD has no key and values it at 0 (it once showed 9,999,999,999.99999999 ETH)", async () => {
    const r = await check(DEAD);
    if (!r.isValid) throw new Error("expected a valid address");
    expect(r.estimatedValue).toBe("0");
    expect(r.keyless).toMatchObject({ reason: "burn-address" });
    expect(r.message).toMatch(/no one holds its private key/);
  });

  it("does the same for the zero address, a precompile and the Solana system program id", async () => {
    for (const [address, reason] of [
      [ZERO, "zero-address"],
      ["0x0000000000000000000000000000000000000001", "precompile"],
      [SYSTEM_PROGRAM, "small-order-point"],
    ] as const) {
      const r = await check(address);
      if (!r.isValid) throw new Error(`${address} should be valid`);
      expect(r.keyless?.reason, address).toBe(reason);
      expect(r.estimatedValue, address).toBe("0");
    }
  });

  it("leaves ordinary addresses alone: keyless null, a positive value", async () => {
    const r = await check("0x0000f83d8427610068974F4284A0DC825A8218e6");
    if (!r.isValid) throw new Error("expected a valid address");
    expect(r.keyless).toBeNull();
    expect(Number(r.estimatedValue)).toBeGreaterThan(0);
  });
});

describe("listing creation refuses them", () => {
  it("single: POST /api/addresses answers 400 naming why, and stores nothing", async () => {
    const before = await counts();
    for (const [address, network] of [
      [DEAD, "ethereum"],
      [ZERO, "ethereum"],
      [SYSTEM_PROGRAM, "solana"],
    ] as const) {
      const res = await client(admin).addresses.$post({ json: { address, network, price: "1", privateKey: ethKey().privateKey } });
      expect(res.status, address).toBe(400);
      expect((await refusal(res)).message, address).toMatch(/cannot be listed/);
    }
    expect(await counts()).toBe(before);
  });

  it("bulk upload: the row reports keyless-address, the others are stored", async () => {
    const good = ethKey();
    const res = await client(admin).admin.addresses.bulk.$post({
      json: {
        rows: [
          { address: DEAD, private_key: good.privateKey, platform: "ethereum", pattern_type: "suffix", pattern_matched: "dEaD" },
          { address: SYSTEM_PROGRAM, private_key: good.privateKey, platform: "solana", pattern_type: "prefix", pattern_matched: "1111" },
          { address: good.address, private_key: good.privateKey, platform: "ethereum", pattern_type: "prefix", pattern_matched: good.address.slice(2, 6) },
        ],
      },
    });
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as { results: { status: string; reason?: string }[] };
    expect(results.map((r) => r.reason ?? r.status)).toEqual(["keyless-address", "keyless-address", "success"]);
  });

  it("the seed's import (long patterns kept, engine rarity) refuses them too", async () => {
    const db = createDb(env.DB);
    const [row] = await importListings(
      db,
      env,
      admin.userId,
      [
        {
          address: DEAD,
          private_key: ethKey().privateKey,
          platform: "ethereum",
          pattern_type: "prefix",
          pattern_matched: "000000000000000000000000000000000000",
        },
      ],
      { longPatterns: "keep", rarity: "engine", decorate: () => ({ price: "1" }) },
    );
    expect(row).toMatchObject({ status: "error", reason: "keyless-address" });
  });

  it("verify-ownership says why instead of 'does not match'", async () => {
    const res = await client(undefined, {
      "cf-connecting-ip": "203.0.113.200",
    }).addresses["verify-ownership"].$post({ json: { address: DEAD, network: "ethereum", privateKey: ethKey().privateKey } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ verified: false, error: expect.stringMatching(/burn address.*cannot be listed/) });
  });
});
