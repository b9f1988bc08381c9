#!/usr/bin/env bash
# Does `cudaenv list` scale? Two stores, timed with hyperfine, per call:
#  1. (issue #29: naming each pair's unique spec was quadratic) N = 500, 1,000
#     and 2,000 adopted toolkits, all CUDA 12.6.3, each in its own folder
#     (<i>/cuda-12.6: every spec needs an origin): `cudaenv list`.
#  2. (issue #40 R10: `list` printed every toolkit x every cuDNN of its major,
#     801,601 lines in 6.4-8.7 s) 2,000 toolkits and 2,000 cuDNN builds in the
#     store, over five CUDA majors: `list`, `list --json`, and a cold
#     `env 12.4 --json` (the store's cache/ removed before each run: no kept
#     activation, detection or config copy). Goal: each <= 100 ms.
# With CUDAENV_BEFORE set (another build, e.g. main's), times it in the same
# run, store for store.
#
#   bench/list_scale.sh                 # build/default/cudaenv; RUNS=, SIZES=, PAIRS=, RESULTS=, CUDAENV_BEFORE=
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUDAENV=${CUDAENV:-$repo/build/default/cudaenv}
RESULTS=${RESULTS:-$repo/build/bench-results}
RUNS=${RUNS:-10}
SIZES=${SIZES:-"500 1000 2000"}
PAIRS=${PAIRS:-2000}  # toolkits and cuDNN builds in store 2 (0: skip it)
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

if [ "$PAIRS" -gt 0 ]; then
  store=$work/pairs-$PAIRS
  # Managed toolkits <major>.<minor>.<patch> and cuDNNs <v>_cuda<major>, as
  # install leaves them (tests/store/test_list.py builds the same store).
  python3 "$repo/tests/store/big_store.py" "$store" "$PAIRS"
  export CUDAENV_ROOT=$store
  lines=$("$work/bin/after" list | wc -l)
  all=$("$work/bin/after" list --all | wc -l)
  echo "store 2: $PAIRS toolkits x $PAIRS cuDNNs: list prints $lines lines, list --all $all" >"$RESULTS/pairs-lines.txt"
  for what in "list" "list --json" "env 12.4 --json"; do
    name=${what// /_}
    args=(-n "after" "$work/bin/after $what")
    [ -n "${CUDAENV_BEFORE:-}" ] && args=(-n "before" "$work/bin/before $what" "${args[@]}")
    prep=()
    [ "$what" = "env 12.4 --json" ] && prep=(--prepare "rm -rf $store/cache")
    hyperfine -N --warmup 1 --runs "$RUNS" "${prep[@]}" --export-json "$RESULTS/pairs-$name.json" "${args[@]}" \
      >"$RESULTS/pairs-$name.txt"
  done
fi

python3 - "$RESULTS" $SIZES <<'PY'
import json, os, platform, sys
res, sizes = sys.argv[1], sys.argv[2:]
print("Machine: %s, %d cores, load %s; `cudaenv list`, per call, stripped" %
      (platform.machine(), os.cpu_count(), " ".join("%.2f" % x for x in os.getloadavg())))
rows = {n: {r["command"]: r for r in json.load(open(os.path.join(res, "list-%s.json" % n)))["results"]} for n in sizes}
if rows:
    names = list(next(iter(rows.values())))
    print()
    print("| adopted toolkits of one version | " + " | ".join("%s (median, CPU)" % c for c in names) + " |")
    print("|---|" + "---|" * len(names))
for n in sizes:
    cells = ["%.3f s, %.3f s CPU" % (rows[n][c]["median"], rows[n][c]["user"] + rows[n][c]["system"]) for c in names]
    print("| %s | %s |" % (n, " | ".join(cells)))
pairs = os.path.join(res, "pairs-lines.txt")
if os.path.exists(pairs):
    print()
    print(open(pairs).read().strip())
    print()
    print("| command (store 2) | median, CPU per build |")
    print("|---|---|")
    for what in ("list", "list --json", "env 12.4 --json"):
        r = {x["command"]: x for x in json.load(open(os.path.join(res, "pairs-%s.json" % what.replace(" ", "_"))))["results"]}
        names = list(r)
        cells = ["%.1f ms, %.1f ms CPU" % (r[c]["median"] * 1e3, (r[c]["user"] + r[c]["system"]) * 1e3) for c in names]
        print("| `%s`%s | %s |" % (what, " (cold)" if what.startswith("env") else "",
                                   "; ".join("%s: %s" % (c, cell) for c, cell in zip(names, cells))))
PY
