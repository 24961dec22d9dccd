import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEV_ACCOUNTS, SOLANA_DEV_ACCOUNTS } from "../schema/dev-accounts";
import { findDevSecrets } from "./dev-key-scan";

const dirs: string[] = [];
const bundle = (files: Record<string, string>) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dev-key-scan-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("findDevSecrets", () => {
  it("finds a dev key in any file, whatever its case or prefix", () => {
    const dir = bundle({
      "assets/a.js": `const k="${DEV_ACCOUNTS.buyer.privateKey.toUpperCase().replace("0X", "")}"`,
      "assets/nested/b.js": `x="${SOLANA_DEV_ACCOUNTS.platform.secretKey}"`,
      "index.html": "<p>test test test test test test test test test test test junk</p>",
    });
    expect(
      findDevSecrets(dir)
        .map((f) => [path.relative(dir, f.file), f.secret])
        .sort(),
    ).toEqual([
      ["assets/a.js", "Ethereum dev buyer key"],
      ["assets/nested/b.js", "Solana dev platform key"],
      ["index.html", "the dev mnemonic"],
    ]);
  });

  it("passes a clean bundle, including one that names the public addresses and a source map quoting a library's docs", () => {
    const dir = bundle({
      "assets/a.js": `const admin="${DEV_ACCOUNTS.admin.address}",sol="${SOLANA_DEV_ACCOUNTS.admin.address}"`,
      "index.js.map": '{"sourcesContent":["Secp256k1.fromMnemonic(\'test test test test test test test test test test test junk\')"]}',
    });
    expect(findDevSecrets(dir)).toEqual([]);
  });
});
