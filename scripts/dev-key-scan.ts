// The public dev keys (anvil's mnemonic and its accounts, the Solana dev keypairs) must never ship in a
// production build: `npm run check` scans dist/ and the Worker bundle with this.
import fs from "node:fs";
import path from "node:path";
import { DEV_ACCOUNTS, LOCAL_CHAIN, SOLANA_DEV_ACCOUNTS } from "../schema/dev-accounts";

/** Each secret as it could appear in a bundle: the mnemonic, hex keys without 0x (any case), base58 keys. */
export const DEV_SECRETS: { name: string; needle: string }[] = [
  { name: "the dev mnemonic", needle: LOCAL_CHAIN.mnemonic },
  ...Object.entries(DEV_ACCOUNTS).map(([role, a]) => ({ name: `Ethereum dev ${role} key`, needle: a.privateKey.slice(2).toLowerCase() })),
  ...Object.entries(SOLANA_DEV_ACCOUNTS).map(([role, a]) => ({ name: `Solana dev ${role} key`, needle: a.secretKey })),
];

/** Files under `dir` that contain a dev secret, with which one. */
export function findDevSecrets(dir: string): { file: string; secret: string }[] {
  const found: { file: string; secret: string }[] = [];
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    // Source maps carry libraries' own sources, whose doc comments quote anvil's mnemonic (ox, viem); they
    // are not served to browsers, and the code they map is scanned itself.
    if (!entry.isFile() || entry.name.endsWith(".map")) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = fs.readFileSync(file, "latin1");
    const lower = text.toLowerCase();
    for (const { name, needle } of DEV_SECRETS) if ((needle === needle.toLowerCase() ? lower : text).includes(needle)) found.push({ file, secret: name });
  }
  return found;
}
