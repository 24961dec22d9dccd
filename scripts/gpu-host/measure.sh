#!/usr/bin/env bash
# The GPU grinder's measurements on a GPU host, from .gpu-host/ (scripts/gpu-host/prepare.sh made it here):
# no Node, npm or network needed there. Run in the repository's root, as root (it unpacks the Vulkan loader
# into /):
#
#   OUT=/some/dir bash scripts/gpu-host/measure.sh
#
# Writes to $OUT: gpu.txt (nvidia-smi), bench.log (npm run bench:grind -- --gpu, plain and split-key, and the
# work-size sweep), proof.log (a 6-nibble Ethereum prefix ground to 1,500 verified hits: the
# hits over time must agree with the printed rate), robustness.log (the same benchmark with Dawn's
# disable_robustness toggle). Every step has its own time limit, so a slow one still leaves the others' logs.
set -uo pipefail
cd "$(dirname "$0")/../.."
H=.gpu-host
OUT=${OUT:-/tmp/gpu-host-out}
mkdir -p "$OUT"
t0=$(date +%s)
step() { echo "== [$(($(date +%s) - t0)) s] $*"; }

step "unpacking the Vulkan loader and Node"
for f in "$H"/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
NODE=/tmp/gpu-host-node
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
nvidia-smi >"$OUT/gpu.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv | tee -a "$OUT/gpu.txt"

step "benchmark: Ethereum plain and split-key, then the work-size sweep"
timeout 200 "$NODE" "$H/bench-grind.mjs" --gpu --seconds "${BENCH_SECONDS:-3}" --gpu-sweep 2>&1 | tee "$OUT/bench.log"

step "proof run: 1,500 verified hits of a 6-nibble Ethereum prefix"
timeout "${PROOF_LIMIT:-120}" "$NODE" "$H/grind-cli.mjs" -n ethereum -p 000000 -c 1500 --gpu -o /tmp/gpu-host-proof.csv --force 2>&1 |
  grep -v '^found ' | tee "$OUT/proof.log"
echo "hits written: $(($(wc -l </tmp/gpu-host-proof.csv) - 1))" | tee -a "$OUT/proof.log"

step "benchmark with Dawn's disable_robustness toggle"
WEBGPU_DAWN_OPTIONS=enable-dawn-features=disable_robustness timeout 90 "$NODE" "$H/bench-grind.mjs" --gpu --seconds 2 2>&1 | tee "$OUT/robustness.log"

nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv | tee -a "$OUT/gpu.txt"
step "done"
