# shellcheck shell=bash
# Sourced by the GPU machine's scripts (gpu_check.sh, gpu_inspect.sh,
# gpu_trace.sh) with their arguments: the carry folder made by
# bench/gpu-machine/gpu_carry.sh ($1, default .devcarry), where results go ($OUT, else
# ./gpu-out), the scripts' own folder, the cudaenv binary and PyTorch's Python.
CARRY=$(cd "${1:-.devcarry}" && pwd)
RES=${OUT:-$PWD/gpu-out}
mkdir -p "$RES"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The sources (for the ABI check): the first folder above the scripts that
# holds src/check/api.hpp, whether they run from bench/gpu-machine or from
# the carry folder.
SRC=$HERE
while [ "$SRC" != / ] && [ ! -f "$SRC/src/check/api.hpp" ]; do SRC=$(dirname "$SRC"); done
SRC=$SRC/src
BIN=$CARRY/cudaenv
PY=/opt/torch/.venv/bin/python3
[ -x "$PY" ] || PY=python3
