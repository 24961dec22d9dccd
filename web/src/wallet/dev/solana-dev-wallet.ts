// A Wallet Standard Solana wallet for one of the local chain's public dev keypairs: connect, sign in (SIWS),
// sign messages, and sign transactions and send them to the local LiteSVM RPC. For the local demo only (see
// index.ts); the keys are public.
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58, base64 } from "@scure/base";
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { siwsMessageText } from "../../../../schema/siws-message";
import type { ChainRelay } from "./relay";

type Account = { address: string; publicKey: Uint8Array; chains: readonly `${string}:${string}`[]; features: readonly `${string}:${string}`[]; label: string };
type ChangeListener = (props: { accounts?: readonly Account[] }) => void;
export type SignInInput = Partial<
  Record<"domain" | "address" | "statement" | "uri" | "version" | "chainId" | "nonce" | "issuedAt" | "expirationTime" | "notBefore" | "requestId", string>
> & {
  resources?: string[];
};

const CHAINS = ["solana:localnet"] as const;

/** The Sign-In With Solana text the wallet signs: the request's fields, its own address, and the page's host when no domain is given. */
export function signInText(input: SignInInput, address: string, host: string) {
  return siwsMessageText({ ...input, domain: input.domain ?? host, address });
}

export function createDevSolanaWallet(opts: { name: string; icon: `data:image/${string}`; secretKey: Uint8Array; relay: ChainRelay; host: string }) {
  const keypair = Keypair.fromSecretKey(opts.secretKey);
  const seed = opts.secretKey.slice(0, 32);
  const account: Account = Object.freeze({
    address: keypair.publicKey.toBase58(),
    publicKey: keypair.publicKey.toBytes(),
    chains: CHAINS,
    features: ["solana:signMessage", "solana:signIn", "solana:signTransaction", "solana:signAndSendTransaction"] as const,
    label: opts.name,
  });
  let accounts: readonly Account[] = [];
  const listeners = new Set<ChangeListener>();
  const setAccounts = (next: readonly Account[]) => {
    accounts = next;
    listeners.forEach((l) => l({ accounts }));
  };
  const ours = (input: { account?: { address: string } }) => {
    if (input.account && input.account.address !== account.address) throw new Error("That account is not in this wallet.");
  };
  const sign = (wire: Uint8Array) => {
    const tx = VersionedTransaction.deserialize(wire);
    tx.sign([keypair]);
    return tx.serialize();
  };

  return {
    version: "1.0.0" as const,
    name: opts.name,
    icon: opts.icon,
    chains: CHAINS,
    get accounts() {
      return accounts;
    },
    features: {
      "standard:connect": {
        version: "1.0.0",
        async connect() {
          setAccounts([account]);
          return { accounts };
        },
      },
      "standard:disconnect": {
        version: "1.0.0",
        async disconnect() {
          setAccounts([]);
        },
      },
      "standard:events": {
        version: "1.0.0",
        on(event: string, listener: ChangeListener) {
          if (event !== "change") return () => {};
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
      "solana:signMessage": {
        version: "1.0.0",
        async signMessage(...inputs: { account: { address: string }; message: Uint8Array }[]) {
          return inputs.map((input) => {
            ours(input);
            return { signedMessage: input.message, signature: ed25519.sign(input.message, seed) };
          });
        },
      },
      "solana:signIn": {
        version: "1.0.0",
        async signIn(...inputs: SignInInput[]) {
          setAccounts([account]);
          return inputs.map((input) => {
            const signedMessage = new TextEncoder().encode(signInText(input, account.address, opts.host));
            return { account, signedMessage, signature: ed25519.sign(signedMessage, seed), signatureType: "ed25519" as const };
          });
        },
      },
      "solana:signTransaction": {
        version: "1.0.0",
        supportedTransactionVersions: ["legacy", 0] as const,
        async signTransaction(...inputs: { account: { address: string }; transaction: Uint8Array }[]) {
          return inputs.map((input) => {
            ours(input);
            return { signedTransaction: sign(input.transaction) };
          });
        },
      },
      "solana:signAndSendTransaction": {
        version: "1.0.0",
        supportedTransactionVersions: ["legacy", 0] as const,
        async signAndSendTransaction(...inputs: { account: { address: string }; transaction: Uint8Array; options?: { skipPreflight?: boolean } }[]) {
          const out: { signature: Uint8Array }[] = [];
          for (const input of inputs) {
            ours(input);
            const signed = sign(input.transaction);
            const signature = (await opts.relay("sendTransaction", [
              base64.encode(signed),
              { encoding: "base64", skipPreflight: input.options?.skipPreflight ?? false },
            ])) as string;
            out.push({ signature: base58.decode(signature) });
          }
          return out;
        },
      },
    },
  };
}

export type DevSolanaWallet = ReturnType<typeof createDevSolanaWallet>;
