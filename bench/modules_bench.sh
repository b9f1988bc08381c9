#!/usr/bin/env bash
# `module load` of modulefiles written by `cudaenv export lmod|tcl` (Lmod, and
# Debian's Environment Modules unpacked with dpkg -x as tests/modules does)
# against `cudaenv use` of the same pair, in one run with hyperfine.
# Usage: bench/modules_bench.sh [cudaenv]   (RUNS=, RESULTS=)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CUDAENV=$(realpath "${1:-$here/../build/default/cudaenv}")
RUNS=${RUNS:-100}
RESULTS=${RESULTS:-$here/../build/bench-results}
command -v hyperfine >/dev/null || { echo "bench: hyperfine is missing" >&2; exit 1; }
mkdir -p "$RESULTS"
work=$(mktemp -d "${TMPDIR:-/tmp}/cudaenv-modbench.XXXXXX")
trap 'rm -rf "$work"' EXIT

export CUDAENV_ROOT=$work/store
unset CUDAENV_VERSION __CUDAENV_STATE CUDAENV_SHELL
tk=$work/cuda-11.8; dn=$work/cudnn-linux-x86_64-8.9.7.29_cuda11-archive
mkdir -p "$tk/bin" "$tk/lib64" "$tk/include" "$dn/include" "$dn/lib"
printf '{"cuda": {"name": "CUDA SDK", "version": "11.8.89"}}\n' >"$tk/version.json"
cp /bin/true "$tk/bin/nvcc"; : >"$tk/lib64/libcudart.so.11.8.89"
printf '#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n' >"$dn/include/cudnn_version.h"
: >"$dn/lib/libcudnn.so.8.9.7"
"$CUDAENV" add "$tk" >/dev/null; "$CUDAENV" add "$dn" >/dev/null
"$CUDAENV" export lmod 11.8 -o "$work/lua"
"$CUDAENV" export tcl 11.8 -o "$work/tcl"
export PATH=/usr/local/bin:/usr/bin:/bin
mod=cuda/11.8.89-cudnn8.9.7
q() { printf '%q' "$1"; }

cmds=(); names=()
add() { names+=("$1"); cmds+=("$2"); }
add "bash" "bash --norc --noprofile -c true"
add "cudaenv: init" "bash --norc --noprofile -c 'eval \"\$($(q "$CUDAENV") init bash --no-auto-switch)\"'"
add "cudaenv: init + use 11.8" "bash --norc --noprofile -c 'eval \"\$($(q "$CUDAENV") init bash --no-auto-switch)\"; cudaenv use 11.8'"
if [ -f /usr/share/lmod/lmod/init/bash ]; then
  add "lmod: init" "bash --norc --noprofile -c '. /usr/share/lmod/lmod/init/bash; export MODULEPATH=$(q "$work/lua")'"
  add "lmod: init + module load (lua)" "bash --norc --noprofile -c '. /usr/share/lmod/lmod/init/bash; export MODULEPATH=$(q "$work/lua"); module load $mod'"
else
  echo "bench: no Lmod (apt-get install lmod): skipped" >&2
fi
deb=$(ls "${XDG_CACHE_HOME:-$HOME/.cache}"/cudaenv-ci/environment-modules_*.deb 2>/dev/null | tail -1 || true)
if [ -n "$deb" ]; then
  dpkg -x "$deb" "$work/em"
  mc=$(ls "$work"/em/usr/lib/*/modulecmd.tcl | head -1)
  def="module() { eval \"\$(/usr/bin/tclsh8.6 $(q "$mc") bash \"\$@\")\"; }; export MODULEPATH=$(q "$work/tcl")"
  add "modules: define" "bash --norc --noprofile -c $(q "$def")"
  add "modules: define + module load (tcl)" "bash --norc --noprofile -c $(q "$def; module load $mod")"
else
  echo "bench: no environment-modules .deb (run .ci/deps.sh): skipped" >&2
fi
# Every command must work before it is timed.
for i in "${!cmds[@]}"; do bash -c "${cmds[$i]}" >/dev/null 2>&1 || { echo "bench: '${names[$i]}' fails" >&2; exit 1; }; done
args=(); for i in "${!cmds[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
hyperfine -N --warmup 5 --runs "$RUNS" --export-json "$RESULTS/modules.json" "${args[@]}" >/dev/null 2>&1 ||
  hyperfine --warmup 5 --runs "$RUNS" --export-json "$RESULTS/modules.json" "${args[@]}" >/dev/null
python3 - "$RESULTS/modules.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
ms = lambda k: r[k]["median"] * 1000
print("| what | median (ms) | minus its set-up (ms) |")
print("|---|---|---|")
pairs = [("cudaenv: init + use 11.8", "cudaenv: init"), ("lmod: init + module load (lua)", "lmod: init"),
         ("modules: define + module load (tcl)", "modules: define")]
for k in r:
    print("| %s | %.2f | |" % (k, ms(k)))
for full, setup in pairs:
    if full in r and setup in r:
        print("| %s, load alone | | %.2f |" % (full.split(":")[0], ms(full) - ms(setup)))
PY
