#!/usr/bin/env bash
# What Python's DLL hook (docs/python.md) costs at an interpreter's start. A
# venv (python3 -m venv --without-pip) gets the hook with `cudaenv setup
# --python`; a second venv has none. Measures:
#   - hyperfine: `python -c pass` in each venv, CUDAENV_DLL_DIRS unset (the
#     .pth line only looks the variable up: the module is not imported);
#   - site's start in each venv (`python -S`, then site.main(), timed inside
#     the interpreter), median of $RUNS fresh interpreters: no hook; the hook
#     with the variable unset; the hook with 5 folders in it and
#     os.add_dll_directory stubbed (what Windows runs, less the five
#     AddDllDirectory calls), with the module's bytecode cached and without
#     (a site-packages the user cannot write, or PYTHONDONTWRITEBYTECODE).
#
#   bench/python_hook.sh     # CUDAENV=build/ci/cudaenv, PYTHON=python3, RUNS=200, RESULTS=build/bench-results
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUDAENV=${CUDAENV:-$repo/build/ci/cudaenv}
PYTHON=${PYTHON:-python3}
RUNS=${RUNS:-200}
RESULTS=${RESULTS:-$repo/build/bench-results}
command -v hyperfine >/dev/null || { echo "bench: hyperfine is missing (apt-get install hyperfine)" >&2; exit 1; }
[ -x "$CUDAENV" ] || { echo "bench: no cudaenv at $CUDAENV (build it first)" >&2; exit 1; }
mkdir -p "$RESULTS"
work=$(mktemp -d "${TMPDIR:-/tmp}/cudaenv-pyhook.XXXXXX")
trap 'rm -rf "$work"' EXIT
export CUDAENV_ROOT=$work/store
unset CUDAENV_DLL_DIRS PYTHONDONTWRITEBYTECODE

"$PYTHON" -m venv --without-pip "$work/hooked"
"$PYTHON" -m venv --without-pip "$work/plain"
"$CUDAENV" setup --python "$work/hooked" >/dev/null

echo "== interpreter start, CUDAENV_DLL_DIRS unset" >&2
hyperfine -N --warmup 20 --min-runs "$RUNS" --style basic --export-json "$RESULTS/python_hook_start.json" \
  -n "python -c pass (no hook)" "$work/plain/bin/python -c pass" \
  -n "python -c pass (hook)" "$work/hooked/bin/python -c pass"

dirs=""
for d in toolkit-bin-x64 toolkit-bin cudnn-bin cudnn-bin-12.9-x64 zlib; do
  mkdir -p "$work/dirs/$d"
  dirs+="${dirs:+;}$work/dirs/$d"
done
# site's whole start, timed in the interpreter; os.add_dll_directory stubbed as on Windows.
SITE='import os, sys, time
os.add_dll_directory = lambda p: p
import site
t = time.perf_counter()
site.main()
print(int((time.perf_counter() - t) * 1e6))'
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
site_us() {  # label venv [env...]
  local label=$1 venv=$2
  shift 2
  for _ in $(seq "$RUNS"); do env "$@" "$venv/bin/python" -S -c "$SITE"; done | median |
    awk -v l="$label" '{printf "  %-58s %5d us\n", l, $1}'
}
echo "== site's start (python -S; site.main()), median of $RUNS interpreters" >&2
env CUDAENV_DLL_DIRS="$dirs" "$work/hooked/bin/python" -S -c "$SITE" >/dev/null  # its bytecode, once
{
  site_us "no hook" "$work/plain"
  site_us "hook, CUDAENV_DLL_DIRS unset" "$work/hooked"
  site_us "hook, 5 folders added (bytecode cached)" "$work/hooked" CUDAENV_DLL_DIRS="$dirs"
  rm -rf "$work/hooked/lib/"python3*/site-packages/__pycache__
  site_us "hook, 5 folders added (no bytecode: compiled each start)" "$work/hooked" CUDAENV_DLL_DIRS="$dirs" \
    PYTHONDONTWRITEBYTECODE=1
} | tee "$RESULTS/python_hook_site.txt"
