#!/usr/bin/env bash
# What a pair's CDI device adds to a container's start (a benchmark, not a
# test): hyperfine on `podman run --rm busybox true`, plain and with
# `--device cudaenv.dev/pair=<pair>` (a pair of a toolkit and a cuDNN: two
# read-only bind mounts and seven variables). Goal: at most 50 ms more.
# Podman is set up as tests/containers/engine.py sets it up (runc, cgroupfs,
# no default ulimits, its own storage; /run and /var/lib private, so the spec
# goes into /var/run/cdi without touching the machine's): run as root.
# A busy machine moves a start by more than the difference: the two are timed
# in ROUNDS rounds that alternate which goes first, and the median of the
# rounds' differences is the figure.
#   bench/container_start.sh            # uses build/default/cudaenv
#   CUDAENV=/path/cudaenv RUNS=20 ROUNDS=5 bench/container_start.sh
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUDAENV=${CUDAENV:-$repo/build/default/cudaenv}
RUNS=${RUNS:-20}
ROUNDS=${ROUNDS:-5}
RESULTS=${RESULTS:-$repo/build/bench-results}
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/cudaenv-ci/containers
for tool in hyperfine podman runc unshare python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (bash .ci/deps.sh)" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "bench: run as root (Podman with a private /run)" >&2; exit 1; }
if [ -z "${CUDAENV_BENCH_NS:-}" ]; then
  export CUDAENV_BENCH_NS=1
  exec unshare --mount --propagation private bash "$0" "$@"
fi
mkdir -p "$RESULTS"
work=$(mktemp -d "${TMPDIR:-/tmp}/cudaenv-container-bench.XXXXXX")
mount -t tmpfs tmpfs /run
mkdir -p /run/cdi "$work/lib-upper" "$work/lib-work"
# Podman as root keeps a blob cache in /var/lib/containers whatever --root says.
mount -t overlay overlay -o "lowerdir=/var/lib,upperdir=$work/lib-upper,workdir=$work/lib-work" /var/lib

# cudaenv's store and Podman's own folder below ~/.config: the bench's.
export CUDAENV_ROOT=$work/store HOME=$work/home
export CONTAINERS_CONF=$work/containers.conf
cat >"$CONTAINERS_CONF" <<CONF
[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$work/events.log"
tmp_dir = "$work/libpod-tmp"
CONF
podman=(podman --root "$work/storage" --runroot "$work/runroot" --storage-driver overlay)
trap '"${podman[@]}" rmi --all --force >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
bash "$repo/tests/containers/rootfs.sh" busybox "$CACHE/busybox-bench.tar"
"${podman[@]}" import "$CACHE/busybox-bench.tar" localhost/cudaenv-bench >/dev/null

# A pair in a store of its own: a toolkit and a cuDNN with the files detection reads.
cudnn=$work/cudnn-linux-x86_64-9.8.0.87_cuda12-archive
mkdir -p "$HOME" "$work/cuda/bin" "$work/cuda/lib64" "$cudnn/include" "$cudnn/lib"
printf '{"cuda": {"name": "CUDA SDK", "version": "12.6.3"}}\n' >"$work/cuda/version.json"
cp /bin/true "$work/cuda/bin/nvcc"
: >"$work/cuda/lib64/libcudart.so.12.6.77"
ln -s libcudart.so.12.6.77 "$work/cuda/lib64/libcudart.so.12"
printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 8\n#define CUDNN_PATCHLEVEL 0\n' >"$cudnn/include/cudnn_version.h"
: >"$cudnn/lib/libcudnn.so.9.8.0"
ln -s libcudnn.so.9.8.0 "$cudnn/lib/libcudnn.so.9"
"$CUDAENV" add "$work/cuda" >/dev/null
"$CUDAENV" add "$cudnn" >/dev/null
"$CUDAENV" export cdi 12.6+9.8 -o /run/cdi
device=cudaenv.dev/pair=12.6.3_9.8.0

run=("${podman[@]}" run --rm --network none)
plain=(-n "podman run" "${run[*]} localhost/cudaenv-bench /bin/true")
with=(-n "podman run --device $device" "${run[*]} --device $device localhost/cudaenv-bench /bin/true")
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then order=("${plain[@]}" "${with[@]}"); else order=("${with[@]}" "${plain[@]}"); fi
  hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$RESULTS/container_start.$round.json" "${order[@]}" >/dev/null
done
python3 - "$RESULTS" "$ROUNDS" <<'PY'
import json, statistics, sys
diffs, plains = [], []
for n in range(1, int(sys.argv[2]) + 1):
    r = {x["command"]: x["median"] * 1000 for x in json.load(open(f"{sys.argv[1]}/container_start.{n}.json"))["results"]}
    plain = r["podman run"]
    dev = next(v for k, v in r.items() if k != "podman run")
    print(f"round {n}: {plain:.1f} ms plain, {dev:.1f} ms with the pair's device: {dev - plain:+.1f} ms")
    diffs.append(dev - plain)
    plains.append(plain)
print(f"container start: {statistics.median(plains):.1f} ms plain; the pair's device adds "
      f"{statistics.median(diffs):+.1f} ms (median of {len(diffs)} rounds; goal: <= 50 ms)")
PY
