// checkSiwe (siwe.ts) in plain Node: each refusal with its own reason and in its order (chain, site, time, the
// issued text, then the signature), the nonce claimed before any signature work, a key's signature recovered here
// with no node asked, and a signature that does not recover going to the nodes only for a wallet that may be a
// contract. What the nodes then say is tested against anvil and a lying node (worker/test-chain/quorum-ethereum.test.ts).
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { parseSiwe } from "./sign-in-grammar";
import { buildSiweMessage, checkSiwe, type ContractProofRule, NOT_ISSUED } from "./siwe";
import { parseSiteOrigin } from "./site";

const site = parseSiteOrigin("https://vanity.example")!;
const wallet = privateKeyToAccount(generatePrivateKey());
const stranger = privateKeyToAccount(generatePrivateKey());
const NOW = Date.UTC(2026, 11, 7, 12);
const NONCE = "a1b2c3d4e5f6a7b8";
// No node at all: a signature that reaches the nodes finds none to vouch for it.
const env = { ETH_CHAIN_ID: "1", ETH_RPC_URL: "", ETH_RPC_URLS: "" };

function message(over: Partial<{ chainId: number; issuedAt: number; expiresAt: number; address: string }> = {}, at = site) {
  return buildSiweMessage(at, { address: wallet.address, chainId: 1, nonce: NONCE, issuedAt: NOW - 1000, expiresAt: NOW + 600_000, ...over });
}

async function check(text: string, opts: { signer?: typeof wallet; claim?: string | null; contractProof?: ContractProofRule; now?: number } = {}) {
  const calls = { claim: 0, contractProof: 0, report: 0 };
  const result = await checkSiwe(env, site, {
    message: text,
    parsed: parseSiwe(text)!,
    claim: async () => {
      calls.claim++;
      return opts.claim ?? null;
    },
    signature: (await (opts.signer ?? wallet).signMessage({ message: text })) as Hex,
    now: opts.now ?? NOW,
    contractProof: async (a) => {
      calls.contractProof++;
      return opts.contractProof ? opts.contractProof(a) : null;
    },
    report: async () => {
      calls.report++;
    },
  });
  return { result, calls };
}

describe("checkSiwe", () => {
  it("a key's signature signs in with proof 'key', the nonce claimed once and no contract rule asked", async () => {
    const { result, calls } = await check(message());
    expect(result).toEqual({ ok: true, address: wallet.address, proof: "key" });
    expect(calls).toEqual({ claim: 1, contractProof: 0, report: 0 });
  });

  it("refuses another chain, naming both chain ids, before claiming the nonce", async () => {
    const { result, calls } = await check(message({ chainId: 5 }));
    expect(result).toEqual({ ok: false, reason: "message is for chain 5, this marketplace signs in on chain 1" });
    expect(calls.claim).toBe(0);
  });

  it("refuses another domain or scheme, and a URI off the site", async () => {
    expect((await check(message({}, parseSiteOrigin("https://evil.example")!))).result).toEqual({ ok: false, reason: "message is for another domain" });
    expect((await check(message({}, parseSiteOrigin("http://vanity.example")!))).result).toEqual({ ok: false, reason: "message is for another domain" });
    const offSite = message().replace("URI: https://vanity.example", "URI: https://vanity.example:444");
    const { result, calls } = await check(offSite);
    expect(result).toEqual({ ok: false, reason: "message URI is for another site" });
    expect(calls.claim).toBe(0);
  });

  it("refuses an issue time past the allowed skew; accepts one just inside it", async () => {
    const { result, calls } = await check(message({ issuedAt: NOW + 5 * 60_000 + 1000 }));
    expect(result).toEqual({ ok: false, reason: "message has no valid issue time" });
    expect(calls.claim).toBe(0);
    expect((await check(message({ issuedAt: NOW + 5 * 60_000 - 1000 }))).result).toMatchObject({ ok: true });
  });

  it("the claim's refusal is the answer, and nothing past it runs", async () => {
    const { result, calls } = await check(message(), { claim: NOT_ISSUED, signer: stranger });
    expect(result).toEqual({ ok: false, reason: NOT_ISSUED });
    expect(calls).toEqual({ claim: 1, contractProof: 0, report: 0 });
  });

  it("an expired message is refused even with the right key", async () => {
    const { result } = await check(message({ expiresAt: NOW - 1 }));
    expect(result).toEqual({ ok: false, reason: "signature, domain or time does not match" });
  });

  it("a signature that does not recover: the contract rule's refusal is the answer (an admin is a key)", async () => {
    const seen: string[] = [];
    const { result, calls } = await check(message(), {
      signer: stranger,
      contractProof: async (a) => {
        seen.push(a);
        return "admins sign with their key";
      },
    });
    expect(result).toEqual({ ok: false, reason: "admins sign with their key" });
    expect(seen).toEqual([wallet.address]);
    expect(calls.report).toBe(0);
  });

  it("a signature that does not recover, for a wallet that may be a contract, with no node to vouch: refused", async () => {
    const { result, calls } = await check(message(), { signer: stranger });
    expect(result).toEqual({ ok: false, reason: "signature, domain or time does not match" });
    expect(calls).toEqual({ claim: 1, contractProof: 1, report: 0 });
  });
});
