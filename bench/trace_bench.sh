#!/usr/bin/env bash
# What `cudaenv trace` adds to a run (a benchmark, not a test): hyperfine on
# `python3 -c pass` and on a small C program that dlopens 20 CUDA-named
# libraries, each plain and under `cudaenv trace` (no pair: the store is
# empty, so the run is judged against nothing and only the tracing is timed).
# Goal: under 20 ms added.
#   bench/trace_bench.sh            # uses build/default/cudaenv
#   CUDAENV=/path/cudaenv RUNS=50 bench/trace_bench.sh
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUDAENV=${CUDAENV:-$repo/build/default/cudaenv}
RUNS=${RUNS:-50}
RESULTS=${RESULTS:-$repo/build/bench-results}
for tool in hyperfine python3 cc; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing" >&2; exit 1; }
done
mkdir -p "$RESULTS"
work=$(mktemp -d "${TMPDIR:-/tmp}/cudaenv-trace-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
export CUDAENV_ROOT=$work/store
unset CUDAENV_VERSION
PY=$(python3 -c 'import sys; print(sys.executable)')   # not a pyenv shim: its bash would be timed too

# 20 libraries named as CUDA's are (so the audit library records each), no soname.
printf 'int bench_fn(void) { return 1; }\n' >"$work/lib.c"
cc -O2 -shared -fPIC -o "$work/libcufft_bench.so" "$work/lib.c"
libs=()
for i in $(seq 1 20); do cp "$work/libcufft_bench.so" "$work/libcufft_bench$i.so"; libs+=("$work/libcufft_bench$i.so"); done
cat >"$work/load.c" <<'C'
#include <dlfcn.h>
int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) if (!dlopen(argv[i], RTLD_NOW)) return 1;
    return 0;
}
C
cc -O2 -o "$work/load20" "$work/load.c" -ldl

hyperfine -N --warmup 5 --runs "$RUNS" --export-json "$RESULTS/trace.json" \
  -n "python3 -c pass" "$PY -c pass" \
  -n "trace python3 -c pass" "$CUDAENV trace -- $PY -c pass" \
  -n "load 20 libraries" "$work/load20 ${libs[*]}" \
  -n "trace load 20 libraries" "$CUDAENV trace -- $work/load20 ${libs[*]}" \
  -n "cudaenv --version" "$CUDAENV --version"
python3 - "$RESULTS/trace.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
ms = lambda n, k="median": r[n][k] * 1000
for plain, traced in (("python3 -c pass", "trace python3 -c pass"), ("load 20 libraries", "trace load 20 libraries")):
    cpu = lambda n: (r[n]["user"] + r[n]["system"]) * 1000
    print(f"{plain}: {ms(plain):.2f} ms plain, {ms(traced):.2f} ms traced: {ms(traced) - ms(plain):+.2f} ms wall "
          f"({cpu(traced) - cpu(plain):+.2f} ms CPU) added")
print(f"cudaenv --version alone: {ms('cudaenv --version'):.2f} ms")
PY
