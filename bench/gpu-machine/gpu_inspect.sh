#!/usr/bin/env bash
# Runs on the GPU machine (issue 25): `cudaenv inspect` on the machine's real
# libraries, every SASS and PTX list compared with that machine's cuobjdump
# (CUDA 13.0), then what `list`, `inspect`, `doctor` say about its pairs for the
# GPU itself (sm_90: the H200, or the H100 when one is lent instead) and for a
# GTX 1080 (--gpu sm_61). Libraries scanned:
#   CUDA 13.0's toolkit libraries   /usr/local/cuda-13.0/lib64 (and targets/.../lib)
#   cuDNN 9.14 (system layout)      /usr/lib/x86_64-linux-gnu/libcudnn*.so.9.14*
#   cuDNN 9.19 (the pip wheel)      <venv>/site-packages/nvidia/cudnn/lib
#   torch 2.11's own kernels        <venv>/site-packages/torch/lib/libtorch_cuda.so
# Writes $OUT (default ./gpu-out)/inspect-summary.md and the raw outputs beside it.
# usage: bench/gpu-machine/gpu_inspect.sh [carry folder made by bench/gpu-machine/gpu_carry.sh]
set -u
. "$(dirname "$0")/gpu_env.sh"
export CUDAENV_ROOT=/tmp/cudaenv-inspect-store
rm -rf "$CUDAENV_ROOT"
unset CUDAENV_GPU CUDAENV_DRIVER
CUOBJDUMP=$(ls /usr/local/cuda-13.0/bin/cuobjdump /usr/local/cuda/bin/cuobjdump 2>/dev/null | head -1)
SITE=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' 2>/dev/null)
SUM=$RES/inspect-summary.md

libs=()
declare -A seen  # lib64 is often a link to targets/x86_64-linux/lib: read each file once
for d in /usr/local/cuda-13.0/lib64 /usr/local/cuda-13.0/targets/x86_64-linux/lib; do
    for f in "$d"/lib*.so.*; do
        if [ ! -f "$f" ] || [ -L "$f" ]; then continue; fi
        real=$(readlink -f "$f")
        [ -n "${seen[$real]:-}" ] && continue
        seen[$real]=1
        libs+=("$f")
    done
done
for f in /usr/lib/x86_64-linux-gnu/libcudnn*.so.9.14*; do [ -f "$f" ] && [ ! -L "$f" ] && libs+=("$f"); done
for f in "$SITE"/nvidia/cudnn/lib/libcudnn*.so*; do [ -f "$f" ] && [ ! -L "$f" ] && libs+=("$f"); done
[ -f "$SITE/torch/lib/libtorch_cuda.so" ] && libs+=("$SITE/torch/lib/libtorch_cuda.so")

# Per-architecture counts: cuobjdump (PTX files are named sm_XX.ptx) and cudaenv.
counts_cuobjdump() {
    "$CUOBJDUMP" "--list-$1" "$2" 2>/dev/null | sed -n 's/.*\.\(sm_[0-9a-z]*\)\.\(cubin\|ptx\)$/\1/p' | sort | uniq -c | awk '{print $2":"$1}' | sort | tr '\n' ' '
}
# cudaenv's counts less what it found in data sections (cuobjdump reads only the fatbin sections),
# family-specific code (sm_100f) counted under its plain name, as cuobjdump lists it.
counts_cudaenv() {
    python3 -c '
import json, re, sys, collections
f = json.load(open(sys.argv[1]))["files"][0]
data = f["in_data_sections"][sys.argv[2]]
left = collections.Counter()
for k, v in f[sys.argv[2]].items():
    if v - data.get(k, 0):
        left[re.sub(r"^(sm_[0-9]+)f$", r"\1", k.replace("compute_", "sm_"))] += v - data.get(k, 0)
print(" ".join(sorted("%s:%d" % kv for kv in left.items())), end=" ")' "$2" "$1"
}

{
    gpu=$(nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader 2>/dev/null | head -1)
    echo "# cudaenv inspect on ${gpu:-a machine without nvidia-smi} ($(date -u +%Y-%m-%dT%H:%MZ))"
    echo
    echo "cuobjdump: $CUOBJDUMP ($("$CUOBJDUMP" --version 2>&1 | tail -1))"
    echo
    echo "## Every library against cuobjdump"
    echo
    echo "| library | SASS | PTX | same as cuobjdump | cudaenv ms | cuobjdump ms |"
    echo "|---|---|---|---|---|---|"
} >"$SUM"
same=0
differ=0
for lib in "${libs[@]}"; do
    name=$(basename "$lib")
    t0=$(date +%s%N)
    "$BIN" inspect "$lib" --json >"$RES/inspect-$name.json" 2>"$RES/inspect-$name.err"
    t1=$(date +%s%N)
    ce=$(counts_cuobjdump elf "$lib"); cp=$(counts_cuobjdump ptx "$lib")
    t2=$(date +%s%N)
    ie=$(counts_cudaenv sass "$RES/inspect-$name.json"); ip=$(counts_cudaenv ptx "$RES/inspect-$name.json")
    sass=$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["files"][0]["sass"]))' "$RES/inspect-$name.json")
    ptx=$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["files"][0]["ptx"]))' "$RES/inspect-$name.json")
    # Both lists end in one space, unless empty: compare without it.
    if [ "${ce% }" = "${ie% }" ] && [ "${cp% }" = "${ip% }" ]; then verdict=yes; same=$((same + 1)); else
        verdict="NO: cuobjdump ELF [$ce] PTX [$cp], cudaenv [$ie] [$ip]"; differ=$((differ + 1)); fi
    echo "| $name | ${sass:--} | ${ptx:--} | $verdict | $(( (t1 - t0) / 1000000 )) | $(( (t2 - t1) / 1000000 )) |" >>"$SUM"
done
{
    echo
    echo "**$same libraries identical, $differ different** (cudaenv ms: one \`inspect --json\` with nothing kept, start included;"
    echo "cuobjdump ms: \`--list-elf\` and \`--list-ptx\`, two runs)."
    echo
    echo "## The machine, the pairs"
    echo
    echo '```'
    "$BIN" discover --add 2>&1 | tail -5
    echo "\$ cudaenv inspect $(basename "${libs[0]:-none}")   # the machine line: driver API through cudaenv-probe, NVML"
    "$BIN" inspect "${libs[0]:-/dev/null}" 2>&1 | head -1
    echo "\$ cudaenv list"
    "$BIN" list 2>&1
    echo "\$ cudaenv list --gpu sm_61"
    "$BIN" list --gpu sm_61 2>&1
    echo "\$ cudaenv inspect 13.0   # the active or newest CUDA 13 pair"
    "$BIN" inspect 13.0 2>&1 | tail -4
    echo "\$ cudaenv doctor | grep -E 'gpu|forward_compat|torch_gpu'"
    PATH=$(dirname "$PY"):$PATH "$BIN" doctor 2>&1 | grep -E '^(gpu|forward_compat|torch_gpu)'
    echo '```'
    echo
    echo "Expected: every library identical; \`list\` says native for the CUDA 13.0 pairs on sm_90 and no with --gpu sm_61."
} >>"$SUM" 2>&1
cat "$SUM"
