// npm run bench:scan [-- --open 5000]: finding a payment nobody reported, with thousands of reservations open
// (free wallets hoard reservations; the per-reservation scan this replaced saw each of ~750 once). On
// loopback only: its own anvil (a block per transaction) and LiteSVM Solana RPC on the chain-test ports moved by
// TEST_PORT_OFFSET, and a throw-away local D1 (workerd's SQLite, as wrangler dev runs it). For each network, with
// none and then `--open` reservations held by as many wallets: one more reservation is paid on the chain and never
// reported, and the cron job (jobs/scheduled.ts, the code the Worker runs) is run, five new blocks between runs as a
// minute of mainnet makes, until that purchase is settled. Prints the cron runs it took, the time per run and the node
// requests per run: the goal is settled within two runs, and a run's cost independent of the open reservations.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { base58 } from "@scure/base";
import { Keypair, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import { createWalletClient, defineChain, type Hex, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { getPlatformProxy } from "wrangler";
import { runScheduledJobs } from "../../worker/jobs/scheduled.ts";
import { startSolanaRpc } from "../solana-rpc/server.ts";
import { applyLocalMigrations, ROOT, rpcAnswers, startAnvil, waitUntil } from "../stack.ts";
import { testPort } from "../test/ports.ts";
import { benchWranglerConfig } from "./bench-wrangler-config.ts";
import { currencyOf } from "../../schema/network";

const { values } = parseArgs({ options: { open: { type: "string", default: "5000" }, runs: { type: "string", default: "6" } } });
const OPEN = Number(values.open);
const MAX_RUNS = Number(values.runs);
/** Blocks mined between two cron runs: a minute of mainnet at 12 s a block. */
const BLOCKS_PER_RUN = 5;
const GOAL_RUNS = 2;
const ANVIL_PORT = testPort(27645);
const SOLANA_PORT = testPort(27999);
const anvilUrl = `http://127.0.0.1:${ANVIL_PORT}`;
const solanaUrl = `http://127.0.0.1:${SOLANA_PORT}`;
const chain = defineChain({
  id: 31337,
  name: "Anvil",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [anvilUrl] } },
});

/** The committed [vars] of wrangler.toml, with this bench's nodes. */
function vars(): Record<string, string> {
  const main = fs.readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");
  const rest = main.slice(main.indexOf("\n[vars]") + 1);
  const end = rest.indexOf("\n[");
  const section = end === -1 ? rest : rest.slice(0, end);
  const out: Record<string, string> = {};
  for (const m of section.matchAll(/^([A-Z_]+)\s*=\s*"([^"]*)"/gm)) out[m[1]] = m[2];
  return { ...out, ETH_RPC_URL: anvilUrl, SOL_RPC_URL: solanaUrl };
}

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** Requests the Worker's code sends to each node while `counting` (the cron runs in this process). */
const requests = new Map<string, number>();
let counting = false;
const realFetch = globalThis.fetch;
globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
  const url = input instanceof Request ? input.url : String(input);
  if (counting) for (const node of [anvilUrl, solanaUrl]) if (url.startsWith(node)) requests.set(node, (requests.get(node) ?? 0) + 1);
  return realFetch(input, init);
}) as typeof fetch;

type Row = { network: string; open: number; runs: number | null; msPerRun: number; requestsPerRun: number };

/** `n` open reservations on `network`, each on its own listing and from its own wallet. */
async function hoard(db: D1Database, network: "ethereum" | "solana", n: number, block: number | null, now: number) {
  const rows = Array.from({ length: n }, () => ({
    id: crypto.randomUUID(),
    listing:
      network === "ethereum"
        ? `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString("hex")}`
        : base58.encode(crypto.getRandomValues(new Uint8Array(32))),
    wallet:
      network === "ethereum"
        ? `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString("hex")}`
        : base58.encode(crypto.getRandomValues(new Uint8Array(32))),
    reference: network === "solana" ? base58.encode(crypto.getRandomValues(new Uint8Array(32))) : null,
  }));
  await reservations(db, network, rows, block, now);
}

async function reservations(
  db: D1Database,
  network: "ethereum" | "solana",
  rows: { id: string; listing: string; wallet: string; reference: string | null }[],
  block: number | null,
  now: number,
) {
  const currency = currencyOf(network);
  for (let i = 0; i < rows.length; i += 2_500) {
    const json = JSON.stringify(rows.slice(i, i + 2_500));
    await db.batch([
      db
        .prepare(
          `INSERT INTO addresses (address, network, price, price_units, currency, status, is_listed, category, pattern)
           SELECT value ->> 'listing', ?2, '0.01', 1000000, ?3, 'active', 1, 'custom', 'bench' FROM json_each(?1)`,
        )
        .bind(json, network, currency),
      db
        .prepare(
          `INSERT INTO transactions (id, address_id, buyer_wallet, network, price, price_units, currency, total_amount, total_units, status, payment_reference,
                                     amount_base_units, scan_from_block, reserved_block, created_at, updated_at, expires_at)
           SELECT j.value ->> 'id', a.id, j.value ->> 'wallet', ?2, '0.01', 1000000, ?3, '0.01', 1000000, 'initiated', j.value ->> 'reference',
                  ?4, ?5, ?5, ?6, ?6, ?7
           FROM json_each(?1) j JOIN addresses a ON a.address = j.value ->> 'listing'`,
        )
        .bind(json, network, currency, network === "ethereum" ? "10000000000000000" : "10000000", block, now, now + 15 * 60_000),
    ]);
  }
}

async function measure(network: "ethereum" | "solana", open: number, configPath: string, dir: string): Promise<Row> {
  const proxy = await getPlatformProxy<{ DB: D1Database }>({ configPath, persist: { path: `${dir}/v3` } });
  try {
    const db = proxy.env.DB;
    const settings = vars();
    const env = {
      ...settings,
      DB: db,
      KEY_ENCRYPTION_SECRET: "bench-key-encryption-secret-0123456789abcdef",
      SESSION_SECRET: "bench-session-secret-0123456789abcdef",
    };
    const cron = (now: number) => runScheduledJobs(env as unknown as Env, now);
    await cron(Date.now()); // the scan and the reconciliation start from where the chains are now
    const head = Number(await rpc<string>(anvilUrl, "eth_blockNumber"));
    const now = Date.now();
    await hoard(db, network, open, network === "ethereum" ? head : null, now);
    // The buyer's reservation, paid and never reported.
    const id = crypto.randomUUID();
    let pay: () => Promise<void>;
    if (network === "ethereum") {
      const account = privateKeyToAccount(generatePrivateKey());
      await rpc(anvilUrl, "anvil_setBalance", [account.address, "0x56BC75E2D63100000"]);
      await reservations(
        db,
        network,
        [{ id, listing: privateKeyToAccount(generatePrivateKey()).address, wallet: account.address.toLowerCase(), reference: null }],
        head,
        now,
      );
      const wallet = createWalletClient({ account, chain, transport: http(anvilUrl) });
      pay = async () => {
        await wallet.sendTransaction({ to: settings.PLATFORM_ETH_ADDRESS as Hex, value: 10_000_000_000_000_000n, gas: 21_000n });
      };
    } else {
      const buyer = Keypair.generate();
      const reference = Keypair.generate().publicKey.toBase58();
      await rpc(solanaUrl, "requestAirdrop", [buyer.publicKey.toBase58(), 1_000_000_000]);
      await reservations(db, network, [{ id, listing: Keypair.generate().publicKey.toBase58(), wallet: buyer.publicKey.toBase58(), reference }], null, now);
      pay = async () => {
        const ix = SystemProgram.transfer({ fromPubkey: buyer.publicKey, toPubkey: new PublicKey(settings.PLATFORM_SOL_ADDRESS), lamports: 10_000_000 });
        ix.keys.push({ pubkey: new PublicKey(reference), isSigner: false, isWritable: false });
        const { value } = await rpc<{ value: { blockhash: string } }>(solanaUrl, "getLatestBlockhash", [{ commitment: "confirmed" }]);
        const tx = new Transaction({ feePayer: buyer.publicKey, recentBlockhash: value.blockhash }).add(ix);
        tx.sign(buyer);
        const signature = await rpc<string>(solanaUrl, "sendTransaction", [Buffer.from(tx.serialize()).toString("base64"), { encoding: "base64" }]);
        await waitUntil(
          async () =>
            (await rpc<{ value: ({ confirmationStatus: string } | null)[] }>(solanaUrl, "getSignatureStatuses", [[signature]])).value[0]?.confirmationStatus !==
            "processed",
          10_000,
          100,
        );
      };
    }
    await pay();
    const status = async () => (await db.prepare("SELECT status FROM transactions WHERE id = ?").bind(id).first<{ status: string }>())!.status;
    let runs: number | null = null;
    let ms = 0;
    requests.clear();
    for (let run = 1; run <= MAX_RUNS; run++) {
      await rpc(anvilUrl, "anvil_mine", [`0x${BLOCKS_PER_RUN.toString(16)}`]);
      counting = true;
      const t0 = performance.now();
      const report = await cron(Date.now());
      ms += performance.now() - t0;
      counting = false;
      if (report.errors.length) console.warn(`  run ${run}: ${report.errors.join(" | ")}`);
      if ((await status()) === "completed") {
        runs = run;
        break;
      }
    }
    const done = runs ?? MAX_RUNS;
    const node = network === "ethereum" ? anvilUrl : solanaUrl;
    // Sanity: the reservations really were open while the cron ran.
    const held = await db.prepare("SELECT count(*) AS n FROM transactions WHERE status = 'initiated' AND network = ?").bind(network).first<{ n: number }>();
    if (held!.n < open) throw new Error(`only ${held!.n} reservations were open, not ${open}`);
    return { network, open, runs, msPerRun: ms / done, requestsPerRun: (requests.get(node) ?? 0) / done };
  } finally {
    await proxy.dispose();
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vanity-bench-scan-"));
  const configPath = benchWranglerConfig(dir, "vanity-market-bench-scan");
  const anvil = startAnvil({ port: ANVIL_PORT, chainId: 31337, silent: true });
  const solana = await startSolanaRpc({ port: SOLANA_PORT, slotMs: 100 });
  try {
    if (!(await waitUntil(rpcAnswers(anvilUrl), 30_000))) throw new Error(`anvil did not start on ${anvilUrl}`);
    applyLocalMigrations(dir, true);
    const rows: Row[] = [];
    // One database: the reservations held for one measurement stay open through the next ones.
    for (const open of [0, OPEN]) {
      for (const network of ["ethereum", "solana"] as const) {
        rows.push(await measure(network, open, configPath, dir));
        const r = rows.at(-1)!;
        console.log(
          `${r.network.padEnd(9)} ${r.open.toLocaleString("en-US").padStart(6)} open: settled after ${r.runs ?? `more than ${MAX_RUNS}`} cron run(s), ` +
            `${r.msPerRun.toFixed(0)} ms and ${r.requestsPerRun.toFixed(1)} node requests per run`,
        );
      }
    }
    const met = rows.every((r) => r.runs !== null && r.runs <= GOAL_RUNS);
    console.log(`\n| network | open reservations | cron runs to settle | ms per run | node requests per run |\n|---|---|---|---|---|`);
    for (const r of rows)
      console.log(
        `| ${r.network} | ${r.open.toLocaleString("en-US")} | ${r.runs ?? `> ${MAX_RUNS}`} | ${r.msPerRun.toFixed(0)} | ${r.requestsPerRun.toFixed(1)} |`,
      );
    console.log(
      `\ngoal: an unreported payment settled within ${GOAL_RUNS} cron runs with ${OPEN.toLocaleString("en-US")} reservations open: ${met ? "met" : "NOT MET"}`,
    );
    if (!met) process.exitCode = 1;
  } finally {
    anvil.stop();
    await solana.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
