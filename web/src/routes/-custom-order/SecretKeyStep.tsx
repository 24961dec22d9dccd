// Step 2 of ordering: the buyer's secret. It is made here with the browser's CSPRNG and never sent; the buyer
// must download it as a password-encrypted V3 keystore (scrypt + AES-128-CTR) before the order can be
// placed, because without it nobody can ever compute the final key.
import { useId, useState } from "react";
import { scalarToHex } from "../../../../schema/split-key";
import { passwordPairProblem } from "../../lib/password-pair";
import { encryptKeystore, KeystoreError, keystoreFileName, MIN_KEYSTORE_PASSWORD } from "../../payments/keystore";

export type SavedKeyFile = { fileName: string };

function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function SecretKeyStep({ secret, saved, onSaved }: { secret: bigint; saved: SavedKeyFile | null; onSaved: (s: SavedKeyFile) => void }) {
  const id = useId();
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const problem = passwordPairProblem(password, again, MIN_KEYSTORE_PASSWORD);

  const save = async () => {
    setError(null);
    setBusy(0);
    try {
      const keystore = await encryptKeystore(scalarToHex(secret), password, { onProgress: (f) => setBusy(f) });
      const fileName = `custom-order-secret-${keystoreFileName(keystore.address)}`;
      download(fileName, JSON.stringify(keystore));
      onSaved({ fileName });
    } catch (e) {
      setError(e instanceof KeystoreError ? e.message : "The file could not be made; try again.");
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-300">
        Your browser has made a secret key for this order. Only its public half is sent to us; the final private key of your address is this secret plus the
        offset our grinder finds, so <strong className="text-white">nobody else, including us, ever holds it</strong>. Save the secret now as an encrypted file:
        after payment you open that file here with its password.
      </p>
      <p role="note" className="rounded-lg border border-amber-700/50 bg-amber-950/30 p-3 text-sm text-amber-100">
        <strong className="font-semibold">Keep this file, and keep it secret.</strong> Without it (and its password) nobody can ever make your key, us included;
        with both, anyone can. Keep it after the order is delivered too, until the key is saved in your wallet and backed up.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm text-slate-300" htmlFor={`${id}-pw`}>
          File password
          <input
            id={`${id}-pw`}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            className="mt-1 w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-white"
          />
        </label>
        <label className="block text-sm text-slate-300" htmlFor={`${id}-again`}>
          Password again
          <input
            id={`${id}-again`}
            type="password"
            autoComplete="new-password"
            value={again}
            onChange={(e) => setAgain(e.target.value)}
            className="mt-1 w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-white"
          />
        </label>
      </div>
      {password && problem && <p className="text-sm text-amber-300">{problem}</p>}
      <button
        type="button"
        disabled={problem !== null || busy !== null}
        onClick={() => void save()}
        className="rounded-lg bg-slate-700 px-4 py-2 text-sm font-semibold text-white hover:bg-slate-600 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {busy !== null ? `Encrypting… ${Math.round(busy * 100)}%` : saved ? "Download the file again" : "Download encrypted secret key file"}
      </button>
      {saved && (
        <p className="text-sm text-emerald-300" role="status">
          Saved as <span className="font-mono break-all">{saved.fileName}</span>. Keep it somewhere safe and private, with a backup.
        </p>
      )}
      {error && (
        <p className="text-sm text-red-300" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
