#!/usr/bin/env bash
# Compiler launcher that records each compilation's CPU seconds (user+sys) and
# wall seconds, for docs/build.md. CPU seconds are the figure that holds on a
# shared, loaded machine; wall seconds depend on the load.
#   cmake --preset default -B build/timing -DCMAKE_CXX_COMPILER_LAUNCHER=$PWD/bench/tu_time.sh
#   CUDAENV_TU_LOG=/tmp/tu.log cmake --build build/timing --target cudaenv
#   sort -k1 -n -r /tmp/tu.log | head        # user+sys  wall  object
set -u
log=${CUDAENV_TU_LOG:-${TMPDIR:-/tmp}/cudaenv-tu-time.log}
out=?
prev=
for a in "$@"; do
  [[ $prev == -o ]] && out=$a
  prev=$a
done
exec /usr/bin/time -a -o "$log" -f "%U %S %e $out" "$@"
