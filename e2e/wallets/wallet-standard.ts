// A test Solana wallet for the browser journeys: a Wallet Standard wallet registered through the
// `wallet-standard:register-wallet` event protocol, holding an Ed25519 key that stays in Node (the page asks
// Node to sign through an exposed function). It implements standard:connect, standard:disconnect,
// standard:events, solana:signMessage and, optionally, solana:signIn (building the SIWS text itself, as
// real wallets do).
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import type { Page } from "playwright-core";

export type SolanaTestKey = { secretKey: Uint8Array; address: string };

/** A deterministic key, so global setup can name it in ADMIN_WALLETS. */
export function solanaTestKey(seedByte: number): SolanaTestKey {
  const secretKey = new Uint8Array(32).fill(seedByte);
  return { secretKey, address: base58.encode(ed25519.getPublicKey(secretKey)) };
}

/** Seed of the Solana wallet that the e2e stack lists in ADMIN_WALLETS. */
export const SOLANA_ADMIN_SEED = 0x5a;

/**
 * `rpcUrl` adds `solana:signAndSendTransaction`: the transaction is signed in Node with the key and sent to
 * that RPC (the e2e run's LiteSVM chain), as a wallet sends through its own node.
 */
export async function injectSolanaWallet(page: Page, key: SolanaTestKey, opts: { name?: string; signIn?: boolean; rpcUrl?: string } = {}) {
  await page.exposeFunction("__e2eSolanaSign", (bytes: number[]) => Array.from(ed25519.sign(Uint8Array.from(bytes), key.secretKey)));
  if (opts.rpcUrl) {
    const rpcUrl = opts.rpcUrl;
    await page.exposeFunction("__e2eSolanaSignAndSend", async (bytes: number[]) => {
      const { Connection, Keypair, VersionedTransaction } = await import("@solana/web3.js");
      const tx = VersionedTransaction.deserialize(Uint8Array.from(bytes));
      tx.sign([Keypair.fromSeed(key.secretKey)]);
      const signature = await new Connection(rpcUrl, "confirmed").sendRawTransaction(tx.serialize());
      return Array.from(base58.decode(signature));
    });
  }
  await page.addInitScript(installSolanaWallet, {
    address: key.address,
    publicKey: Array.from(ed25519.getPublicKey(key.secretKey)),
    name: opts.name ?? "Test Solana Wallet",
    withSignIn: opts.signIn ?? true,
    withSend: Boolean(opts.rpcUrl),
    icon: `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" fill="#ab9ff2"/></svg>')}`,
  });
}

/** Runs inside the page before its scripts. Controls for the tests live on window.__testSolana. */
function installSolanaWallet(cfg: { address: string; publicKey: number[]; name: string; withSignIn: boolean; withSend: boolean; icon: string }) {
  type ChangeListener = (props: { accounts?: unknown[] }) => void;
  const w = window as unknown as {
    __e2eSolanaSign: (bytes: number[]) => Promise<number[]>;
    __e2eSolanaSignAndSend: (bytes: number[]) => Promise<number[]>;
    __testSolana: unknown;
  };
  const chains = ["solana:mainnet", "solana:devnet", "solana:localnet"] as const;
  const account = Object.freeze({
    address: cfg.address,
    publicKey: new Uint8Array(cfg.publicKey),
    chains,
    features: ["solana:signMessage", ...(cfg.withSignIn ? ["solana:signIn"] : []), ...(cfg.withSend ? ["solana:signAndSendTransaction"] : [])],
    label: cfg.name,
  });
  let accounts: (typeof account)[] = [];
  const listeners: ChangeListener[] = [];
  const control = { rejectNext: false, calls: [] as string[] };
  const setAccounts = (next: (typeof account)[]) => {
    accounts = next;
    listeners.forEach((l) => l({ accounts }));
  };
  const sign = async (bytes: Uint8Array) => new Uint8Array(await w.__e2eSolanaSign(Array.from(bytes)));
  const refuseIfAsked = () => {
    if (control.rejectNext) {
      control.rejectNext = false;
      throw Object.assign(new Error("User rejected the request."), { code: 4001 });
    }
  };

  // The Sign-In With Solana text, field by field, as Wallet Standard wallets write it.
  const signInText = (input: Record<string, string | undefined>, address: string) => {
    let text = `${input.domain ?? location.host} wants you to sign in with your Solana account:\n${address}`;
    if (input.statement) text += `\n\n${input.statement}`;
    const fields: string[] = [];
    const add = (label: string, value: string | undefined) => value && fields.push(`${label}: ${value}`);
    add("URI", input.uri);
    add("Version", input.version);
    add("Chain ID", input.chainId);
    add("Nonce", input.nonce);
    add("Issued At", input.issuedAt);
    add("Expiration Time", input.expirationTime);
    add("Not Before", input.notBefore);
    add("Request ID", input.requestId);
    if (fields.length) text += `\n\n${fields.join("\n")}`;
    return text;
  };

  const features: Record<string, unknown> = {
    "standard:connect": {
      version: "1.0.0",
      async connect(input?: { silent?: boolean }) {
        control.calls.push(input?.silent ? "connect(silent)" : "connect");
        if (!input?.silent) refuseIfAsked();
        setAccounts([account]);
        return { accounts };
      },
    },
    "standard:disconnect": {
      version: "1.0.0",
      async disconnect() {
        control.calls.push("disconnect");
        setAccounts([]);
      },
    },
    "standard:events": {
      version: "1.0.0",
      on(event: string, listener: ChangeListener) {
        if (event !== "change") return () => {};
        listeners.push(listener);
        return () => listeners.splice(listeners.indexOf(listener) >>> 0, 1);
      },
    },
    "solana:signMessage": {
      version: "1.0.0",
      async signMessage(...inputs: { account: { address: string }; message: Uint8Array }[]) {
        control.calls.push("signMessage");
        refuseIfAsked();
        return Promise.all(inputs.map(async ({ message }) => ({ signedMessage: message, signature: await sign(message) })));
      },
    },
  };
  if (cfg.withSend) {
    features["solana:signAndSendTransaction"] = {
      version: "1.0.0",
      supportedTransactionVersions: ["legacy", 0],
      async signAndSendTransaction(...inputs: { account: { address: string }; transaction: Uint8Array }[]) {
        control.calls.push("signAndSendTransaction");
        refuseIfAsked();
        return Promise.all(inputs.map(async ({ transaction }) => ({ signature: new Uint8Array(await w.__e2eSolanaSignAndSend(Array.from(transaction))) })));
      },
    };
  }
  if (cfg.withSignIn) {
    features["solana:signIn"] = {
      version: "1.0.0",
      async signIn(...inputs: Record<string, string | undefined>[]) {
        control.calls.push("signIn");
        refuseIfAsked();
        setAccounts([account]);
        return Promise.all(
          inputs.map(async (input) => {
            const signedMessage = new TextEncoder().encode(signInText(input, account.address));
            return { account, signedMessage, signature: await sign(signedMessage) };
          }),
        );
      },
    };
  }

  const wallet = {
    version: "1.0.0" as const,
    name: cfg.name,
    icon: cfg.icon,
    chains,
    features,
    get accounts() {
      return accounts;
    },
  };
  w.__testSolana = { control, setAccounts: (list: string[]) => setAccounts(list.length ? [account] : []) };

  // The registration protocol: announce now, and again when an app says it is ready.
  const register = ({ register }: { register: (wallet: unknown) => unknown }) => register(wallet);
  window.dispatchEvent(new CustomEvent("wallet-standard:register-wallet", { detail: register }));
  window.addEventListener("wallet-standard:app-ready", (event) => register((event as CustomEvent).detail));
}
