import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { insertListing } from "./browse-fixtures";
import { client, unchecked } from "./client";
import { STORE_GRINDER_RATES } from "../../schema/grinder-rates";

type Check = Record<string, unknown> & { isValid: boolean; message: string };

const validate = async (body: unknown) => {
  const res = await client().addresses.validate.$post({ json: unchecked(body) });
  return { status: res.status, body: (await res.json()) as Check };
};

describe("POST /api/addresses/validate", () => {
  it("scores a leading-zeros Ethereum address with the difficulty fields", async () => {
    const { status, body } = await validate({ address: "0x0000000049cbd371133c6caece543d8108839081", network: "ethereum" });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      isValid: true,
      network: "ethereum",
      currency: "ETH",
      rarityScore: 8,
      category: "leading-zeros",
      pattern: "00000000",
      patternLength: 8,
      hasLeadingZeros: true,
      leadingZeroCount: 8,
      difficulty: { log2: 32, attempts: 2 ** 32 },
      matchRanges: [[2, 10]],
      hexCharacters: 8,
      keyless: null,
    });
    expect(body.estimatedValue).toMatch(/^\d+(\.\d{1,8})?$/);
    expect((body.expectedTime as { cpuCoreSeconds: number }).cpuCoreSeconds).toBeCloseTo(2 ** 32 / STORE_GRINDER_RATES.ethereum.cpuCore);
  });

  it("returns the checksummed address and trims surrounding spaces", async () => {
    const { body } = await validate({ address: "  0xdeadde0e39dd3b4e3bb334f93e320841e316beef  ", network: "ethereum" });
    expect(body).toMatchObject({ isValid: true, category: "word-like", address: "0xDeADDE0e39dD3b4e3Bb334f93e320841e316beEf" });
    // Matched case-insensitively: the pattern is shown as the checksummed address spells it.
    expect(String(body.pattern).toLowerCase()).toBe("dead...beef");
    expect(body.caseSensitivePattern).toBe(false);
  });

  it("a wrong EIP-55 checksum is invalid with a message that says so", async () => {
    const { status, body } = await validate({ address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", network: "ethereum" });
    expect(status).toBe(200);
    expect(body.isValid).toBe(false);
    expect(body.message).toMatch(/checksum/i);
    expect(body.error).toBe(body.message);
  });

  it("an off-curve Solana address is invalid: it has no private key", async () => {
    // A program-derived address: 32 bytes that are not a point on the curve.
    const { body } = await validate({ address: "4MD31b2GFAWVDYQT8KG7E5GcZiFyy4MpDUt4BcyEdJRP", network: "solana" });
    if (body.isValid) throw new Error("expected an off-curve address to be refused");
    expect(body.message).toMatch(/curve|private key/i);
  });

  it("guesses the network when none is sent, and scores a Solana word", async () => {
    const { body } = await validate({ address: "DZDz8kVLD9mvMHHVnrYkGkGyyKW9FNgQ5UaEQvUVpump" });
    expect(body).toMatchObject({ isValid: true, network: "solana", currency: "SOL", category: "word-like", pattern: "pump" });
  });

  it("garbage is an answer, not an error", async () => {
    const { status, body } = await validate({ address: "hello world", network: "ethereum" });
    expect(status).toBe(200);
    expect(body.isValid).toBe(false);
    expect(body.message.length).toBeGreaterThan(5);
  });

  it("scales the estimated value by the active algorithm adjustment", async () => {
    const address = "0x0000000049cbd371133c6caece543d8108839081";
    const before = Number((await validate({ address, network: "ethereum" })).body.estimatedValue);
    await env.DB.prepare("UPDATE algorithm_adjustments SET base_value_multiplier = 2 WHERE network = 'ethereum'").run();
    const after = Number((await validate({ address, network: "ethereum" })).body.estimatedValue);
    expect(after).toBeCloseTo(before * 2, 6);
    await env.DB.prepare("UPDATE algorithm_adjustments SET base_value_multiplier = 1 WHERE network = 'ethereum'").run();
  });

  const malformed: [string, unknown][] = [
    ["missing address", { network: "ethereum" }],
    ["non-string address", { address: 42, network: "ethereum" }],
    ["array address", { address: ["0x00"], network: "ethereum" }],
    ["blank address", { address: "   ", network: "ethereum" }],
    ["10 kB address", { address: "0".repeat(10_000), network: "ethereum" }],
    ["control characters", { address: "0x0000\u0000000049cbd371133c6caece543d8108839081", network: "ethereum" }],
    ["unknown network", { address: "0x0000000049cbd371133c6caece543d8108839081", network: "bitcoin" }],
    ["not an object", [1, 2, 3]],
  ];
  for (const [name, body] of malformed) {
    it(`400 for ${name}`, async () => {
      const { status, body: res } = await validate(body);
      expect(status).toBe(400);
      expect(res).toMatchObject({ error: "Validation Error" });
    });
  }
});

describe("the checker links to the address's listing while it is for sale", () => {
  it("listed and active: its id, price and currency; sold, hidden, or another network's: none", async () => {
    // Any valid address, checked once to learn its normalized (checksummed) form, as listings store it.
    const first = await validate({ address: "0xdead00000000000000000000000000000000beef", network: "ethereum" });
    expect(first.body.listing).toBeNull();
    const address = first.body.address as string;
    const id = await insertListing({ address, price: "0.25" });
    expect((await validate({ address: address.toLowerCase(), network: "ethereum" })).body.listing).toEqual({ id, price: "0.25", currency: "ETH" });
    for (const [status, listed] of [
      ["sold", 1],
      ["inactive", 1],
      ["deleted", 1],
      ["active", 0],
    ] as const) {
      await env.DB.prepare("UPDATE addresses SET status = ?, is_listed = ? WHERE id = ?").bind(status, listed, id).run();
      expect((await validate({ address, network: "ethereum" })).body.listing, `${status} listed=${listed}`).toBeNull();
    }
  });
});

describe("GET /api/addresses/validate", () => {
  it("validates from the query string", async () => {
    const res = await client().addresses.validate.$get({ query: { address: "0x0000f83d8427610068974f4284a0dc825a8218e6" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ isValid: true, rarityScore: 4, category: "leading-zeros" });
  });

  it("400 without an address, with a 10 kB address, or with control characters", async () => {
    for (const query of [{}, { address: "" }, { address: "a".repeat(10_000) }, { address: "0x00\n00" }]) {
      const res = await client().addresses.validate.$get({ query: unchecked(query) });
      expect(res.status, JSON.stringify(query).slice(0, 40)).toBe(400);
    }
  });
});
