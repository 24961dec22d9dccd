// "Save for your wallet": the key in the form wallets import. Ethereum: a password-protected V3 keystore
// (MetaMask: Import account -> JSON file; geth: copy into keystore/). Solana: the CLI's keypair file and
// Phantom's base58 private key. Everything is made in this page; nothing is sent anywhere.
import { type FormEvent, useId, useState } from "react";
import type { Network } from "../../../../schema/db";
import { toast } from "../../components/toast-store";
import { downloadText } from "./key-save";

export function KeySaveOptions({ network, privateKey, address, revealed }: { network: Network; privateKey: string; address: string; revealed: boolean }) {
  return (
    <section aria-labelledby="save-title" className="space-y-3 rounded-xl border border-slate-800 bg-slate-950/60 p-4">
      <h3 id="save-title" className="text-sm font-semibold text-white">
        Save for your wallet
      </h3>
      {network === "ethereum" ? (
        <KeystoreForm privateKey={privateKey} address={address} />
      ) : (
        <SolanaFiles privateKey={privateKey} address={address} revealed={revealed} />
      )}
    </section>
  );
}

function KeystoreForm({ privateKey, address }: { privateKey: string; address: string }) {
  const id = useId();
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mismatch = repeat !== "" && password !== repeat;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (mismatch || progress !== null) return;
    setError(null);
    setProgress(0);
    try {
      const { encryptKeystore, keystoreFileName, MIN_KEYSTORE_PASSWORD } = await import("../../payments/keystore");
      if (password.length < MIN_KEYSTORE_PASSWORD) throw new Error(`Choose a password of at least ${MIN_KEYSTORE_PASSWORD} characters.`);
      const keystore = await encryptKeystore(privateKey, password, { onProgress: (p) => setProgress(p) });
      if (keystore.address !== address.slice(2).toLowerCase()) throw new Error("The key does not derive the purchased address; the file was not saved.");
      downloadText(keystoreFileName(keystore.address), JSON.stringify(keystore));
      toast({ title: "Keystore Saved", description: "Import it in MetaMask (Import account -> JSON file) with the password you chose.", variant: "success" });
      setPassword("");
      setRepeat("");
    } catch (err) {
      setError(err instanceof Error ? err.message : "The keystore could not be made.");
    } finally {
      setProgress(null);
    }
  };

  const input =
    "mt-1 w-full rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-sm text-white focus-visible:outline-2 focus-visible:outline-violet-400";
  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-3" aria-describedby={`${id}-help`}>
      <p id={`${id}-help`} className="text-xs text-slate-400">
        An encrypted keystore file (V3, scrypt) that MetaMask, geth and most Ethereum wallets import. Pick a password of at least 8 characters; without it the
        file cannot be opened, and we cannot recover it.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm text-slate-300">
          Password
          <input
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            minLength={8}
            required
            className={input}
          />
        </label>
        <label className="block text-sm text-slate-300">
          Repeat password
          <input
            type="password"
            autoComplete="new-password"
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
            required
            aria-invalid={mismatch}
            aria-describedby={mismatch ? `${id}-mismatch` : undefined}
            className={input}
          />
        </label>
      </div>
      {mismatch && (
        <p id={`${id}-mismatch`} className="text-xs text-red-300">
          The passwords differ.
        </p>
      )}
      {error && (
        <p role="alert" className="text-xs text-red-300">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={progress !== null || mismatch || password.length < 8}
        className="rounded-lg border border-violet-500 px-4 py-2 text-sm font-semibold text-violet-100 hover:bg-violet-500/10 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {progress !== null ? `Encrypting... ${Math.round(progress * 100)}%` : "Download keystore file"}
      </button>
    </form>
  );
}

function SolanaFiles({ privateKey, address, revealed }: { privateKey: string; address: string; revealed: boolean }) {
  const [forms, setForms] = useState<{ keypairJson: string; base58: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    if (forms) return forms;
    try {
      const { solanaKeyForms } = await import("./solana-key-files");
      const made = solanaKeyForms(privateKey, address);
      setForms(made);
      return made;
    } catch (err) {
      setError(err instanceof Error ? err.message : "The key could not be read.");
      return null;
    }
  };
  const button =
    "rounded-lg border border-violet-500 px-4 py-2 text-sm font-semibold text-violet-100 hover:bg-violet-500/10 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-not-allowed disabled:opacity-50";
  return (
    <div className="space-y-3">
      <p className="text-xs text-slate-400">
        The keypair file is what the Solana CLI reads (<code className="text-slate-300">solana config set --keypair</code>); the base58 private key is what
        Phantom and Solflare import (Add account → Import private key).
      </p>
      <p role="note" className="rounded-lg border border-amber-700/50 bg-amber-950/30 p-3 text-xs text-amber-100">
        <strong className="font-semibold">The keypair file is not encrypted</strong>: it is the key itself, as the Solana CLI stores it, with no password.
        Anyone who reads it controls the address. Keep it secret and offline (not in a synced folder or an email), and delete it once the key is in your wallet
        and backed up.
      </p>
      {error && (
        <p role="alert" className="text-xs text-red-300">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={button}
          onClick={() =>
            void load().then((f) => {
              if (!f) return;
              downloadText(`${address}.json`, f.keypairJson);
              toast({
                title: "Keypair Saved",
                description: "A 64-byte JSON keypair file, as solana-keygen writes it. It is not encrypted: keep it secret.",
                variant: "success",
              });
            })
          }
        >
          Download keypair file (not encrypted)
        </button>
        <button
          type="button"
          className={button}
          disabled={!revealed}
          title={revealed ? undefined : "Show the key first"}
          onClick={() =>
            void load().then(async (f) => {
              if (f)
                await navigator.clipboard.writeText(f.base58).then(
                  () => toast({ title: "Copied!", description: "Private key (base58, for Phantom) copied to the clipboard.", variant: "success" }),
                  () => toast({ title: "Failed to copy", description: "Your browser did not allow copying.", variant: "destructive" }),
                );
            })
          }
        >
          Copy for Phantom (base58)
        </button>
      </div>
    </div>
  );
}
