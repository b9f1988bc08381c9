#!/usr/bin/env bash
# Unpacks Debian 12's real NVIDIA packages (non-free: the cuBLAS, cuBLASLt,
# cuFFT and cuFFTW libraries of CUDA 11.8, its runtime, and the toolkit, whose
# cuobjdump runs without a GPU) into <cache>/nvidia-debs, once, and prints that
# folder. cuFFTW's one fatbin entry is a stub without kernels.
# apt cannot install the toolkit here (it wants libcuda1), so the .debs are
# fetched with `apt-get download` (.ci/deps.sh does that first) and unpacked
# with `dpkg -x`. Exits 77 (a skip for CTest) when they cannot be had.
#
# usage: nvidia_debs.sh [<cache>]   (default ${XDG_CACHE_HOME:-~/.cache}/cudaenv-ci)
set -euo pipefail
cache="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/cudaenv-ci}"
out="$cache/nvidia-debs"
mkdir -p "$cache"
exec 9>"$cache/nvidia-debs.lock"
flock 9  # suites that run at once unpack once
for p in nvidia-cuda-toolkit libcublas11 libcublaslt11 libcufft10 libcufftw10 libcudart11.0; do
  if ! ls "$cache/${p}_"*.deb >/dev/null 2>&1; then
    (cd "$cache" && apt-get download "$p" >/dev/null 2>&1) ||
      { echo "nvidia_debs: cannot download $p (run .ci/deps.sh, which enables non-free)" >&2; exit 77; }
  fi
  deb="$(ls "$cache/${p}_"*.deb | tail -n 1)"
  done_mark="$out/.unpacked-$(basename "$deb")"
  if [ ! -e "$done_mark" ]; then
    mkdir -p "$out"
    dpkg -x "$deb" "$out"
    touch "$done_mark"
  fi
done
echo "$out"
