#!/usr/bin/env bash
# Benchmark: `cudaenv install` (verify sha256 + extract + validate in one
# pass) against `sha256sum` followed by `unzip` / `tar`, and against the
# extraction alone, on a cuDNN-8.9.7-shaped archive of about 700 MB of files
# with realistic compressibility (half random, half compressible data, like
# the real cuDNN 8.9.7 zip of 704 MB).
#   bench/install_bench.sh [cudaenv binary] [size in MB, default 700]
# Needs hyperfine, zip, unzip, xz, sha256sum, python3. Uses about 4x the
# size in disk space under ${BENCH_DIR:-/tmp}; everything is removed at the end.
set -euo pipefail
# The tar.xz is made with xz -1 (xz -6 takes many minutes on a small machine;
# xz decompression speed barely depends on the preset).
# BENCH_DATA=<folder> keeps the generated archives there and reuses them.
BIN=$(realpath "${1:-build/default/cudaenv}")
SIZE_MB=${2:-700}
W=$(mktemp -d "${BENCH_DIR:-/tmp}/cudaenv-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
TOP=cudnn-linux-x86_64-8.9.7.29_cuda11-archive
D=${BENCH_DATA:-$W}
mkdir -p "$D"
if [[ ! -f "$D/$TOP.zip" || ! -f "$D/$TOP.tar.xz" ]]; then

echo "building a ${SIZE_MB} MB tree in $D ..." >&2
python3 - "$D/$TOP" "$SIZE_MB" <<'PY'
import os, random, sys
top, size_mb = sys.argv[1], int(sys.argv[2])
rnd = random.Random(8907)
words = [bytes(rnd.choice(b"abcdefghijklmnopqrstuvwxyz_0123456789") for _ in range(rnd.randint(3, 12))) for _ in range(4000)]
def chunk(i):
    # Alternate incompressible blocks (code, packed data) and symbol-table-like text.
    if i % 2 == 0:
        return rnd.randbytes(1 << 20)
    out = bytearray()
    while len(out) < (1 << 20):
        out += rnd.choice(words) + b"\0"
    return bytes(out[: 1 << 20])
os.makedirs(f"{top}/include"); os.makedirs(f"{top}/lib")
open(f"{top}/include/cudnn_version.h", "w").write("#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n")
open(f"{top}/LICENSE", "w").write("license\n")
stems = ["cudnn"] + [f"cudnn_{p}_{k}" for p in ("ops", "cnn", "adv") for k in ("infer", "train")]
weights = [1, 4, 2, 16, 24, 6, 8]  # the real libraries differ a lot in size
n = 0
for s, w in zip(stems, weights):
    mb = max(1, size_mb * w // sum(weights))
    with open(f"{top}/lib/lib{s}.so.8.9.7", "wb") as f:
        for _ in range(mb):
            f.write(chunk(n)); n += 1
    os.symlink(f"lib{s}.so.8.9.7", f"{top}/lib/lib{s}.so.8")
    os.symlink(f"lib{s}.so.8", f"{top}/lib/lib{s}.so")
PY
(cd "$D" && zip -qr -y -6 "$TOP.zip" "$TOP" && tar -cf - "$TOP" | xz -T0 -1 > "$TOP.tar.xz")
rm -rf "${D:?}/$TOP"
fi
ZIP_SHA=$(sha256sum "$D/$TOP.zip" | cut -d' ' -f1)
TXZ_SHA=$(sha256sum "$D/$TOP.tar.xz" | cut -d' ' -f1)
du -sh "$D/$TOP.zip" "$D/$TOP.tar.xz" >&2

out="$W/out"
store="$W/store"
hyperfine --warmup 1 --runs "${RUNS:-3}" --export-markdown "$W/results.md" \
  --prepare "rm -rf '$out' '$store'; mkdir -p '$out'" \
  -n "zip: cudaenv install (sha256 + extract + validate)" \
  "CUDAENV_ROOT='$store' '$BIN' install --quiet --sha256 $ZIP_SHA '$D/$TOP.zip'" \
  -n "zip: sha256sum + unzip" "sha256sum '$D/$TOP.zip' >/dev/null && unzip -q '$D/$TOP.zip' -d '$out'" \
  -n "zip: unzip alone" "unzip -q '$D/$TOP.zip' -d '$out'" \
  -n "tar.xz: cudaenv install (sha256 + extract + validate)" \
  "CUDAENV_ROOT='$store' '$BIN' install --quiet --sha256 $TXZ_SHA '$D/$TOP.tar.xz'" \
  -n "tar.xz: sha256sum + tar" "sha256sum '$D/$TOP.tar.xz' >/dev/null && tar -xJf '$D/$TOP.tar.xz' -C '$out'" \
  -n "tar.xz: tar alone" "tar -xJf '$D/$TOP.tar.xz' -C '$out'"
cat "$W/results.md"
