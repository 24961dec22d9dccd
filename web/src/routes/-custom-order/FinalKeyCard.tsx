// A delivered order's key, made in this browser: the buyer picks the secret-key file saved when ordering,
// types its password, and the page computes the final key, checks it derives the ordered address, and offers
// it (copy, a new password-encrypted keystore, or a raw key file). Nothing is sent to the server.
import { useId, useState } from "react";
import type { CustomOrderView } from "../../../../schema/custom-orders";
import { encryptKeystore, KeystoreError, keystoreFileName, MIN_KEYSTORE_PASSWORD } from "../../payments/keystore";
import { FinalKeyError, openFinalKey } from "./final-key";

/** Keystores are under 2 KB; anything far larger is not one, and is not read into memory. */
const MAX_KEYSTORE_FILE_BYTES = 64 * 1024;

function download(fileName: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function FinalKeyCard({ order }: { order: CustomOrderView }) {
  const id = useId();
  const [fileText, setFileText] = useState<string | null>(null);
  const [password, setPassword] = useState("");
  const [key, setKey] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  // The key derivation a keystore asks for takes seconds at geth's settings: show how far it is.
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [newPassword, setNewPassword] = useState("");
  const [saveError, setSaveError] = useState<string | null>(null);

  const open = async () => {
    setError(null);
    setBusy(true);
    setProgress(null);
    try {
      setKey(await openFinalKey(order, fileText ?? "", password, setProgress));
    } catch (e) {
      setError(e instanceof KeystoreError || e instanceof FinalKeyError ? e.message : "The key could not be made from this file.");
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  const saveKeystore = async (privateKey: string) => {
    setSaveError(null);
    try {
      const ks = await encryptKeystore(privateKey, newPassword);
      download(keystoreFileName(ks.address), JSON.stringify(ks), "application/json");
    } catch (e) {
      setSaveError(e instanceof KeystoreError ? e.message : "The keystore could not be made; try again.");
    }
  };

  if (key) {
    return (
      <div className="mt-6 space-y-3 rounded-2xl border border-emerald-700/50 bg-emerald-950/20 p-5" data-testid="final-key">
        <h2 className="text-lg font-semibold text-emerald-300">Your private key</h2>
        <p className="text-sm text-slate-300">
          Checked: it derives <span className="font-mono break-all">{order.address}</span>. Only this browser has it.
        </p>
        <p className="font-mono text-sm break-all text-white" data-testid="final-key-value">
          {shown ? key : "•".repeat(66)}
        </p>
        <div className="flex flex-wrap gap-2">
          <button type="button" onClick={() => setShown((s) => !s)} className="rounded-lg border border-slate-700 px-3 py-1.5 text-sm">
            {shown ? "Hide" : "Show"}
          </button>
          <button type="button" onClick={() => void navigator.clipboard.writeText(key)} className="rounded-lg border border-slate-700 px-3 py-1.5 text-sm">
            Copy
          </button>
          <button
            type="button"
            onClick={() => download(`${order.address}.key.txt`, key + "\n", "text/plain")}
            className="rounded-lg border border-slate-700 px-3 py-1.5 text-sm"
          >
            Raw key file
          </button>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <label className="text-sm text-slate-300" htmlFor={`${id}-newpw`}>
            Keystore password
            <input
              id={`${id}-newpw`}
              type="password"
              autoComplete="new-password"
              value={newPassword}
              onChange={(e) => setNewPassword(e.target.value)}
              className="mt-1 block rounded-lg border border-slate-700 bg-slate-950 px-3 py-1.5 text-white"
            />
          </label>
          <button
            type="button"
            disabled={newPassword.length < MIN_KEYSTORE_PASSWORD}
            onClick={() => void saveKeystore(key)}
            className="rounded-lg border border-slate-700 px-3 py-1.5 text-sm disabled:opacity-50"
          >
            Download keystore (V3)
          </button>
        </div>
        {saveError && (
          <p className="text-sm text-red-300" role="alert">
            {saveError}
          </p>
        )}
      </div>
    );
  }

  return (
    <div className="mt-6 space-y-3 rounded-2xl border border-slate-800 bg-slate-900/60 p-5">
      <h2 className="text-lg font-semibold text-white">Make your private key</h2>
      <p className="text-sm text-slate-300">
        Choose the secret-key file you saved when ordering (or a copy another wallet tool re-saved: any version 3 keystore) and type its password. Your browser
        does the rest.
      </p>
      <label className="block text-sm text-slate-300" htmlFor={`${id}-file`}>
        Secret key file
        {/* No type filter: geth names keystores UTC--<time>--<address>, without an extension. */}
        <input
          id={`${id}-file`}
          type="file"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            setError(null);
            if (file && file.size > MAX_KEYSTORE_FILE_BYTES) {
              setFileText(null);
              setError("That file is too large to be a keystore (a keystore is under 2 KB of JSON).");
              return;
            }
            setFileText((await file?.text()) ?? null);
          }}
          className="mt-1 block text-sm"
        />
      </label>
      <label className="block text-sm text-slate-300" htmlFor={`${id}-pw`}>
        File password
        <input
          id={`${id}-pw`}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          className="mt-1 w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-white"
        />
      </label>
      <button
        type="button"
        disabled={!fileText || !password || busy}
        onClick={() => void open()}
        className="rounded-lg bg-violet-600 px-4 py-2 text-sm font-semibold text-white hover:bg-violet-500 disabled:opacity-50"
      >
        {busy ? (progress !== null && progress < 1 ? `Opening… ${Math.round(progress * 100)}%` : "Opening…") : "Make my key"}
      </button>
      {error && (
        <p className="text-sm text-red-300" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
