#!/usr/bin/env bash
# The GitHub Action's steps (action.yml), cold and warm, against the tests'
# mirror (tests/install/redist.py: NVIDIA's real 12.6.3 and 9.8.0 manifests,
# archives of a few KiB at scale 0; served by tests/install/server.py on
# 127.0.0.1), per step, with hyperfine (docs/lock.md, "GitHub Actions"):
#   - Linux: action/cudaenv-action.sh key, install on an empty store (cold),
#     install on the store the cache gave back (warm), with the ci build;
#   - Windows, with a windows-cross build: the same steps with cudaenv.exe under
#     Wine as tests/windows/action_win.py runs them (Linux bash: Wine has no Git
#     Bash; the stand-in cygpath), and action/cudaenv-env.cmd in Wine's cmd.
#   bench/action_bench.sh [ci build dir] [windows-cross build dir] [scale, default 0]
# Needs hyperfine and python3; Wine for the second part. BENCH_RUNS (warm,
# default 20) and BENCH_COLD_RUNS (default 5) set the runs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
BUILD=$(realpath "${1:-build/ci}")
WBUILD=${2:+$(realpath "$2")}
SCALE=${3:-0}
RUNS=${BENCH_RUNS:-20}
COLD=${BENCH_COLD_RUNS:-5}
W=$(mktemp -d "${BENCH_DIR:-/tmp}/cudaenv-action-bench.XXXXXX")
script="$root/action/cudaenv-action.sh"
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  rm -rf "$W"
}
trap cleanup EXIT

python3 - "$root/tests/install" "$W/mirror" "$SCALE" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import redist
redist.build(sys.argv[2], float(sys.argv[3]), cuda=("12.6.3",), cudnn=("9.8.0",))
PY
python3 "$root/tests/install/server.py" --root "$W/mirror" --port-file "$W/port" --log "$W/http.log" &
server=$!
for _ in $(seq 500); do [ -s "$W/port" ] && break; sleep 0.02; done
URL="http://127.0.0.1:$(cat "$W/port")"

# A checkout holding only cudaenv.lock: checkout NAME STORE PROGRAM (locked by it, with that store).
checkout() {
  local d="$W/$1/checkout"
  mkdir -p "$d"
  echo "12.6+9.8" >"$d/.cudaenv"
  (cd "$d" && env CUDAENV_ROOT="$2" "$3" lock --mirror "$URL" >/dev/null)
  rm "$d/.cudaenv"
}

echo "== Linux: $BUILD/cudaenv" >&2
L="$W/linux"
mkdir -p "$L/tmp"
checkout linux "$L/dev-store" "$BUILD/cudaenv"
common="env RUNNER_OS=Linux RUNNER_ARCH=X64 RUNNER_TEMP=$L/tmp INPUT_CUDAENV=$BUILD/cudaenv GITHUB_OUTPUT=$L/out GITHUB_ENV=$L/env CUDAENV_ROOT=$L/store"
install="$common CUDAENV_ACTION_PROJECT=$L/checkout bash $script install"
hyperfine -N --runs "$COLD" --export-markdown "$W/linux-cold.md" --prepare "rm -rf $L/store" -n "install step, cold" "$install"
hyperfine -N --warmup 2 --runs "$RUNS" --export-markdown "$W/linux-warm.md" \
  -n "key step" "$common INPUT_LOCK=$L/checkout/cudaenv.lock bash $script key" -n "install step, warm" "$install"

if [ -n "$WBUILD" ]; then
  echo "== Windows: $WBUILD/cudaenv.exe under Wine" >&2
  X="$W/windows"
  mkdir -p "$X/bin" "$X/tmp"
  win() { printf 'Z:%s' "${1//\//\\}"; }
  exe="$(win "$WBUILD/cudaenv.exe")"
  printf '#!/bin/sh\nexec %q %q %q "$@"\n' "$root/cmake/wine-run.sh" "$WBUILD/wineprefix" "$exe" >"$X/bin/cudaenv"
  cp "$root/tests/windows/fake/cygpath" "$X/bin/"
  chmod +x "$X/bin/cudaenv" "$X/bin/cygpath"
  checkout windows "$(win "$X/dev-store")" "$X/bin/cudaenv"
  common="env PATH=$X/bin:$PATH RUNNER_OS=Windows RUNNER_ARCH=X64 RUNNER_TEMP='$(win "$X/tmp")' GITHUB_OUTPUT=$X/out GITHUB_ENV=$X/env CUDAENV_ROOT='$(win "$X/store")'"
  install="$common CUDAENV_ACTION_PROJECT=$X/checkout bash $script install"
  envcmd="env INPUT_CUDAENV='$exe' CUDAENV_ROOT='$(win "$X/store")' CUDAENV_ACTION_PAIR=12.6.3+9.8.0 GITHUB_ENV='$(win "$X/env")' $root/cmake/wine-run.sh $WBUILD/wineprefix cmd /D /E:ON /V:OFF /S /C CALL '$(win "$root/action/cudaenv-env.cmd")'"
  hyperfine -N --runs "$COLD" --export-markdown "$W/windows-cold.md" --prepare "rm -rf $X/store" \
    -n "install step, cold" "$install"
  hyperfine -N --warmup 2 --runs "$RUNS" --export-markdown "$W/windows-warm.md" \
    -n "key step" "$common INPUT_LOCK='$(win "$X/checkout")\\cudaenv.lock' bash $script key" \
    -n "install step, warm" "$install" -n "cudaenv-env.cmd step" "$envcmd"
fi
cat "$W"/*.md
