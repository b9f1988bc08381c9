#!/usr/bin/env bash
# cudaenv against its peers, measured side by side in one run (benchmarks,
# not tests): hyperfine for whole commands, a loop inside one bash for the
# in-shell steps whose cost is far below a process start.
#
#   bench/run.sh                      # uses build/default/cudaenv
#   CUDAENV=/path/cudaenv HOOK_CUDAENV=/path/other/cudaenv bench/run.sh
#
# Peers (Debian packages): hyperfine, lmod (`module load` of an equivalent
# CUDA modulefile), direnv (`direnv export bash`); pyenv from PYENV_ROOT
# (default ~/.pyenv). A missing peer is reported and skipped.
# Writes JSON and a Markdown summary to $RESULTS (default build/bench-results/).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUDAENV=${CUDAENV:-$repo/build/default/cudaenv}
HOOK_CUDAENV=${HOOK_CUDAENV:-$CUDAENV}   # the build whose `init bash` has the prompt hook
RESULTS=${RESULTS:-$repo/build/bench-results}  # build/ is git-ignored
RUNS=${RUNS:-300}
LOOPS=${LOOPS:-200}
PYENV_ROOT=${PYENV_ROOT:-$HOME/.pyenv}
export PYENV_ROOT

for tool in hyperfine python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install $tool)" >&2; exit 1; }
done
[ -x "$CUDAENV" ] || { echo "bench: no cudaenv at $CUDAENV (build it first)" >&2; exit 1; }
mkdir -p "$RESULTS"
work=$(mktemp -d "${TMPDIR:-/tmp}/cudaenv-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- a store with two pairs; the tools are native no-ops so a call measures only the launch
export CUDAENV_ROOT=$work/store
unset CUDAENV_VERSION __CUDAENV_STATE CUDAENV_SHELL
make_toolkit() {  # dir version
  mkdir -p "$1/bin" "$1/lib64" "$1/include"
  printf '{"cuda": {"name": "CUDA SDK", "version": "%s"}}\n' "$2" >"$1/version.json"
  for t in nvcc ptxas cuobjdump nvdisasm; do cp /bin/true "$1/bin/$t"; done
  : >"$1/lib64/libcudart.so.${2%.*}"
}
make_cudnn() {  # dir version cuda_major
  local maj=${2%%.*} rest=${2#*.}
  mkdir -p "$1/include" "$1/lib"
  printf '#define CUDNN_MAJOR %s\n#define CUDNN_MINOR %s\n#define CUDNN_PATCHLEVEL %s\n' \
    "$maj" "${rest%%.*}" "${rest#*.}" >"$1/include/cudnn_version.h"
  : >"$1/lib/libcudnn.so.$2"
}
tk118=$work/cuda-11.8; tk124=$work/cuda-12.4
cd118=$work/cudnn-linux-x86_64-8.9.7.29_cuda11-archive; cd124=$work/cudnn-linux-x86_64-9.1.0.70_cuda12-archive
make_toolkit "$tk118" 11.8.89; make_toolkit "$tk124" 12.4.131
make_cudnn "$cd118" 8.9.7 11; make_cudnn "$cd124" 9.1.0 12
for d in "$tk118" "$tk124" "$cd118" "$cd124"; do "$CUDAENV" add "$d" >/dev/null; done
"$CUDAENV" rehash >/dev/null
proj=$work/project; mkdir -p "$proj/src/deep"; echo 11.8 >"$proj/.cudaenv"
base_path=${BENCH_PATH:-/usr/local/bin:/usr/bin:/bin}  # BENCH_PATH: where the peers are, if elsewhere
export PATH=$base_path

# --- Lmod: a modulefile doing what `cudaenv use 11.8` does
lmod_init=""
for f in /usr/share/lmod/lmod/init/bash /usr/share/lmod/6.6/init/bash; do [ -f "$f" ] && lmod_init=$f && break; done
mkdir -p "$work/modules/cuda"
cat >"$work/modules/cuda/11.8.lua" <<LUA
-- CUDA 11.8 + cuDNN 8.9.7, as an HPC site would write it
local root = "$tk118"
local cudnn = "$cd118"
conflict("cuda")
prepend_path("PATH", pathJoin(root, "bin"))
prepend_path("LD_LIBRARY_PATH", pathJoin(root, "lib64"))
prepend_path("LD_LIBRARY_PATH", pathJoin(cudnn, "lib"))
setenv("CUDA_HOME", root)
setenv("CUDA_PATH", root)
setenv("CUDNN_PATH", cudnn)
setenv("CUDNN_HOME", cudnn)
LUA
# --- direnv: the same variables from an .envrc
direnv_dir=$work/direnv-project; mkdir -p "$direnv_dir"
cat >"$direnv_dir/.envrc" <<ENVRC
PATH_add "$tk118/bin"
path_add LD_LIBRARY_PATH "$tk118/lib64"
export CUDA_HOME="$tk118" CUDA_PATH="$tk118" CUDNN_PATH="$cd118" CUDNN_HOME="$cd118"
ENVRC
export XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data
command -v direnv >/dev/null && (cd "$direnv_dir" && direnv allow . && eval "$(direnv export bash 2>/dev/null)")

# --- pyenv
pyenv_bin=$PYENV_ROOT/bin/pyenv
pyenv_ver=""
[ -x "$pyenv_bin" ] && pyenv_ver=$(PATH=$PYENV_ROOT/bin:$PATH "$pyenv_bin" version-name 2>/dev/null || true)

hf() {  # name json-name commands...: hyperfine without a shell in between
  local json=$RESULTS/$1.json; shift
  hyperfine -N --warmup 20 --min-runs "$RUNS" --style basic --export-json "$json" "$@" >/dev/null 2>&1 ||
    hyperfine -N --warmup 20 --min-runs "$RUNS" --style basic --export-json "$json" "$@"
}

echo "== tool call: through the shim vs direct" >&2
(cd "$proj" && hf shim -n "nvcc direct" "$tk118/bin/nvcc --version" -n "nvcc via cudaenv shim" "$CUDAENV_ROOT/shims/nvcc --version")
py_direct=$PYENV_ROOT/versions/$pyenv_ver/bin/python3
[ "$pyenv_ver" = system ] && py_direct=$(PATH=$base_path command -v python3)
if [ -n "$pyenv_ver" ] && [ -x "$PYENV_ROOT/shims/python3" ] && [ -x "$py_direct" ]; then
  hf pyenv_shim -n "python3 direct" "$py_direct --version" \
    -n "python3 via pyenv shim" "$PYENV_ROOT/shims/python3 --version"
fi

echo "== cudaenv env / use / init, Lmod, pyenv init, direnv" >&2
(cd "$work" && hf env -n "cudaenv env 11.8 --shell bash" "$CUDAENV env 11.8 --shell bash")
b="bash --norc --noprofile -c"
init='eval "$('"$CUDAENV"' init bash)"'
cmds=(-n "bash start" "$b :"
      -n "bash + eval cudaenv init" "$b '$init'"
      -n "bash + init + cudaenv use 11.8" "$b '$init; cudaenv use 11.8'")
[ -n "$lmod_init" ] && cmds+=(-n "bash + lmod init" "$b 'source $lmod_init; module use $work/modules'"
                              -n "bash + lmod init + module load cuda/11.8" "$b 'source $lmod_init; module use $work/modules; module load cuda/11.8'")
[ -n "$pyenv_ver" ] && cmds+=(-n "bash + eval pyenv init" "$b 'eval \"\$($pyenv_bin init - bash)\"'")
(cd "$work" && hf shell "${cmds[@]}")
command -v direnv >/dev/null && (cd "$direnv_dir" && hf direnv -n "direnv export bash (.envrc loaded)" "direnv export bash")

echo "== in one bash: per-call cost of use, module load, the prompt hook" >&2
# Each step alternates between two states so every call does real work. Prints
# {"wall_us": ..., "cpu_us": ...} per call (divided by $4, the steps per loop
# pass); CPU time (user + system, children included) hardly depends on how
# busy the machine is, wall time does.
loop() {  # name setup body steps
  bash --norc --noprofile -c "$2
    TIMEFORMAT='%R %U %S'
    { time { for ((i = 0; i < $LOOPS; i++)); do $3; done >/dev/null 2>&1; } ; } 2>&1" 2>/dev/null |
    awk -v n="$LOOPS" -v k="${4:-1}" 'END {printf "{\"wall_us\": %.1f, \"cpu_us\": %.1f}", $1 * 1e6 / n / k, ($2 + $3) * 1e6 / n / k}'
}
{
  echo "{"
  printf '"cudaenv use (11.8 <-> 12.4)": %s,\n' "$(cd "$work" && loop use "$init" 'cudaenv use 11.8; cudaenv use 12.4' 2)"
  if [ -n "$lmod_init" ]; then
    printf '"module load cuda/11.8 + unload": %s,\n' "$(cd "$work" && loop lmod "source $lmod_init; module use $work/modules" 'module load cuda/11.8; module unload cuda' 2)"
  fi
  hook_init='eval "$('"$HOOK_CUDAENV"' init bash)"'
  if bash --norc --noprofile -c "$hook_init; declare -F __cudaenv_hook" >/dev/null 2>&1; then
    printf '"prompt hook, nothing changed": %s,\n' "$(cd "$proj/src/deep" && loop hook "$hook_init; __cudaenv_hook" '__cudaenv_hook')"
    printf '"prompt hook, cd between two projects": %s,\n' "$(cd "$work" && loop hook "$hook_init; __cudaenv_hook" "cd $proj/src; __cudaenv_hook; cd $work; __cudaenv_hook" 2)"
    # Processes started by 50 prompts where nothing changed (strace counts every execve).
    if command -v strace >/dev/null; then
      count_execs() {  # number of prompts
        (cd "$proj/src/deep" && strace -f -qq -e trace=execve -o "$work/hook.strace" bash --norc --noprofile -c \
          "$hook_init; __cudaenv_hook; for ((i = 0; i < $1; i++)); do __cudaenv_hook; done") >/dev/null 2>&1
        grep -c 'execve(' "$work/hook.strace" || true
      }
      n0=$(count_execs 0); n=$(count_execs 50)
      printf '"processes per 50 unchanged prompts": %s,\n' "$((n - n0))"
    fi
  fi
  if command -v direnv >/dev/null; then
    printf '"direnv hook (_direnv_hook), nothing changed": %s,\n' "$(cd "$direnv_dir" && loop direnv 'eval "$(direnv hook bash)"; _direnv_hook' '_direnv_hook')"
  fi
  echo "\"unit\": \"per call\""
  echo "}"
} >"$RESULTS/inshell.json"

python3 "$repo/bench/summarize.py" "$RESULTS"
