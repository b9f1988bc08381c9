# shellcheck shell=bash
# Sourced by the GPU machine's scripts (gpu_check.sh, gpu_inspect.sh,
# gpu_trace.sh) with their arguments: the carry folder made by
# bench/gpu-machine/gpu_carry.sh ($1, default .devcarry), where results go ($OUT, else
# ./gpu-out), the scripts' own folder, the cudaenv binary and PyTorch's Python.
CARRY=$(cd "${1:-.devcarry}" && pwd)
RES=${OUT:-$PWD/gpu-out}
mkdir -p "$RES"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BIN=$CARRY/cudaenv
PY=/opt/torch/.venv/bin/python3
[ -x "$PY" ] || PY=python3
