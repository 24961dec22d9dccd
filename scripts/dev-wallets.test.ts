// The local demo's dev wallets (web/src/wallet/dev), driven as the web app drives them, against a real anvil
// and the LiteSVM Solana RPC: what they sign verifies, and what they send lands.
import net from "node:net";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { Connection, PublicKey, SystemProgram, Transaction, VersionedTransaction } from "@solana/web3.js";
import { type Hex, parseEther, stringToHex, verifyMessage } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDevEthereumProvider } from "../web/src/wallet/dev/ethereum-dev-wallet";
import { jsonRpcRelay, RpcFailure } from "../web/src/wallet/dev/relay";
import { createDevSolanaWallet, signInText } from "../web/src/wallet/dev/solana-dev-wallet";
import { DEV_WALLET_METHODS } from "../worker/routes/dev-chains";
import { DEV_ACCOUNTS, LOCAL_CHAIN, SOLANA_DEV_ACCOUNTS } from "../schema/dev-accounts";
import { type SolanaRpc, startSolanaRpc } from "./solana-rpc/server";
import { type Child, rpcAnswers, startAnvil, waitUntil } from "./stack";

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

let anvil: Child;
let anvilUrl: string;
let solana: SolanaRpc;

beforeAll(async () => {
  const port = await freePort();
  anvilUrl = `http://127.0.0.1:${port}`;
  anvil = startAnvil({ port, chainId: LOCAL_CHAIN.chainId, silent: true });
  solana = await startSolanaRpc({ port: 0, slotMs: 0 });
  if (!(await waitUntil(rpcAnswers(anvilUrl), 30_000))) throw new Error("anvil did not start");
}, 40_000);
afterAll(async () => {
  anvil?.stop();
  await solana?.stop();
});

describe("Ethereum dev wallet (EIP-1193)", () => {
  const provider = () => createDevEthereumProvider({ privateKey: DEV_ACCOUNTS.buyer.privateKey, chainId: LOCAL_CHAIN.chainId, relay: jsonRpcRelay(anvilUrl) });

  it("shares its one account and the local chain id", async () => {
    const p = provider();
    expect(await p.request({ method: "eth_requestAccounts" })).toEqual([DEV_ACCOUNTS.buyer.address]);
    expect(await p.request({ method: "eth_chainId" })).toBe("0x7a69");
    expect(await p.request({ method: "wallet_switchEthereumChain", params: [{ chainId: "0x7a69" }] })).toBeNull();
    await expect(p.request({ method: "wallet_switchEthereumChain", params: [{ chainId: "0x1" }] })).rejects.toMatchObject({ code: 4902 });
  });

  it("personal_sign signs locally; the signature recovers the account", async () => {
    const message = "example.com wants you to sign in with your Ethereum account";
    const signature = (await provider().request({ method: "personal_sign", params: [stringToHex(message), DEV_ACCOUNTS.buyer.address] })) as Hex;
    expect(await verifyMessage({ address: DEV_ACCOUNTS.buyer.address, message, signature })).toBe(true);
  });

  it("eth_sendTransaction signs locally, sends a raw transaction, and the receipt comes back through the provider", async () => {
    const p = provider();
    const hash = (await p.request({
      method: "eth_sendTransaction",
      params: [{ from: DEV_ACCOUNTS.buyer.address, to: DEV_ACCOUNTS.platform.address, value: `0x${parseEther("0.01").toString(16)}` }],
    })) as Hex;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    // anvil's automine seals the block just after answering the send, so on a loaded machine the first
    // receipt query can still see nothing: wait for it, as a wallet does.
    let receipt: { status: string; from: string; to: string } | null = null;
    await waitUntil(
      async () => {
        receipt = (await p.request({ method: "eth_getTransactionReceipt", params: [hash] })) as typeof receipt;
        return receipt !== null;
      },
      10_000,
      100,
    );
    expect(receipt).toMatchObject({ status: "0x1", from: DEV_ACCOUNTS.buyer.address.toLowerCase(), to: DEV_ACCOUNTS.platform.address.toLowerCase() });
    const tx = (await p.request({ method: "eth_getTransactionByHash", params: [hash] })) as { value: string };
    expect(BigInt(tx.value)).toBe(parseEther("0.01"));
  });

  it("a payment asks the relay only for what it forwards: no refused eth_fillTransaction first", async () => {
    const asked: string[] = [];
    const direct = jsonRpcRelay(anvilUrl);
    // The Worker's relay (worker/routes/dev-chains.ts) answers 400 to any method not on its list.
    const relay = async (method: string, params: unknown[]) => {
      asked.push(method);
      if (!(DEV_WALLET_METHODS.ethereum as readonly string[]).includes(method)) throw new RpcFailure(`${method} is not relayed`, -32601);
      return direct(method, params);
    };
    const p = createDevEthereumProvider({ privateKey: DEV_ACCOUNTS.buyer.privateKey, chainId: LOCAL_CHAIN.chainId, relay });
    const hash = (await p.request({
      method: "eth_sendTransaction",
      params: [{ from: DEV_ACCOUNTS.buyer.address, to: DEV_ACCOUNTS.platform.address, value: "0x2386f26fc10000", gas: "0x5208" }],
    })) as Hex;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(asked.filter((m) => !(DEV_WALLET_METHODS.ethereum as readonly string[]).includes(m))).toEqual([]);
    expect(asked).toContain("eth_sendRawTransaction");
  });

  it("refuses to send for an account it does not hold", async () => {
    await expect(
      provider().request({ method: "eth_sendTransaction", params: [{ from: DEV_ACCOUNTS.admin.address, to: DEV_ACCOUNTS.platform.address, value: "0x1" }] }),
    ).rejects.toMatchObject({ code: 4100 });
  });
});

describe("Solana dev wallet (Wallet Standard)", () => {
  const wallet = () =>
    createDevSolanaWallet({
      name: "Local dev buyer (public test key)",
      icon: "data:image/svg+xml,x",
      secretKey: base58.decode(SOLANA_DEV_ACCOUNTS.buyer.secretKey),
      relay: jsonRpcRelay(solana.url),
      host: "localhost:8787",
    });
  const buyer = SOLANA_DEV_ACCOUNTS.buyer.address;

  it("connects, signs messages and signs in with a SIWS text that verifies", async () => {
    const w = wallet();
    const changes: unknown[] = [];
    w.features["standard:events"].on("change", (c) => changes.push(c));
    const { accounts } = await w.features["standard:connect"].connect();
    expect(accounts.map((a) => a.address)).toEqual([buyer]);
    expect(changes).toHaveLength(1);
    const message = new TextEncoder().encode("hello");
    const [signed] = await w.features["solana:signMessage"].signMessage({ account: accounts[0]!, message });
    expect(ed25519.verify(signed!.signature, message, base58.decode(buyer))).toBe(true);
    await expect(w.features["solana:signMessage"].signMessage({ account: { address: SOLANA_DEV_ACCOUNTS.admin.address }, message })).rejects.toThrow(
      /not in this wallet/,
    );

    const input = {
      domain: "localhost:8787",
      statement: "Sign in",
      uri: "http://localhost:8787",
      version: "1",
      chainId: "localnet",
      nonce: "abc123",
      issuedAt: "2026-11-23T10:00:00Z",
    };
    const [out] = await w.features["solana:signIn"].signIn(input);
    const text = new TextDecoder().decode(out!.signedMessage);
    expect(text).toBe(signInText(input, buyer, "ignored"));
    expect(text.split("\n").slice(0, 2)).toEqual(["localhost:8787 wants you to sign in with your Solana account:", buyer]);
    expect(ed25519.verify(out!.signature, out!.signedMessage, base58.decode(buyer))).toBe(true);
  });

  it("signs and sends an unsigned transfer built elsewhere (the Worker's transaction request); it lands on the local chain", async () => {
    const w = wallet();
    const connection = new Connection(solana.url, "confirmed");
    const platform = new PublicKey(SOLANA_DEV_ACCOUNTS.platform.address);
    const reference = new PublicKey(base58.encode(ed25519.getPublicKey(ed25519.utils.randomSecretKey())));
    const ix = SystemProgram.transfer({ fromPubkey: new PublicKey(buyer), toPubkey: platform, lamports: 12_345_678 });
    ix.keys.push({ pubkey: reference, isSigner: false, isWritable: false });
    const unsigned = new Transaction({ feePayer: new PublicKey(buyer), ...(await connection.getLatestBlockhash()) }).add(ix);
    const wire = unsigned.serialize({ requireAllSignatures: false, verifySignatures: false });

    const [{ signature }] = (await w.features["solana:signAndSendTransaction"].signAndSendTransaction({ account: { address: buyer }, transaction: wire })) as [
      { signature: Uint8Array },
    ];
    const got = await connection.getTransaction(base58.encode(signature), { commitment: "confirmed", maxSupportedTransactionVersion: 0 });
    expect(got!.meta!.err).toBeNull();
    expect(got!.meta!.postBalances[1]! - got!.meta!.preBalances[1]!).toBe(12_345_678);
    expect((await connection.getSignaturesForAddress(reference, {}, "confirmed"))[0]?.signature).toBe(base58.encode(signature));

    const [{ signedTransaction }] = await w.features["solana:signTransaction"].signTransaction({ account: { address: buyer }, transaction: wire });
    expect(VersionedTransaction.deserialize(signedTransaction).signatures[0]).toEqual(signature);
  });

  it("passes the chain's refusal on to the page", async () => {
    const w = wallet();
    const connection = new Connection(solana.url, "confirmed");
    const tx = new Transaction({ feePayer: new PublicKey(buyer), ...(await connection.getLatestBlockhash()) }).add(
      SystemProgram.transfer({ fromPubkey: new PublicKey(buyer), toPubkey: new PublicKey(SOLANA_DEV_ACCOUNTS.platform.address), lamports: 10 ** 15 }),
    );
    const wire = tx.serialize({ requireAllSignatures: false, verifySignatures: false });
    const error = await w.features["solana:signAndSendTransaction"]
      .signAndSendTransaction({ account: { address: buyer }, transaction: wire })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcFailure);
    expect((error as RpcFailure).message).toMatch(/insufficient|custom program error/);
  });
});
