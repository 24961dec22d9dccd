// A delivered order's key, made in this browser: the buyer picks the secret-key file saved when ordering,
// types its password, and the page computes the final key, checks it derives the ordered address, and offers
// it (copy, a new password-encrypted keystore, or a raw key file). Nothing is sent to the server. The panel says
// in words what is secret and what to keep, because a buyer who loses both the key and the secret file has lost
// the address, and one who leaks either (with its password) has given it away.
import { useId, useState } from "react";
import type { CustomOrderView } from "../../../../schema/custom-orders";
import { encryptKeystore, KeystoreError, keystoreFileName, MIN_KEYSTORE_PASSWORD } from "../../payments/keystore";
import { passwordPairProblem } from "../../lib/password-pair";
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
  const [busy, setBusy] = useState(false);
  // The key derivation a keystore asks for takes seconds at geth's settings: show how far it is.
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

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

  if (key) return <DeliveredKeyPanel order={order} privateKey={key} />;

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

const button = "rounded-lg border border-slate-700 px-3 py-1.5 text-sm disabled:opacity-50";

/** The made key: what is secret, what to keep, and the ways to save it (an encrypted keystore first). */
export function DeliveredKeyPanel({ order, privateKey }: { order: Pick<CustomOrderView, "address">; privateKey: string }) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const [newPassword, setNewPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const problem = passwordPairProblem(newPassword, repeat, MIN_KEYSTORE_PASSWORD);

  const saveKeystore = async () => {
    if (problem) return;
    setSaveError(null);
    setSaving(true);
    try {
      const ks = await encryptKeystore(privateKey, newPassword);
      download(keystoreFileName(ks.address), JSON.stringify(ks), "application/json");
    } catch (e) {
      setSaveError(e instanceof KeystoreError ? e.message : "The keystore could not be made; try again.");
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="mt-6 space-y-3 rounded-2xl border border-emerald-700/50 bg-emerald-950/20 p-5" data-testid="final-key">
      <h2 className="text-lg font-semibold text-emerald-300">Your private key</h2>
      <p className="text-sm text-slate-300">
        Checked: it derives <span className="font-mono break-all">{order.address}</span>. Only this browser has it.
      </p>
      <div role="note" className="space-y-1 rounded-lg border border-amber-700/50 bg-amber-950/30 p-3 text-sm text-amber-100">
        <p>
          <strong className="font-semibold">Keep this key secret.</strong> Anyone who sees it controls the address and everything sent to it. We never had it
          and cannot recover it.
        </p>
        <p>
          <strong className="font-semibold">Keep the secret key file too</strong>, with its password: with them this page makes the same key again. Treat the
          file like the key itself, since the file and its password are enough to make it. Delete it only once the key is saved in your wallet and backed up.
        </p>
      </div>
      <p className="font-mono text-sm break-all text-white" data-testid="final-key-value">
        {shown ? privateKey : "•".repeat(66)}
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" onClick={() => setShown((s) => !s)} className={button}>
          {shown ? "Hide" : "Show"}
        </button>
        <button type="button" onClick={() => void navigator.clipboard.writeText(privateKey)} className={button}>
          Copy
        </button>
      </div>
      <form
        className="space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          void saveKeystore();
        }}
      >
        <p className="text-sm text-slate-300">
          <strong className="text-white">Keystore file (recommended):</strong> the key encrypted with a password you choose, in the format MetaMask (Import
          account → JSON file) and geth open.
        </p>
        <div className="grid gap-2 sm:grid-cols-2">
          <label className="text-sm text-slate-300" htmlFor={`${id}-newpw`}>
            Keystore password
            <input
              id={`${id}-newpw`}
              type="password"
              autoComplete="new-password"
              value={newPassword}
              onChange={(e) => setNewPassword(e.target.value)}
              className="mt-1 block w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-1.5 text-white"
            />
          </label>
          <label className="text-sm text-slate-300" htmlFor={`${id}-repeat`}>
            Password again
            <input
              id={`${id}-repeat`}
              type="password"
              autoComplete="new-password"
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
              aria-invalid={repeat !== "" && problem !== null}
              aria-describedby={`${id}-pw-problem`}
              className="mt-1 block w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-1.5 text-white"
            />
          </label>
        </div>
        {newPassword && problem && (
          <p id={`${id}-pw-problem`} className="text-sm text-amber-300" data-testid="keystore-password-problem">
            {problem}
          </p>
        )}
        <button type="submit" disabled={problem !== null || saving} className={button}>
          {saving ? "Encrypting…" : "Download keystore (V3)"}
        </button>
      </form>
      {saveError && (
        <p className="text-sm text-red-300" role="alert">
          {saveError}
        </p>
      )}
      <div className="space-y-2 border-t border-slate-800 pt-3">
        <p className="text-sm text-slate-300" id={`${id}-raw-help`}>
          <strong className="text-white">Raw key file:</strong> a plain text file holding only the key above,{" "}
          <strong className="text-amber-200">not encrypted</strong>. Anyone who reads it controls the address. Use it only to paste the key into a wallet that
          cannot open a keystore, then delete it.
        </p>
        <button
          type="button"
          aria-describedby={`${id}-raw-help`}
          onClick={() => download(`${order.address}.key.txt`, privateKey + "\n", "text/plain")}
          className={button}
        >
          Download raw key file (not encrypted)
        </button>
      </div>
    </div>
  );
}
