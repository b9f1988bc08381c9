#!/usr/bin/env bash
# How fast cudaenv reads what GPU code a library carries (issue 25), with
# hyperfine, like with like in one run:
#   1. the fatbin reader (`cudaenv inspect <lib> --json`, nothing kept: the
#      store's code cache removed before every run, so each run reads the
#      headers) against `cuobjdump --list-elf <lib>` on the same libcublas
#      (Debian's CUDA 11.8 cuBLAS, tests/gpu/nvidia_debs.sh), after checking
#      that both list the same architectures with the same counts;
#   2. a whole pair (the toolkit's cuBLAS, cuBLASLt, cuFFT and runtime plus a
#      cuDNN 9's eight libraries) judged from the cache: `cudaenv inspect <spec>`
#      once the code cache holds every file;
#   3. `list` with 20 pairs against the same `list` of a cudaenv without this
#      work (BASELINE, e.g. main's build), both warm, the new one judging every
#      pair for sm_90 (CUDAENV_GPU) from its caches.
#   bench/inspect_bench.sh     # CUDAENV=build/default/cudaenv BASELINE=<old cudaenv> RUNS= RESULTS=
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUDAENV=${CUDAENV:-$repo/build/default/cudaenv}
BASELINE=${BASELINE:-}
RESULTS=${RESULTS:-$repo/build/bench-results}
RUNS=${RUNS:-30}
command -v hyperfine >/dev/null || { echo "bench: hyperfine is missing (apt-get install hyperfine)" >&2; exit 1; }
[ -x "$CUDAENV" ] || { echo "bench: no cudaenv at $CUDAENV (build it first)" >&2; exit 1; }
debs=$(bash "$repo/tests/gpu/nvidia_debs.sh")
libs=$debs/usr/lib/x86_64-linux-gnu
cublas=$libs/libcublas.so.11.11.3.6
cuobjdump=$debs/usr/bin/cuobjdump
mkdir -p "$RESULTS"
work=$(mktemp -d "${TMPDIR:-/tmp}/cudaenv-inspect.XXXXXX")
trap 'rm -rf "$work"' EXIT
export CUDAENV_ROOT=$work/store
unset CUDAENV_VERSION __CUDAENV_STATE CUDAENV_SHELL CUDAENV_GPU CUDAENV_DRIVER
mkdir -p "$CUDAENV_ROOT"

# 1. Identical results first: per-architecture counts from both tools.
counts_cuobjdump() { "$cuobjdump" "--list-$1" "$cublas" | sed -n 's/.*\.\(sm_[0-9a]*\)\.\(cubin\|ptx\)$/\1/p' | sort | uniq -c; }
counts_cudaenv() {
  "$CUDAENV" inspect "$cublas" --json --gpu sm_90 | python3 -c '
import json, sys
f = json.load(sys.stdin)["files"][0]
for k, v in sorted(f[sys.argv[1]].items()):
    print(v, k.replace("compute_", "sm_"))' "$1" | sort -k2 | awk '{printf "%7d %s\n", $1, $2}'
}
if diff <(counts_cuobjdump elf) <(counts_cudaenv sass) && diff <(counts_cuobjdump ptx) <(counts_cudaenv ptx); then
  echo "identical: $(counts_cuobjdump elf | wc -l) SASS and $(counts_cuobjdump ptx | wc -l) PTX architectures, same counts"
else
  echo "bench: the reader and cuobjdump disagree" >&2
  exit 1
fi
hyperfine --warmup 3 --runs "$RUNS" -N --export-json "$RESULTS/inspect-vs-cuobjdump.json" \
  --prepare "rm -rf $CUDAENV_ROOT/cache" \
  -n "cudaenv inspect (nothing kept)" "$CUDAENV inspect $cublas --json --gpu sm_90" \
  -n "cuobjdump --list-elf" "$cuobjdump --list-elf $cublas"

# 2. A whole pair from the cache: CUDA 11.8's cuBLAS, cuBLASLt, cuFFT, runtime; a cuDNN 9.
tk=$work/cuda-11.8
mkdir -p "$tk/lib64" "$tk/include"
printf '{"cuda": {"name": "CUDA SDK", "version": "11.8.0"}}\n' >"$tk/version.json"
for f in libcublas.so.11.11.3.6 libcublasLt.so.11.11.3.6 libcufft.so.10.9.0.58 libcudart.so.11.8.89; do
  ln -s "$libs/$f" "$tk/lib64/$f"
done
ln -s libcudart.so.11.8.89 "$tk/lib64/libcudart.so.11.0"
dnn=$work/cudnn-linux-x86_64-9.1.0.70_cuda11-archive
mkdir -p "$dnn/include" "$dnn/lib"
printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n' >"$dnn/include/cudnn_version.h"
for s in "" _graph _ops _cnn _adv _engines_precompiled _engines_runtime_compiled _heuristic; do
  cp "$libs/libcufft.so.10.9.0.58" "$dnn/lib/libcudnn$s.so.9.1.0"  # real GPU code of a real size as stand-ins
  ln -s "libcudnn$s.so.9.1.0" "$dnn/lib/libcudnn$s.so.9"
done
"$CUDAENV" add "$tk" >/dev/null
"$CUDAENV" add "$dnn" >/dev/null
"$CUDAENV" pair 11.8 9.1.0 >/dev/null
"$CUDAENV" inspect 11.8 --gpu sm_90 >"$RESULTS/inspect-pair.txt"  # reads every file once
cat "$RESULTS/inspect-pair.txt"
hyperfine --warmup 5 --runs "$((RUNS * 10))" -N --export-json "$RESULTS/inspect-pair.json" \
  -n "cudaenv inspect <pair> (cached)" "$CUDAENV inspect 11.8 --gpu sm_90"

# 3. list with 20 pairs: this build (judging for sm_90 from its caches) against BASELINE.
if [ -n "$BASELINE" ]; then
  export CUDAENV_ROOT=$work/store20
  for m in $(seq 0 19); do
    t=$work/many/cuda-12.$m
    mkdir -p "$t/bin" "$t/lib64" "$t/include"
    printf '{"cuda": {"name": "CUDA SDK", "version": "12.%s.1"}}\n' "$m" >"$t/version.json"
    cp /bin/true "$t/bin/nvcc"
    : >"$t/lib64/libcudart.so.12.$m.1"
    "$CUDAENV" add "$t" >/dev/null
  done
  CUDAENV_GPU=sm_90 "$CUDAENV" list >/dev/null && "$BASELINE" list >/dev/null  # both caches warm
  hyperfine --warmup 10 --runs "$((RUNS * 10))" -N --export-json "$RESULTS/list-20.json" \
    -n "list (BASELINE)" "env CUDAENV_GPU=sm_90 $BASELINE list" \
    -n "list (GPU column, sm_90)" "env CUDAENV_GPU=sm_90 $CUDAENV list"
fi
