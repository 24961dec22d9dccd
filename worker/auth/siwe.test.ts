// checkSiwe (siwe.ts) in plain Node: each refusal with its own reason and in its order (chain, site, time, the
// issued text, then the signature), the nonce claimed before any signature work, a key's signature recovered here
// with no node asked, and a signature that does not recover going to the nodes only for a wallet that may be a
// contract, whose verdict is then the nodes' (small JSON-RPC nodes on 127.0.0.1 here; anvil and a lying node in
// worker/test-chain/quorum-ethereum.test.ts). And the clock rule both sign-ins share (clock.ts).
import { type Hex, hashMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { deadNodeUrl, type JsonRpcNode, type NodeReply, startJsonRpcNode } from "../../scripts/test/json-rpc-node";
import { ISSUED_AT_SKEW_MS, issuedAtIsAcceptable } from "./clock";
import { parseSiwe, type SignInMessage } from "./sign-in-grammar";
import { buildSiweMessage, checkSiwe, type ContractProofRule, NOT_ISSUED } from "./siwe";
import { readDeployment } from "../deployment/deployment";
import { parseSiteOrigin } from "./site";

const site = parseSiteOrigin("https://vanity.example")!;
const wallet = privateKeyToAccount(generatePrivateKey());
const stranger = privateKeyToAccount(generatePrivateKey());
const NOW = Date.UTC(2026, 11, 7, 12);
const NONCE = "a1b2c3d4e5f6a7b8";
// No node at all: a signature that reaches the nodes finds none to vouch for it.
const env: Record<string, string> = { ETH_CHAIN_ID: "1", ETH_RPC_URL: "", ETH_RPC_URLS: "" };

function message(over: Partial<{ chainId: number; issuedAt: number; expiresAt: number; address: string }> = {}, at = site) {
  return buildSiweMessage(at, { address: wallet.address, chainId: 1, nonce: NONCE, issuedAt: NOW - 1000, expiresAt: NOW + 600_000, ...over });
}

type CheckOptions = {
  signer?: typeof wallet;
  /** Sent instead of a signature by `signer`. */
  signature?: Hex;
  claim?: string | null;
  contractProof?: ContractProofRule;
  now?: number;
  /** The nodes' settings (none by default), and any other setting the deployment is read from. */
  nodes?: { ETH_RPC_URLS?: string; ETH_RPC_QUORUM?: string; ETH_CHAIN_ID?: string };
  /** What the grammar read, changed before checkSiwe sees it. */
  parsed?: (p: SignInMessage) => SignInMessage;
};

async function check(text: string, opts: CheckOptions = {}) {
  const calls = { claim: 0, contractProof: 0, report: 0 };
  const claimed: (readonly string[])[] = [];
  const parsed = parseSiwe(text)!;
  const result = await checkSiwe(readDeployment({ ...env, ...opts.nodes }).ethereum, site, {
    message: text,
    parsed: opts.parsed ? opts.parsed(parsed) : parsed,
    claim: async (texts) => {
      calls.claim++;
      claimed.push(texts);
      return opts.claim ?? null;
    },
    signature: opts.signature ?? ((await (opts.signer ?? wallet).signMessage({ message: text })) as Hex),
    now: opts.now ?? NOW,
    contractProof: async (a) => {
      calls.contractProof++;
      return opts.contractProof ? opts.contractProof(a) : null;
    },
    report: async () => {
      calls.report++;
    },
  });
  return { result, calls, claimed };
}

describe("checkSiwe", () => {
  it("a key's signature signs in with proof 'key', the nonce claimed once for exactly the signed text and no contract rule asked", async () => {
    const text = message();
    const { result, calls, claimed } = await check(text);
    expect(result).toEqual({ ok: true, address: wallet.address, proof: "key" });
    expect(calls).toEqual({ claim: 1, contractProof: 0, report: 0 });
    expect(claimed).toEqual([[text]]);
  });

  it("the server's message says what signing costs, and is one the strict grammar reads back", () => {
    const parsed = parseSiwe(message())!;
    expect(parsed.statement).toMatch(/^Sign in to Vanity Addresses\. .*costs nothing.*sends no transaction\.$/);
    expect(parsed).toMatchObject({ scheme: "https", domain: "vanity.example", uri: "https://vanity.example", chainId: "1", nonce: NONCE });
  });

  it("a message without a scheme is for https (EIP-4361's default): past the site check, refused as not the issued text", async () => {
    const text = message().replace("https://vanity.example wants", "vanity.example wants");
    expect(parseSiwe(text)!.scheme).toBeUndefined();
    const { result, calls } = await check(text, { claim: NOT_ISSUED });
    expect(result).toEqual({ ok: false, reason: NOT_ISSUED });
    expect(calls.claim).toBe(1);
  });

  it("a message read without a URI or an issue time is refused, before the nonce is claimed", async () => {
    const noUri = await check(message(), { parsed: ({ uri: _, ...rest }) => rest });
    expect(noUri.result).toEqual({ ok: false, reason: "message URI is for another site" });
    const noTime = await check(message(), { parsed: ({ issuedAt: _, ...rest }) => rest });
    expect(noTime.result).toEqual({ ok: false, reason: "message has no valid issue time" });
    expect([noUri.calls.claim, noTime.calls.claim]).toEqual([0, 0]);
  });

  it("refuses another chain, naming both chain ids, before claiming the nonce", async () => {
    const { result, calls } = await check(message({ chainId: 5 }));
    expect(result).toEqual({ ok: false, reason: "message is for chain 5, this marketplace signs in on chain 1" });
    expect(calls.claim).toBe(0);
  });

  it("refuses every message while the deployment's ETH_CHAIN_ID is not a chain id (it was when the nonce was issued), before claiming the nonce", async () => {
    for (const chainId of ["", "one", "0"]) {
      const { result, calls } = await check(message(), { nodes: { ETH_CHAIN_ID: chainId } });
      expect(result).toEqual({ ok: false, reason: "this marketplace's ETH_CHAIN_ID is not a chain id, so no Ethereum sign-in is accepted" });
      expect(calls.claim).toBe(0);
    }
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

// The signature validator's answers, ABI-encoded as eth_call returns them.
const VOUCHES: NodeReply = { result: `0x${"0".repeat(63)}1` };
const SAYS_INVALID: NodeReply = { result: `0x${"0".repeat(64)}` };

describe("checkSiwe: a signature that does not recover goes to the nodes, and their verdict is the answer", () => {
  const opened: JsonRpcNode[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((n) => n.close()));
    vi.restoreAllMocks();
  });

  /** Nodes answering eth_call as given ("down": nothing listens), and what each was asked. */
  async function nodes(replies: (NodeReply | "down")[], quorum: number) {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const asked: unknown[][] = [];
    const urls = await Promise.all(
      replies.map(async (reply) => {
        if (reply === "down") return deadNodeUrl();
        const node = await startJsonRpcNode((r) => {
          asked.push(r.params);
          return reply;
        });
        opened.push(node);
        return node.url;
      }),
    );
    return { settings: { ETH_RPC_URLS: urls.join(","), ETH_RPC_QUORUM: String(quorum) }, asked };
  }

  it("the quorum vouches: signed in with proof 'contract'; the nodes were asked about this address, message and signature", async () => {
    const { settings, asked } = await nodes([VOUCHES, VOUCHES], 2);
    const text = message();
    const signature = (await stranger.signMessage({ message: text })) as Hex;
    const { result, calls } = await check(text, { signature, nodes: settings });
    expect(result).toEqual({ ok: true, address: wallet.address, proof: "contract" });
    expect(calls).toEqual({ claim: 1, contractProof: 1, report: 0 });
    expect(asked).toHaveLength(2);
    const data = JSON.stringify(asked[0]).toLowerCase();
    for (const part of [wallet.address, hashMessage(text), signature]) expect(data).toContain(part.slice(2).toLowerCase());
  });

  it("a signature that is no ECDSA signature at all (a contract wallet's wrapper) is the nodes' to judge", async () => {
    const { settings } = await nodes([VOUCHES], 1);
    const { result } = await check(message(), { signature: `0x${"6492".repeat(40)}`, nodes: settings });
    expect(result).toEqual({ ok: true, address: wallet.address, proof: "contract" });
  });

  it("a node contradicting the others: refused, saying the nodes disagree, and the node reported", async () => {
    const { settings } = await nodes([VOUCHES, SAYS_INVALID, VOUCHES], 2);
    const { result, calls } = await check(message(), { signer: stranger, nodes: settings });
    expect(result).toEqual({ ok: false, reason: "the nodes disagree about this contract wallet's signature; nothing was signed in" });
    expect(calls.report).toBe(1);
  });

  it("fewer than the quorum vouched and none said no: refused, saying how many vouched of how many needed", async () => {
    const { settings } = await nodes([VOUCHES, "down"], 2);
    const { result, calls } = await check(message(), { signer: stranger, nodes: settings });
    expect(result).toEqual({
      ok: false,
      reason: "only 1 of the 2 nodes needed vouched for this contract wallet's signature; try again shortly",
    });
    expect(calls.report).toBe(0);
  });

  it("every node says invalid: the plain refusal, nobody reported", async () => {
    const { settings } = await nodes([SAYS_INVALID, SAYS_INVALID], 2);
    const { result, calls } = await check(message(), { signer: stranger, nodes: settings });
    expect(result).toEqual({ ok: false, reason: "signature, domain or time does not match" });
    expect(calls.report).toBe(0);
  });
});

describe("issuedAtIsAcceptable: a wallet's clock may run ahead of ours by the skew, no more", () => {
  it("accepts up to now plus the skew exactly, refuses a millisecond past it", () => {
    expect(issuedAtIsAcceptable(new Date(NOW + ISSUED_AT_SKEW_MS), NOW)).toBe(true);
    expect(issuedAtIsAcceptable(new Date(NOW + ISSUED_AT_SKEW_MS + 1), NOW)).toBe(false);
    expect(issuedAtIsAcceptable(new Date(NOW - 86_400_000), NOW)).toBe(true);
  });

  it("refuses no time and an unreadable one", () => {
    expect(issuedAtIsAcceptable(undefined, NOW)).toBe(false);
    expect(issuedAtIsAcceptable(new Date("not a date"), NOW)).toBe(false);
  });
});
