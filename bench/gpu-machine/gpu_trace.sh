#!/usr/bin/env bash
# `cudaenv trace` on the GPU machine (issue 11), run by bench/gpu-machine/gpu_check.sh or
# alone. For every adopted pair: what torch really loads for a convolution
# (expected: its wheel's cuDNN, asked for by absolute path, whatever the
# pair), and what a plain C program that dlopens libcudnn.so.9 by name and
# runs cudnnCreate loads (expected: the pair's cuDNN). Then the audit
# library's cost on `import torch`. Results go to $OUT/trace* (or ./gpu-out).
# usage: bench/gpu-machine/gpu_trace.sh [carry folder made by bench/gpu-machine/gpu_carry.sh]
set -u
. "$(dirname "$0")/gpu_env.sh"
export CUDAENV_ROOT=${CUDAENV_ROOT:-/tmp/cudaenv-gpu-store}
mkdir -p "$RES/trace"
# Alone, adopt the machine's pairs first (gpu_check.sh has done it already).
if [ -z "$("$BIN" list --bare 2>/dev/null)" ]; then
    "$BIN" discover --add >/dev/null 2>&1
    [ -d "$CARRY/cudart-11.8" ] && "$BIN" add "$CARRY/cudart-11.8" >/dev/null 2>&1
fi
SRC=$HERE/gpu_trace_cudnn.c
[ -f "$SRC" ] || SRC=$CARRY/gpu_trace_cudnn.c
cc -O2 -o "$RES/trace/gpu_trace_cudnn" "$SRC" -ldl
specs=$("$BIN" list --json | "$PY" -c 'import json,sys; [print(p["spec"]) for p in json.load(sys.stdin)["pairs"]]')
{
    echo "== driver: $(grep -o 'Kernel Module  *[0-9.]*' /proc/driver/nvidia/version 2>/dev/null)"
    for spec in $specs; do
        echo "== $spec: torch conv2d"
        "$BIN" trace "$spec" --json="$RES/trace/torch-$spec.json" -- "$PY" -c \
            "import torch, torch.nn.functional as F; x = torch.rand(8, 16, 32, 32, device='cuda'); w = torch.rand(16, 16, 3, 3, device='cuda'); F.conv2d(x, w, padding=1); torch.cuda.synchronize(); print('torch', torch.__version__, 'cudnn', torch.backends.cudnn.version())"
        echo "exit status: $?"
        case $spec in *+none) continue ;; esac
        echo "== $spec: dlopen libcudnn.so.9 + cudnnCreate"
        "$BIN" trace "$spec" --json="$RES/trace/c-$spec.json" -- "$RES/trace/gpu_trace_cudnn"
        echo "exit status: $?"
    done
    echo "== cost of the audit library on import torch (seconds, 3 runs each)"
    for i in 1 2 3; do
        s=$(date +%s%N); "$PY" -c "import torch"; m=$(date +%s%N)
        "$BIN" trace -- "$PY" -c "import torch" 2>/dev/null; e=$(date +%s%N)
        echo "plain $(( (m - s) / 1000000 )) ms, traced $(( (e - m) / 1000000 )) ms"
    done
} >"$RES/trace.txt" 2>&1
cat "$RES/trace.txt"
