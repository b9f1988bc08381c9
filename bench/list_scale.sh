#!/usr/bin/env bash
# Does `cudaenv list` scale with adopted installs of one version? (issue #29:
# naming each pair's unique spec was quadratic: 500 toolkits 0.67 s, 2,000 7.0 s)
# Builds stores with N = 500, 1,000 and 2,000 adopted toolkits, all CUDA
# 12.6.3, each in its own folder (<i>/cuda-12.6: every spec needs an origin)
# and times `cudaenv list` with hyperfine, per call. With CUDAENV_BEFORE set
# (another build, e.g. main's), times it in the same run, store for store.
#
#   bench/list_scale.sh                 # build/default/cudaenv; RUNS=, SIZES=, RESULTS=, CUDAENV_BEFORE=
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUDAENV=${CUDAENV:-$repo/build/default/cudaenv}
RESULTS=${RESULTS:-$repo/build/bench-results}
RUNS=${RUNS:-10}
SIZES=${SIZES:-"500 1000 2000"}
command -v hyperfine >/dev/null || { echo "bench: hyperfine is missing (apt-get install hyperfine)" >&2; exit 1; }
[ -x "$CUDAENV" ] || { echo "bench: no cudaenv at $CUDAENV (build it first)" >&2; exit 1; }
mkdir -p "$RESULTS"
work=$(mktemp -d "${TMPDIR:-/tmp}/cudaenv-list.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset CUDAENV_VERSION __CUDAENV_STATE CUDAENV_SHELL CUDAENV_SYSTEM_ROOT

# The stripped programs, as the packages install them (CPACK_STRIP_FILES).
mkdir -p "$work/bin"
strip -o "$work/bin/after" "$CUDAENV"
cmds=(-n "after" "$work/bin/after list")
if [ -n "${CUDAENV_BEFORE:-}" ]; then
  strip -o "$work/bin/before" "$CUDAENV_BEFORE"
  cmds=(-n "before" "$work/bin/before list" "${cmds[@]}")
fi

for n in $SIZES; do
  store=$work/store-$n
  mkdir -p "$store"
  # config.toml written at once (as `add` would, N times over).
  {
    for ((i = 0; i < n; i++)); do
      tk=$work/ext-$n/$i/cuda-12.6
      mkdir -p "$tk/bin" "$tk/lib64"
      printf '{"cuda": {"name": "CUDA SDK", "version": "12.6.3"}}\n' >"$tk/version.json"
      : >"$tk/lib64/libcudart.so.12.6.77"
      printf '[[toolkit]]\npath = "%s"\nversion = "12.6.3"\n\n' "$tk"
    done
  } >"$store/config.toml"
  export CUDAENV_ROOT=$store
  listed=$("$work/bin/after" list --bare | sort -u | wc -l)
  [ "$listed" = "$n" ] || { echo "bench: $n toolkits gave $listed distinct specs" >&2; exit 1; }
  hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$RESULTS/list-$n.json" "${cmds[@]}" >"$RESULTS/list-$n.txt"
done

python3 - "$RESULTS" $SIZES <<'PY'
import json, os, platform, sys
res, sizes = sys.argv[1], sys.argv[2:]
print("Machine: %s, %d cores, load %s; `cudaenv list`, per call, stripped" %
      (platform.machine(), os.cpu_count(), " ".join("%.2f" % x for x in os.getloadavg())))
rows = {n: {r["command"]: r for r in json.load(open(os.path.join(res, "list-%s.json" % n)))["results"]} for n in sizes}
names = list(next(iter(rows.values())))
print()
print("| adopted toolkits of one version | " + " | ".join("%s (median, CPU)" % c for c in names) + " |")
print("|---|" + "---|" * len(names))
for n in sizes:
    cells = ["%.3f s, %.3f s CPU" % (rows[n][c]["median"], rows[n][c]["user"] + rows[n][c]["system"]) for c in names]
    print("| %s | %s |" % (n, " | ".join(cells)))
PY
