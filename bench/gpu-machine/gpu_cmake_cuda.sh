#!/usr/bin/env bash
# GPU machine: a CMake project with enable_language(CUDA) builds and runs a
# kernel under `cudaenv exec` of the CUDA 13.0 pair: once as it is, once with an
# unrelated nvcc first on PATH, so only CUDACXX from cudaenv can point CMake
# at the pair's nvcc. Prints one PASS/FAIL line per run.
# usage: bench/gpu-machine/gpu_cmake_cuda.sh CUDAENV [SPEC (default 13.0)]
set -u
BIN=$1
SPEC=${2:-13.0}
W=$(mktemp -d /tmp/cudaenv-cmake-cuda.XXXXXX)
mkdir -p "$W/proj" "$W/wrong"
cat >"$W/proj/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.18)
project(vadd LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES native)
add_executable(vadd vadd.cu)
file(WRITE "${CMAKE_BINARY_DIR}/compiler.txt" "${CMAKE_CUDA_COMPILER} ${CMAKE_CUDA_COMPILER_VERSION}\n")
CM
cat >"$W/proj/vadd.cu" <<'CU'
#include <cstdio>
#include <cuda_runtime.h>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
int main() {
    const int n = 1 << 20;
    float *a, *b, *c;
    cudaMallocManaged(&a, n * sizeof(float)); cudaMallocManaged(&b, n * sizeof(float)); cudaMallocManaged(&c, n * sizeof(float));
    for (int i = 0; i < n; ++i) { a[i] = 1.0f * i; b[i] = 2.0f * i; }
    add<<<(n + 255) / 256, 256>>>(a, b, c, n);
    cudaError_t e = cudaDeviceSynchronize();
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += c[i] != 3.0f * i;
    int rt = 0; cudaRuntimeGetVersion(&rt);
    printf("vadd: %s, %d wrong, runtime %d\n", cudaGetErrorString(e), bad, rt);
    return e == cudaSuccess && bad == 0 ? 0 : 1;
}
CU
printf '#!/bin/sh\necho "an unrelated nvcc (%s) was used" >&2\nexit 1\n' "$W/wrong/nvcc" >"$W/wrong/nvcc"
chmod +x "$W/wrong/nvcc"
echo "== pair $SPEC: CUDA_PATH=$("$BIN" exec "$SPEC" -- printenv CUDA_PATH)"
"$BIN" env "$SPEC" --json | grep -E '"(CUDACXX|CUDAToolkit_ROOT|CUDA_PATH)"' || true
run() {  # label, extra PATH entry (or empty)
    local b="$W/build-$1"
    if "$BIN" exec "$SPEC" -- bash -c '[ -n "$2" ] && export PATH="$2:$PATH"; echo "CUDACXX=${CUDACXX-<unset>} nvcc on PATH: $(command -v nvcc)";
            cmake -S "$1/proj" -B "$3" >"$3.log" 2>&1 && cmake --build "$3" >>"$3.log" 2>&1 && "$3/vadd"' _ "$W" "$2" "$b"; then
        echo "cmake-cuda $1: PASS ($(cat "$b/compiler.txt"))"
    else
        echo "cmake-cuda $1: FAIL"; tail -30 "$b.log"
    fi
}
run plain ""
run wrong-nvcc-first "$W/wrong"
rm -rf "$W"
