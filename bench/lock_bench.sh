#!/usr/bin/env bash
# Benchmarks of issue 26 (docs/performance.md, "Lock, sync and parallel installs"):
#  (a) `cudaenv install 12.6+9.8.0` from a local HTTP mirror (the 17 archives of
#      the CUDA 12.x default component set + the cuDNN 9.8.0 archive for CUDA 12:
#      parallel downloads, each archive unpacked as soon as it is complete, sha256
#      checked in the same pass) against sequential `curl` + `tar -xJf` of the same
#      18 archives, in the same hyperfine run;
#  (b) a `cudaenv sync` with nothing to do (per call);
#  (c) the GitHub Action's warm path: action/cudaenv-action.sh install with the
#      store restored from the cache (per call).
# The mirror is generated (tests/install/redist.py): NVIDIA's real manifests for
# 12.6.3 and 9.8.0 with archives whose payload is SCALE times the real archive's
# size, half random and half symbol-table-like text (compressibility like
# NVIDIA's libraries), packed with xz -0.
#   bench/lock_bench.sh [build dir] [scale, default 0.05]
# Needs hyperfine, curl, tar, xz, python3. BENCH_DATA=<folder> keeps the mirror.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
BUILD=$(realpath "${1:-build/default}")
SCALE=${2:-0.05}
BIN="$BUILD/cudaenv"
W=$(mktemp -d "${BENCH_DIR:-/tmp}/cudaenv-lock-bench.XXXXXX")
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  rm -rf "$W"
}
trap cleanup EXIT
M=${BENCH_DATA:-$W/mirror}
if [ ! -f "$M/cuda/redist/redistrib_12.6.3.json" ]; then
  echo "generating the mirror (scale $SCALE) in $M ..." >&2
  python3 - "$here/../tests/install" "$M" "$SCALE" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import redist
redist.build(sys.argv[2], float(sys.argv[3]), cuda=("12.6.3",), cudnn=("9.8.0",))
PY
fi
python3 "$here/../tests/install/server.py" --root "$M" --port-file "$W/port" --log /dev/null &
server=$!
for _ in $(seq 100); do [ -f "$W/port" ] && break; sleep 0.05; done
URL="http://127.0.0.1:$(cat "$W/port")"

# The 18 archives a default install of 12.6+9.8.0 takes on linux-x86_64, from the manifests.
python3 - "$M" > "$W/archives.txt" <<'PY'
import json, sys
m = sys.argv[1]
want = ["cuda_cudart", "cuda_nvcc", "cuda_crt", "libnvvm", "libnvptxcompiler", "cuda_cccl", "cuda_culibos", "cuda_nvrtc",
        "cuda_cupti", "cuda_nvtx", "cuda_profiler_api", "cuda_cuobjdump", "cuda_nvdisasm", "cuda_nvprune",
        "cuda_cuxxfilt", "libcublas", "libcufft", "libcurand", "libcusolver", "libcusparse", "libnvjitlink"]
cuda = json.load(open(f"{m}/cuda/redist/redistrib_12.6.3.json"))
for k in want:
    if k in cuda and "linux-x86_64" in cuda[k]:
        print("cuda/redist/" + cuda[k]["linux-x86_64"]["relative_path"], cuda[k]["linux-x86_64"]["size"])
cudnn = json.load(open(f"{m}/cudnn/redist/redistrib_9.8.0.json"))
print("cudnn/redist/" + cudnn["cudnn"]["linux-x86_64"]["cuda12"]["relative_path"], cudnn["cudnn"]["linux-x86_64"]["cuda12"]["size"])
PY
echo "archives: $(wc -l < "$W/archives.txt"), $(awk '{s += $2} END {printf "%.1f MiB", s / 1048576}' "$W/archives.txt") compressed" >&2
cat > "$W/sequential.sh" <<EOF
set -e
cd "\$1"
while read -r rel size; do
  f="\${rel##*/}"
  curl -fsS -o "\$f" "$URL/\$rel"
  tar -xJf "\$f"
  rm -f "\$f"
done < "$W/archives.txt"
EOF

store="$W/store" seq="$W/seq"
echo "== (a) install from a local HTTP mirror: cudaenv (parallel) vs sequential curl + tar" >&2
hyperfine --warmup 1 --runs "${RUNS:-3}" --export-markdown "$W/a.md" \
  --prepare "rm -rf '$store' '$seq'; mkdir -p '$seq'" \
  -n "cudaenv install 12.6+9.8.0 (18 archives, 4 connections)" \
  "CUDAENV_ROOT='$store' '$BIN' install 12.6+9.8.0 --mirror '$URL' --quiet" \
  -n "sequential curl + tar -xJf (18 archives)" "bash '$W/sequential.sh' '$seq'"
cat "$W/a.md"

echo "== (b) cudaenv sync with nothing to do" >&2
proj="$W/proj"
mkdir -p "$proj"
echo "12.6+9.8" > "$proj/.cudaenv"
rm -rf "$store"
(cd "$proj" && CUDAENV_ROOT="$store" "$BIN" lock --mirror "$URL" >/dev/null && CUDAENV_ROOT="$store" "$BIN" sync --quiet >/dev/null)
(cd "$proj" && hyperfine -N --warmup 5 --runs "${NOOP_RUNS:-50}" --export-markdown "$W/b.md" \
  -n "cudaenv sync (nothing to do)" "env CUDAENV_ROOT=$store $BIN sync" \
  -n "cudaenv current (for scale)" "env CUDAENV_ROOT=$store $BIN current")
cat "$W/b.md"

echo "== (c) the GitHub Action's warm path (store restored from the cache)" >&2
out="$W/gh-out"
key_env=(env CUDAENV_ROOT="$store" INPUT_LOCK="$proj/cudaenv.lock" INPUT_CUDAENV="$BIN" GITHUB_OUTPUT="$out" RUNNER_OS=Linux)
"${key_env[@]}" bash "$here/../action/cudaenv-action.sh" key >/dev/null
hyperfine -N --warmup 3 --runs "${ACTION_RUNS:-20}" --export-markdown "$W/c.md" \
  -n "action key step" "${key_env[*]} bash $here/../action/cudaenv-action.sh key" \
  -n "action install step (warm)" \
  "env CUDAENV_ROOT=$store CUDAENV_ACTION_PROJECT=$proj INPUT_CUDAENV=$BIN GITHUB_OUTPUT=$out GITHUB_ENV=$W/gh-env bash $here/../action/cudaenv-action.sh install"
cat "$W/c.md"
