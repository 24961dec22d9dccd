#!/usr/bin/env bash
# Moves the Worker's deployment-safety files into worker/deployment/ and the loose files of the worker root into
# named folders, then rewrites what names them: relative import specifiers and quoted relative paths (tsconfig
# excludes) in code, repository paths in docs, comments and tool configs (stryker, vitest), and the few
# identifiers that said "settings" for what is not an admin's setting (docs/configuration.md says which is which).
#
# Idempotent: a file already moved is skipped, and a specifier or path that already resolves is left alone, so a
# second run changes nothing; run it again after merging a branch that still imports the old paths.
# Usage (from anywhere inside the repository): bash scripts/vocab/moves.sh
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

# old path -> new path, one per line.
MOVES='
worker/config.ts worker/deployment/secrets.ts
worker/payment-config.ts worker/deployment/payment-readiness.ts
worker/domain/payment-settings.ts worker/deployment/payment-rules.ts
worker/domain/payment-settings.test.ts worker/deployment/payment-rules.test.ts
worker/chain/node-identity.ts worker/deployment/node-identity.ts
worker/domain/rpc-nodes.ts worker/deployment/rpc-nodes.ts
worker/domain/site-origin.ts worker/deployment/site-origin.ts
worker/domain/local-mode.ts worker/deployment/local-mode.ts
worker/domain/local-mode.test.ts worker/deployment/local-mode.test.ts
worker/domain/solana-cluster.ts worker/deployment/solana-cluster.ts
worker/domain/solana-cluster.test.ts worker/deployment/solana-cluster.test.ts
worker/domain/public-dev-accounts.ts worker/deployment/public-dev-accounts.ts
worker/domain/public-dev-accounts.test.ts worker/deployment/public-dev-accounts.test.ts
worker/test/payment-settings.test.ts worker/test/payment-readiness.test.ts
worker/test-chain/payment-settings.test.ts worker/test-chain/payment-readiness.test.ts
worker/test/committed-settings.test.ts worker/test/committed-vars.test.ts
worker/audit.ts worker/db/audit.ts
worker/db.ts worker/db/database.ts
worker/pages.ts worker/landing/pages.ts
worker/listing-page.ts worker/landing/listing-page.ts
'

# old identifier -> new identifier (whole words, in code and docs).
RENAMES='
checkPaymentSettings checkPaymentSetup
PaymentSettingsText PaymentSetupText
PaymentSettingsCheck PaymentSetupCheck
PaymentSettings PaymentSetup
'

moved_now=""
while read -r old new; do
  [ -z "$old" ] && continue
  if [ -e "$old" ] && [ -e "$new" ]; then
    echo "moves.sh: both $old and $new exist; merge them by hand first" >&2
    exit 1
  fi
  if git ls-files --error-unmatch "$old" >/dev/null 2>&1; then
    mkdir -p "$(dirname "$new")"
    git mv "$old" "$new"
    moved_now+="$old $new"$'\n'
  fi
done <<<"$MOVES"

MOVES="$MOVES" RENAMES="$RENAMES" MOVED_NOW="$moved_now" node --input-type=module - <<'EOF'
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const pairs = (text) =>
  text
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((p) => p.length === 2);
const moves = pairs(process.env.MOVES);
const renames = pairs(process.env.RENAMES);
const movedNow = new Map(pairs(process.env.MOVED_NOW).map(([o, n]) => [n, o])); // new -> old, moved in this run
const toNew = new Map(moves);
const self = "scripts/vocab/moves.sh";

const tracked = execFileSync("git", ["ls-files", "-z"], { encoding: "utf8" })
  .split("\0")
  .filter((f) => f && existsSync(f) && statSync(f).isFile());
const TEXT = /\.(ts|tsx|mts|mjs|js|json|jsonc|md|toml|ya?ml|sh)$/;
const CODE = /\.(ts|tsx|mts|mjs|js|json|jsonc)$/;
const files = tracked.filter((f) => TEXT.test(f) && f !== self && f !== "package-lock.json" && !f.startsWith("migrations/meta/"));

const isFile = (p) => existsSync(p) && statSync(p).isFile();
const EXTS = ["", ".ts", ".tsx", ".d.ts", ".mjs", ".js", "/index.ts", "/index.tsx"];

/** The file a relative specifier names from `dir` (posix, repository-relative), or null. `exists` decides. */
function resolve(dir, spec, exists) {
  const base = path.posix.normalize(path.posix.join(dir, spec));
  for (const ext of EXTS) if (exists(base + ext)) return { file: base + ext, ext };
  return null;
}

/** `spec` rewritten for `file` (now at its current path), or null to leave it. */
function rewriteSpec(file, spec) {
  const [bare, query] = spec.split(/(?=\?)/);
  const here = path.posix.dirname(file);
  const write = (target, ext) => {
    let rel = path.posix.relative(here, target);
    if (!rel.startsWith(".")) rel = `./${rel}`;
    if (ext) rel = rel.slice(0, rel.length - ext.length);
    return rel + (query ?? "");
  };
  // Written from the file's old place (moved in this run): resolve there, in the tree as it was.
  const old = movedNow.get(file);
  if (old) {
    const wasThere = (p) => (toNew.has(p) ? isFile(toNew.get(p)) : isFile(p) && !movedNow.has(p));
    const hit = resolve(path.posix.dirname(old), bare, wasThere);
    if (!hit) return null;
    const target = toNew.get(hit.file) ?? hit.file;
    const out = write(target, hit.ext);
    return out === spec ? null : out;
  }
  if (resolve(here, bare, isFile)) return null; // already right
  const hit = resolve(here, bare, (p) => toNew.has(p) && isFile(toNew.get(p)));
  return hit ? write(toNew.get(hit.file), hit.ext) : null;
}

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const basenames = new Map();
for (const f of tracked) basenames.set(path.posix.basename(f), (basenames.get(path.posix.basename(f)) ?? 0) + 1);
const movedNew = new Set(toNew.values());
/** A basename that names one file only (the moved one), so a bare mention of it is unambiguous. */
const unique = (oldPath, newPath) => {
  const o = path.posix.basename(oldPath);
  const n = path.posix.basename(newPath);
  const others = tracked.filter((f) => (path.posix.basename(f) === o || path.posix.basename(f) === n) && f !== newPath && f !== oldPath && !movedNew.has(f));
  return others.length === 0;
};
// worker/config.ts's basename is shared with worker/routes/config.ts, which is always named with its folder.
const BARE_ANYWAY = new Set(["worker/config.ts"]);

let changed = 0;
for (const file of files) {
  const before = readFileSync(file, "utf8");
  let text = before;
  if (CODE.test(file)) {
    text = text.replace(/(["'])(\.\.?\/[^"'\s]*)\1/g, (m, q, spec) => {
      const out = rewriteSpec(file, spec);
      return out ? q + out + q : m;
    });
  }
  const inWorker = file.startsWith("worker/");
  for (const [oldPath, newPath] of moves) {
    // The repository path, also inside a relative link (../worker/...).
    text = text.replace(new RegExp(`(?<![\\w.-])${esc(oldPath)}(?![\\w-])`, "g"), newPath);
    const oldIn = oldPath.replace(/^worker\//, "");
    const newIn = newPath.replace(/^worker\//, "");
    // Named from the worker's root ("domain/local-mode.ts"), as comments in worker/ and docs do; beside the
    // moved file, by its bare name.
    const besideNew = inWorker && path.posix.dirname(file) === path.posix.dirname(newPath);
    if (oldIn.includes("/"))
      text = text.replace(new RegExp(`(?<![\\w./-])${esc(oldIn)}(?![\\w-])`, "g"), besideNew ? path.posix.basename(newPath) : newIn);
    // A bare file name, where it names this file only.
    const oldBase = path.posix.basename(oldPath);
    if (!unique(oldPath, newPath) && !BARE_ANYWAY.has(oldPath)) continue;
    const bare = new RegExp(`(?<![\\w./-])${esc(oldBase)}(?![\\w-])`, "g");
    if (inWorker) {
      // Beside it: the bare new name; elsewhere in worker/: the path from the worker's root.
      const sameDir = path.posix.dirname(file) === path.posix.dirname(newPath);
      text = text.replace(bare, sameDir ? path.posix.basename(newPath) : newIn);
    } else if (oldBase !== path.posix.basename(newPath) && !BARE_ANYWAY.has(oldPath)) {
      text = text.replace(bare, path.posix.basename(newPath));
    }
  }
  if (/\.(ts|tsx|mts|mjs|md)$/.test(file))
    for (const [from, to] of renames) text = text.replace(new RegExp(`\\b${esc(from)}\\b`, "g"), to);
  if (text !== before) {
    writeFileSync(file, text);
    changed++;
  }
}
console.log(`moves.sh: ${movedNow.size} file(s) moved, ${changed} file(s) rewritten`);
EOF
