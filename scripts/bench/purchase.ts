// `npm run bench:purchase [-- --purchases 20 --concurrent 50]`: buying on a throw-away local stack (its own
// ports and D1, anvil mining a block a second, the LiteSVM Solana RPC), as a buyer's page does it.
//  1. Key latency, per network over N purchases, each by a fresh funded buyer: sign in, initiate, pay
//     (Ethereum: a native transfer of amountBaseUnits; Solana: the Worker's unsigned transfer, signed and
//     sent), then confirm once and again every second while pending (the page's live depth display), with
//     the cron route ticked every 10 s as under npm start. Measured: from the moment the payment reaches
//     the required depth on the chain (watched every 25 ms) to the moment the reveal call returns the key.
//     Goals: p50 < 3 s, p95 < 5 s.
//  2. Race: M signed-in buyers initiate on one listing at once: exactly one reservation; initiate p50/p95.
// `-- --nodes 2`: each chain read through two nodes with a quorum of two (docs/payments.md#trust-no-single-node):
// the chain itself, and a loopback JSON-RPC proxy to it on another port (a second node by name and connection, so
// every payment read is made twice, in parallel, and compared). The cost of the quorum is the difference.
// Run it under `flock /tmp/stack.lock` when other sessions may be using local stacks.
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { base64 } from "@scure/base";
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { createWalletClient, type Hex, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { startSolanaRpc } from "../solana-rpc/server";
import { applyLocalMigrations, buildWeb, type Child, httpOk, rpcAnswers, seedLocal, startAnvil, startWorker, tickScheduled, waitUntil } from "../stack";
import { activeListings, anvilChain, apiClient, initiate, type Listing, revealKey, rpc, signInEthereum, signInSolana, sleep } from "./buyer-client";

const { values } = parseArgs({
  options: { purchases: { type: "string", default: "20" }, concurrent: { type: "string", default: "50" }, nodes: { type: "string", default: "1" } },
});
const NODES = values.nodes === "2" ? 2 : 1;
const ANVIL_PROXY_PORT = 18646;
const SOLANA_PROXY_PORT = 18998;
const PURCHASES = Number(values.purchases);
const CONCURRENT = Number(values.concurrent);
const WEB_PORT = 8796;
const ANVIL_PORT = 18645;
const SOLANA_PORT = 18999;
const CONFIRM_EVERY_MS = 1000;
const TICK_MS = 10_000;
const SECRETS = { KEY_ENCRYPTION_SECRET: "bench-key-encryption-secret-0123456789abcdef", SESSION_SECRET: "bench-session-secret-0123456789abcdef" };
const base = `http://127.0.0.1:${WEB_PORT}`;
const anvilUrl = `http://127.0.0.1:${ANVIL_PORT}`;
const chain = anvilChain(anvilUrl);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

let clients = 0;
/**
 * A simulated client network per call (a header value; every request still goes to loopback): wrangler dev keeps a
 * client's cf-connecting-ip, and without one every request here would be 127.0.0.1, one network whose bounds
 * (30 sign-ins and reservation calls a minute, 10 open reservations: docs/public-surface.md#client-networks)
 * would cap the bench's many buyers rather than measure them.
 */
const simulatedClient = () => {
  clients++;
  return `198.18.${(clients >> 8) & 255}.${clients & 255}`;
};
const api = apiClient(base, simulatedClient);

/** The page after paying: confirm, then again every second while pending; then reveal. Resolves when the key arrives. */
async function confirmUntilKey(cookie: string, id: string, txHash: string, buyerWallet: string) {
  for (;;) {
    const confirmed = await api(`/api/transactions/${id}/confirm`, { body: { txHash, buyerWallet }, cookie });
    const status = confirmed.json?.status;
    if (status === "verified" || status === "completed") break;
    if (confirmed.status >= 400 && confirmed.status !== 503) throw new Error(`confirm ${confirmed.status}: ${JSON.stringify(confirmed.json)}`);
    if (status && !["initiated", "pending"].includes(status)) throw new Error(`purchase ended ${status}: ${JSON.stringify(confirmed.json)}`);
    await sleep(CONFIRM_EVERY_MS);
  }
  const reveal = await revealKey(api, cookie, id);
  if (reveal.privateKey === undefined) throw new Error(`reveal ${reveal.status}: ${JSON.stringify(reveal.json)}`);
  return { at: performance.now(), key: reveal.privateKey, address: reveal.json.address as string };
}

async function buyOnEthereum(listing: Listing, depth: number) {
  const privateKey = generatePrivateKey();
  const account = privateKeyToAccount(privateKey);
  await rpc(anvilUrl, "anvil_setBalance", [account.address, `0x${parseEther("1000").toString(16)}`]);
  const cookie = await signInEthereum(api, privateKey);
  const { id, view } = await initiate(api, cookie, listing, account.address);
  const wallet = createWalletClient({ account, chain, transport: http(anvilUrl) });
  const hash = await wallet.sendTransaction({ to: view.recipient as Hex, value: BigInt(view.amountBaseUnits) });
  const deep = (async () => {
    let block: bigint | undefined;
    for (;;) {
      if (block === undefined) {
        const receipt = await rpc(anvilUrl, "eth_getTransactionReceipt", [hash]);
        if (receipt) block = BigInt(receipt.blockNumber);
      }
      if (block !== undefined && BigInt(await rpc(anvilUrl, "eth_blockNumber")) >= block + BigInt(depth - 1)) return performance.now();
      await sleep(25);
    }
  })();
  const key = await confirmUntilKey(cookie, id, hash, account.address);
  if (privateKeyToAccount(key.key.startsWith("0x") ? (key.key as Hex) : `0x${key.key}`).address.toLowerCase() !== listing.address.toLowerCase())
    throw new Error(`revealed key does not derive ${listing.address}`);
  return key.at - (await deep);
}

async function buyOnSolana(listing: Listing, solanaUrl: string, commitment: string) {
  const keypair = Keypair.generate();
  const airdrop = await rpc(solanaUrl, "requestAirdrop", [keypair.publicKey.toBase58(), 100_000_000_000]);
  if (!airdrop) throw new Error("airdrop failed");
  const cookie = await signInSolana(api, keypair);
  const { id } = await initiate(api, cookie, listing, keypair.publicKey.toBase58());
  const request = await api(`/api/transactions/${id}/solana-transaction`, { body: { account: keypair.publicKey.toBase58() }, cookie });
  if (!request.json?.transaction) throw new Error(`solana-transaction ${request.status}: ${JSON.stringify(request.json)}`);
  const tx = VersionedTransaction.deserialize(base64.decode(request.json.transaction));
  tx.sign([keypair]);
  const signature = (await rpc(solanaUrl, "sendTransaction", [base64.encode(tx.serialize()), { encoding: "base64" }])) as string;
  const deep = (async () => {
    for (;;) {
      const [status] = (await rpc(solanaUrl, "getSignatureStatuses", [[signature]])).value;
      if (status && (commitment !== "finalized" || status.confirmationStatus === "finalized")) return performance.now();
      await sleep(25);
    }
  })();
  const key = await confirmUntilKey(cookie, id, signature, keypair.publicKey.toBase58());
  if (key.address !== listing.address) throw new Error(`revealed key is for ${key.address}, not ${listing.address}`);
  return key.at - (await deep);
}

async function race(listing: Listing) {
  const buyers = await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      const key = generatePrivateKey();
      return { address: privateKeyToAccount(key).address, cookie: await signInEthereum(api, key) };
    }),
  );
  const results = await Promise.all(
    buyers.map(async (b) => {
      const start = performance.now();
      const res = await api("/api/transactions/initiate", { body: { addressId: listing.id, buyerId: b.address }, cookie: b.cookie });
      return { status: res.status, ms: performance.now() - start };
    }),
  );
  const byStatus = new Map<number, number>();
  for (const r of results) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
  return { byStatus, latencies: results.map((r) => r.ms) };
}

/** JSON-RPC requests the second nodes forwarded: printed, so a run shows they were asked. */
let proxied = 0;

/** A second node by name: a loopback proxy that forwards each JSON-RPC request to `upstream` as it is. */
function proxyTo(upstream: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    proxied += 1;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.concat(chunks) })
        .then(async (answer) => {
          res.writeHead(answer.status, { "content-type": "application/json" });
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

async function main() {
  const persistTo = fs.mkdtempSync(path.join(os.tmpdir(), "vanity-bench-purchase-"));
  const children: Pick<Child, "stop">[] = [];
  let ticker: NodeJS.Timeout | undefined;
  try {
    console.log("Starting a throw-away stack (build, migrate, seed, anvil, Solana RPC, wrangler dev)…");
    buildWeb(true);
    applyLocalMigrations(persistTo, true);
    seedLocal(persistTo, true, SECRETS);
    children.push(startAnvil({ port: ANVIL_PORT, chainId: 31337, blockTime: 1, silent: true }));
    if (!(await waitUntil(rpcAnswers(anvilUrl), 30_000))) throw new Error("anvil did not start");
    const solana = await startSolanaRpc({ port: SOLANA_PORT, fund: [] });
    children.push({ stop: () => void solana.stop() });
    const nodeVars: Record<string, string> = { ETH_RPC_URL: anvilUrl, SOL_RPC_URL: solana.url };
    if (NODES === 2) {
      for (const [upstream, port] of [
        [anvilUrl, ANVIL_PROXY_PORT],
        [solana.url, SOLANA_PROXY_PORT],
      ] as const) {
        const server = await proxyTo(upstream, port);
        children.push({ stop: () => void server.close() });
      }
      Object.assign(nodeVars, {
        ETH_RPC_URLS: `${anvilUrl},http://127.0.0.1:${ANVIL_PROXY_PORT}`,
        ETH_RPC_QUORUM: "2",
        SOL_RPC_URLS: `${solana.url},http://127.0.0.1:${SOLANA_PROXY_PORT}`,
        SOL_RPC_QUORUM: "2",
      });
    }
    children.push(startWorker({ port: WEB_PORT, persistTo, silent: true, vars: { ...nodeVars, ...SECRETS } }));
    if (!(await waitUntil(httpOk(`${base}/api/health`), 90_000))) throw new Error("wrangler dev did not become healthy");
    ticker = setInterval(() => void tickScheduled(base).catch(() => undefined), TICK_MS);

    const config = (await api("/api/config")).json;
    const depth = config.payments.ethereum.confirmations as number;
    const commitment = config.payments.solana.commitment as string;
    const listings = await activeListings(persistTo);
    const eth = listings.filter((l) => l.network === "ethereum");
    const sol = listings.filter((l) => l.network === "solana");
    if (eth.length < PURCHASES + 1 || sol.length < PURCHASES) throw new Error(`not enough demo listings (${eth.length} ETH, ${sol.length} SOL)`);
    console.log(
      `Ethereum depth ${depth} (a block a second); Solana commitment ${commitment}; ${PURCHASES} purchases per network; ${NODES === 2 ? "two nodes per chain, quorum 2" : "one node per chain"}.\n`,
    );

    const rows: [string, number[]][] = [];
    for (const [name, buy] of [
      ["Ethereum", (i: number) => buyOnEthereum(eth[i]!, depth)],
      ["Solana", (i: number) => buyOnSolana(sol[i]!, solana.url, commitment)],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < PURCHASES; i++) {
        times.push(await buy(i));
        process.stdout.write(`\r  ${name}: ${i + 1}/${PURCHASES}`);
      }
      process.stdout.write("\n");
      rows.push([name, times]);
    }
    console.log("\nFrom the payment at its required depth to the key in the buyer's hands (goal p50 < 3 s, p95 < 5 s):");
    for (const [name, times] of rows) {
      const ok = pct(times, 50) < 3000 && pct(times, 95) < 5000;
      console.log(`  ${name.padEnd(9)} p50 ${secs(pct(times, 50))}  p95 ${secs(pct(times, 95))}  max ${secs(Math.max(...times))}  ${ok ? "✓" : "✗"}`);
    }

    if (NODES === 2) console.log(`  (the second nodes forwarded ${proxied} requests)`);
    const { byStatus, latencies } = await race(eth[PURCHASES]!);
    const created = byStatus.get(201) ?? 0;
    console.log(`\n${CONCURRENT} buyers initiating on one listing at once:`);
    console.log(`  reservations created: ${created} ${created === 1 ? "✓" : "✗ (expected exactly 1)"}`);
    console.log(`  answers: ${[...byStatus].map(([s, n]) => `${n} x ${s}`).join(", ")}`);
    console.log(`  initiate latency at ${CONCURRENT} concurrent: p50 ${(pct(latencies, 50)).toFixed(0)} ms, p95 ${(pct(latencies, 95)).toFixed(0)} ms`);
  } finally {
    clearInterval(ticker);
    for (const child of children) child.stop();
    await sleep(500);
    fs.rmSync(persistTo, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
