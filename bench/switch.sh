#!/usr/bin/env bash
# Does switching cost the same however much is adopted? (issue: O(1) switching)
# Builds a big synthetic store — 10 toolkits and 10 cuDNNs adopted, each
# library folder holding 3,000 files — and measures with hyperfine:
#   /bin/true, `cudaenv --version`, `cudaenv env <pair> --shell bash` asked
#   again (its activation kept in the store), the same `env` planned again
#   on every call from the kept detection, and the same `env` when every call
#   has to detect again (the cache files removed before each run: what every
#   call cost before detection was kept).
# With BENCH_SYSTEM_CUDNN=1 (root; a scratch machine) it also puts a fake
# cuDNN 9 into /usr/lib/x86_64-linux-gnu (removed at the end) and adopts it,
# as Debian's libcudnn9 packages would.
#
#   bench/switch.sh                     # build/default/cudaenv; RUNS=, RESULTS=, BENCH_STRIP=0
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUDAENV=${CUDAENV:-$repo/build/default/cudaenv}
RESULTS=${RESULTS:-$repo/build/bench-results}
RUNS=${RUNS:-300}
FILES=${FILES:-3000}
command -v hyperfine >/dev/null || { echo "bench: hyperfine is missing (apt-get install hyperfine)" >&2; exit 1; }
[ -x "$CUDAENV" ] || { echo "bench: no cudaenv at $CUDAENV (build it first)" >&2; exit 1; }
mkdir -p "$RESULTS"
work=$(mktemp -d "${TMPDIR:-/tmp}/cudaenv-switch.XXXXXX")
sysdir=/usr/lib/x86_64-linux-gnu
sysfiles=()
cleanup() {
  rm -rf "$work"
  for f in "${sysfiles[@]}"; do rm -f "$f"; done
}
trap cleanup EXIT

export CUDAENV_ROOT=$work/store
unset CUDAENV_VERSION __CUDAENV_STATE CUDAENV_SHELL
fill() {  # dir: FILES small files, as a real lib folder has many
  local i
  for ((i = 0; i < FILES; i++)); do : >"$1/libfiller_$i.so.1"; done
}
for m in 0 1 2 3 4 5 6 7 8 9; do
  tk=$work/cuda-12.$m
  mkdir -p "$tk/bin" "$tk/lib64" "$tk/include"
  printf '{"cuda": {"name": "CUDA SDK", "version": "12.%s.1"}}\n' "$m" >"$tk/version.json"
  cp /bin/true "$tk/bin/nvcc"
  : >"$tk/lib64/libcudart.so.12.$m.1"
  fill "$tk/lib64"
  cd=$work/cudnn-linux-x86_64-9.$m.0.1_cuda12-archive
  mkdir -p "$cd/include" "$cd/lib"
  printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR %s\n#define CUDNN_PATCHLEVEL 0\n' "$m" >"$cd/include/cudnn_version.h"
  : >"$cd/lib/libcudnn.so.9.$m.0"
  fill "$cd/lib"
  "$CUDAENV" add "$tk" >/dev/null
  "$CUDAENV" add "$cd" >/dev/null
done
if [ "${BENCH_SYSTEM_CUDNN:-0}" = 1 ]; then
  # Only what is missing is made (and removed at the end): files left by an
  # interrupted run are used as they are, and the folder is adopted either way.
  # A machine with a cuDNN of its own there (the GPU machine) gets nothing added.
  if [ -e "$sysdir/libcudnn.so.9" ]; then
    set --
  else
    set -- "$sysdir/libcudnn.so.9" "$sysdir/libcudnn.so.9.7.0" /usr/include/cudnn_version.h
  fi
  for f in "$@"; do
    [ -e "$f" ] && continue
    sysfiles+=("$f")
    case $f in
      *.h) printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 7\n#define CUDNN_PATCHLEVEL 0\n' >"$f" ;;
      *) : >"$f" ;;
    esac
  done
  "$CUDAENV" add "$sysdir" >/dev/null || true
fi
"$CUDAENV" list --refresh >/dev/null
pairs=$("$CUDAENV" list --bare | wc -l)
spec=12.9+9.9.0

# `env` must find everything it needs kept in the store: a call that rewrites
# a cache file would mean every call pays for detection again.
cache_state() { ls -l --time-style=full-iso "$CUDAENV_ROOT/cache" 2>/dev/null; }
"$CUDAENV" env $spec --shell bash >/dev/null
before=$(cache_state)
for _ in 1 2 3; do "$CUDAENV" env $spec --shell bash >/dev/null; done
[ "$before" = "$(cache_state)" ] || echo "bench: warning: \`env\` rewrote $CUDAENV_ROOT/cache: the figures measure detection" >&2

# Timed as installed: the packages strip the binary (CPACK_STRIP_FILES), and
# a RelWithDebInfo build's 250 MB of debug information cost ~0.3-0.5 ms per
# start on the build machine (perf stat, 2026-12-03). BENCH_STRIP=0: as built.
timed=$CUDAENV
if [ "${BENCH_STRIP:-1}" = 1 ]; then
  timed=$work/bin/cudaenv
  mkdir -p "$work/bin"
  strip -o "$timed" "$CUDAENV"
fi

# One --prepare per command: hyperfine runs a single --prepare before every
# command, which made the plain `env` detect on every run too (the 6.8 ms of
# an earlier run: env-detecting's figure, not env's).
# env-planned: the activation planned again from the store's lists and the
# kept detection (cache/activations.txt removed); env-detecting: nothing kept.
hyperfine -N --warmup 20 --runs "$RUNS" --export-json "$RESULTS/switch.json" \
  --prepare true --prepare true --prepare true \
  --prepare "rm -f $CUDAENV_ROOT/cache/activations.txt" \
  --prepare "rm -f $CUDAENV_ROOT/cache/activations.txt $CUDAENV_ROOT/cache/detected.txt" \
  -n true /bin/true \
  -n version "$timed --version" \
  -n env "$timed env $spec --shell bash" \
  -n env-planned "$timed env $spec --shell bash" \
  -n env-detecting "$timed env $spec --shell bash" \
  >"$RESULTS/switch.txt"

echo "cudaenv timed: $timed ($( [ "$timed" = "$CUDAENV" ] && echo as built || echo stripped copy of "$CUDAENV"))"
python3 - "$RESULTS/switch.json" "$pairs" "$FILES" <<'PY'
import json, os, platform, sys
runs = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
ms = lambda n: runs[n]["median"] * 1000
cpu = lambda n: (runs[n]["user"] + runs[n]["system"]) * 1000
print("Machine: %s, %d cores, load %s; %s pairs listed, %s files per library folder" %
      (platform.machine(), os.cpu_count(), " ".join("%.2f" % x for x in os.getloadavg()), sys.argv[2], sys.argv[3]))
print()
print("| what | wall median | CPU (user+sys mean) | ratio (median) | goal |")
print("|---|---|---|---|---|")
print("| `/bin/true` | %.2f ms | %.2f ms | | |" % (ms("true"), cpu("true")))
print("| `cudaenv --version` | %.2f ms | %.2f ms | %.2fx `/bin/true` | <= 1.5x |" % (ms("version"), cpu("version"), ms("version") / ms("true")))
print("| `cudaenv env 12.9+9.9.0 --shell bash` (asked again: the activation kept in the store) | %.2f ms | %.2f ms | %.2fx `--version` | <= 1.2x |" % (ms("env"), cpu("env"), ms("env") / ms("version")))
print("| the same, planned on every call (activations.txt removed; detection kept) | %.2f ms | %.2f ms | %.2fx `--version` | |" % (ms("env-planned"), cpu("env-planned"), ms("env-planned") / ms("version")))
print("| the same, detecting on every call (both removed) | %.2f ms | %.2f ms | %.2fx `--version` | |" % (ms("env-detecting"), cpu("env-detecting"), ms("env-detecting") / ms("version")))
PY
