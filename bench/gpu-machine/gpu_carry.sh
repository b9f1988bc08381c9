#!/usr/bin/env bash
# Prepares what bench/gpu-machine/gpu_check.sh needs on the GPU machine (Ubuntu 24.04, no
# network): the cudaenv programs with every non-glibc library they link (found
# with ldd) beside them and an RPATH of $ORIGIN/lib, the Debian CUDA 11.8
# runtime (libcudart11.0), and the script itself.
# usage: bench/gpu-machine/gpu_carry.sh <cudaenv binary> <destination folder> [libcudart.so.11.8.89]
set -euo pipefail
BIN=$1
DEST=$2
CUDART11=${3:-/usr/lib/x86_64-linux-gnu/libcudart.so.11.8.89}
rm -rf "$DEST"
mkdir -p "$DEST/lib" "$DEST/cudart-11.8"
# Without their debug information the programs fit the device machine's carry
# limit. cudaenv and the tool shim are static-pie; check's child, cudaenv-probe,
# is dynamic (it loads CUDA's libraries), so its libraries beyond glibc travel.
strip --strip-debug -o "$DEST/cudaenv" "$BIN"
strip --strip-debug -o "$DEST/cudaenv-probe" "$(dirname "$BIN")/cudaenv-probe"
# The tool shim, so that discover/add can write the shims folder there too.
if [ -x "$(dirname "$BIN")/cudaenv-shim" ]; then strip --strip-debug -o "$DEST/cudaenv-shim" "$(dirname "$BIN")/cudaenv-shim"; fi
# glibc, the loader and the C++ runtime stay the GPU machine's own (newer, compatible).
for prog in "$DEST/cudaenv" "$DEST/cudaenv-probe"; do
    { ldd "$prog" 2>/dev/null || true; } | awk '/=> \//{print $3}' | while read -r lib; do
        case $(basename "$lib") in
            libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libstdc++.so*|libgcc_s.so*) ;;
            *) cp -L "$lib" "$DEST/lib/" ;;
        esac
    done
done
# `cudaenv trace`'s audit library, where the binary looks for it (beside it).
if [ -f "$(dirname "$BIN")/libcudaenv-audit.so" ]; then cp "$(dirname "$BIN")/libcudaenv-audit.so" "$DEST/"; fi
# Only when a program links more than glibc (a build without --as-needed, say).
if [ -n "$(ls -A "$DEST/lib")" ]; then
    for prog in "$DEST/cudaenv" "$DEST/cudaenv-probe"; do
        ldd "$prog" > /dev/null 2>&1 && patchelf --force-rpath --set-rpath '$ORIGIN/lib' "$prog"
    done
fi
cp "$CUDART11" "$DEST/cudart-11.8/libcudart.so.11.8.89"
ln -s libcudart.so.11.8.89 "$DEST/cudart-11.8/libcudart.so.11.0"
cp "$(dirname "$0")/gpu_env.sh" "$(dirname "$0")/gpu_check.sh" "$(dirname "$0")/gpu_cmake_cuda.sh" "$(dirname "$0")/gpu_inspect.sh" "$(dirname "$0")/gpu_abi_check.cpp" "$(dirname "$0")/gpu_trace_cudnn.c" "$(dirname "$0")/gpu_trace.sh" "$(dirname "$0")/gpu_ab.sh" "$DEST/"
du -sh "$DEST"
