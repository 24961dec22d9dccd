#!/usr/bin/env bash
# The GPU grinder's measurements on a GPU host, from .gpu-host/ (scripts/gpu-host/prepare.sh made it here):
# no Node, npm or network needed there. Run in the repository's root, as root (it unpacks the Vulkan loader
# into /), in about 6 minutes:
#
#   OUT=/some/dir bash scripts/gpu-host/measure.sh
#
# Writes to $OUT: gpu.txt (nvidia-smi), bench-ethereum.log (npm run bench:grind -- --gpu: plain and split-key
# beside the CPU, then the work-size sweep), bench-solana.log (the same for -n solana: the short sweep at start
# that picks the card's work size (comb window × invocations, 10 s), the Ed25519 kernel at that choice beside
# the CPU grinder, then the long sweep over 11- to 16-bit combs), proof-solana.log (a 4-character Solana prefix ground to 1,000 verified keys),
# proof-ethereum.log (a 6-nibble Ethereum prefix to 1,500 verified keys), and the suffix and case-insensitive
# proofs (proof-solana-suffix.log: a case-insensitive 4-character suffix; proof-solana-nocase.log: a
# case-insensitive 4-character prefix; proof-ethereum-suffix.log: a 6-nibble suffix; proof-ethereum-nocase.log:
# 3 letters each end, any case; 1,000 keys each), each proof with a table of the hits found against the hits
# its attempts predict (attempts × the pattern's probability), second by second, and a verdict that fails the
# step when they differ by more than 10% (over 3 Poisson standard deviations at 1,000 keys: a GPU that misses
# or invents matches, or counts attempts it did not make); summary.txt (the lines to copy into
# docs/benchmarks.md). Every step has its own time limit, so a slow one still leaves the others' logs.
#
# Sizes and limits (defaults for the GPU host; docs/gpu-grinder.md#measuring-on-a-gpu-host has the small
# ones that run it on SwiftShader, to try it before taking it there): BENCH_SECONDS, SWEEP (1 = run the sweeps), ETH_PROOF_PREFIX, ETH_PROOF_HITS, SOL_PROOF_PREFIX,
# SOL_PROOF_HITS, ETH_SUFFIX, ETH_NOCASE_PREFIX, ETH_NOCASE_SUFFIX, SOL_SUFFIX, SOL_NOCASE_PREFIX, CASE_PROOF_HITS
# (the suffix and case-insensitive proofs), BENCH_LIMIT, SOL_BENCH_LIMIT and PROOF_LIMIT (seconds per step), ROBUSTNESS=1 (also the benchmark with Dawn's
# disable_robustness toggle), SKIP_DEBS=1 (use the system's Vulkan loader: for a machine that has one).
set -uo pipefail
cd "$(dirname "$0")/../.."
H=.gpu-host
OUT=${OUT:-/tmp/gpu-host-out}
BENCH_SECONDS=${BENCH_SECONDS:-3}
SWEEP=${SWEEP:-1}
BENCH_LIMIT=${BENCH_LIMIT:-150}
# the Solana benchmark builds a table per comb window (16 bits: 48 MiB, seconds on the host) and compiles a
# kernel per window and batch: 11-16 bits × batch 16, 32 in the long sweep
SOL_BENCH_LIMIT=${SOL_BENCH_LIMIT:-240}
PROOF_LIMIT=${PROOF_LIMIT:-90}
ETH_PROOF_PREFIX=${ETH_PROOF_PREFIX:-000000}
ETH_PROOF_HITS=${ETH_PROOF_HITS:-1500}
SOL_PROOF_PREFIX=${SOL_PROOF_PREFIX:-GPU4}
SOL_PROOF_HITS=${SOL_PROOF_HITS:-1000}
# the suffix and case-insensitive proofs: on an H200 (about 2.7 G/s Ethereum, 100 M/s Solana) 6-15 s each
ETH_SUFFIX=${ETH_SUFFIX:-000000}
ETH_NOCASE_PREFIX=${ETH_NOCASE_PREFIX:-abc}
ETH_NOCASE_SUFFIX=${ETH_NOCASE_SUFFIX:-def}
SOL_SUFFIX=${SOL_SUFFIX:-gpu4}
SOL_NOCASE_PREFIX=${SOL_NOCASE_PREFIX:-gpu4}
CASE_PROOF_HITS=${CASE_PROOF_HITS:-1000}
failed=()
mkdir -p "$OUT"
t0=$(date +%s)
step() { echo "== [$(($(date +%s) - t0)) s] $*"; }

step "unpacking the Vulkan loader and Node"
if [ -z "${SKIP_DEBS:-}" ]; then
  for f in "$H"/debs/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
NODE=$(mktemp -d)/node
xz -dc "$H/node.xz" >"$NODE" 2>/dev/null || python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$H/node.xz" "$NODE"
chmod +x "$NODE"
"$NODE" --version
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
# the driver's Vulkan manifest where a container mounts it outside the loader's search path
if ! ls /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json >/dev/null 2>&1; then
  for d in /usr/local/nvidia/share /usr/local/nvidia/etc; do
    if [ -f "$d/vulkan/icd.d/nvidia_icd.json" ]; then export VK_DRIVER_FILES="$d/vulkan/icd.d/nvidia_icd.json"; fi
    if [ -f "$d/glvnd/egl_vendor.d/10_nvidia.json" ]; then export __EGL_VENDOR_LIBRARY_FILENAMES="$d/glvnd/egl_vendor.d/10_nvidia.json"; fi
  done
fi
echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-}"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi >"$OUT/gpu.txt" 2>&1
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv | tee -a "$OUT/gpu.txt"
else
  echo "no nvidia-smi here" | tee "$OUT/gpu.txt"
fi
sweep=()
[ "$SWEEP" = 1 ] && sweep=(--gpu-sweep)

step "benchmark: Ethereum plain and split-key beside the CPU${sweep:+, then the work-size sweep}"
timeout "$BENCH_LIMIT" "$NODE" "$H/bench-grind.mjs" --gpu --seconds "$BENCH_SECONDS" "${sweep[@]}" 2>&1 | tee "$OUT/bench-ethereum.log"

step "benchmark: Solana (Ed25519 kernel): the short sweep's choice beside the CPU${sweep:+, then the long work-size sweep}"
timeout "$SOL_BENCH_LIMIT" "$NODE" "$H/bench-grind.mjs" --gpu -n solana --seconds "$BENCH_SECONDS" "${sweep[@]}" 2>&1 | tee "$OUT/bench-solana.log"

# A proof run: the CLI grinds to N verified keys (each re-derived with @noble/curves before it is written);
# then the hits found against the hits its attempts predict. A verdict outside 10% is listed at the end.
proof() {
  local name=$1 limit=$2
  shift 2
  step "proof run ($name): $*"
  timeout "$limit" "$NODE" "$H/grind-cli.mjs" "$@" --gpu -o "/tmp/gpu-host-proof-$name.csv" --force 2>&1 | grep -v '^found ' | tee "$OUT/proof-$name.log"
  echo "keys written: $(($(wc -l <"/tmp/gpu-host-proof-$name.csv") - 1))" | tee -a "$OUT/proof-$name.log"
  "$NODE" "$H/proof-check.mjs" "$OUT/proof-$name.log" | tee -a "$OUT/proof-$name.log"
  [ "${PIPESTATUS[0]}" = 0 ] || failed+=("$name")
}
proof solana "$PROOF_LIMIT" -n solana -p "$SOL_PROOF_PREFIX" --case-sensitive -c "$SOL_PROOF_HITS"
proof ethereum "$PROOF_LIMIT" -n ethereum -p "$ETH_PROOF_PREFIX" -c "$ETH_PROOF_HITS"
# the paths a prefix proof does not take: suffix residues (Solana) and suffix masks (Ethereum), both cases of
# each letter (Solana: both readings of a base58 letter, at either end; Ethereum: hex letters in any case)
proof solana-suffix "$PROOF_LIMIT" -n solana -s "$SOL_SUFFIX" -c "$CASE_PROOF_HITS"
proof solana-nocase "$PROOF_LIMIT" -n solana -p "$SOL_NOCASE_PREFIX" -c "$CASE_PROOF_HITS"
proof ethereum-suffix "$PROOF_LIMIT" -n ethereum -s "$ETH_SUFFIX" -c "$CASE_PROOF_HITS"
proof ethereum-nocase "$PROOF_LIMIT" -n ethereum -p "$ETH_NOCASE_PREFIX" -s "$ETH_NOCASE_SUFFIX" -c "$CASE_PROOF_HITS"

if [ -n "${ROBUSTNESS:-}" ]; then
  step "benchmark with Dawn's disable_robustness toggle"
  WEBGPU_DAWN_OPTIONS=enable-dawn-features=disable_robustness timeout 90 "$NODE" "$H/bench-grind.mjs" --gpu --seconds 2 2>&1 | tee "$OUT/robustness.log"
fi

{
  echo "== summary ($(date -u +%FT%TZ), $(($(date +%s) - t0)) s)"
  head -n 3 "$OUT/gpu.txt" | tail -n 1
  grep -hE '^(GPU adapter|GPU ethereum|GPU solana|GPU split-key|GPU / one|ethereum |solana |best:|all [0-9]+ cores|the sweep chose)' "$OUT/bench-ethereum.log" "$OUT/bench-solana.log"
  grep -hE '^(GPU self-check|the sweep chose|done|stopped|proof: [0-9]+ keys|proof: verdict)' "$OUT"/proof-*.log
  echo "proofs outside 10%: ${failed[*]:-none}"
} | tee "$OUT/summary.txt"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv | tee -a "$OUT/gpu.txt"
step "done"
