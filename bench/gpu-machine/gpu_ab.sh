#!/usr/bin/env bash
# Two builds of cudaenv on one GPU machine, alternating: which one's change
# moved the warm `check --all` or the convolution? Machines of one kind
# differ by more than a change does (docs/gpu-results.md, runs 8 and 9: the
# same H100 kind, 1.18-1.36 s against 1.49-1.72 s), so only builds timed in
# turn on the same machine compare. Each build has a store of its own (their
# kept choices may be written differently), adopts the machine's pairs, runs
# one cold check, then ROUNDS warm checks each, A then B. One line per warm
# check: wall time, then per pair and data type the amortised ms, the host's
# time to launch a run (where the build reports it) and the kept path.
# B_ENV="NAME=value ...": B's checks run with these variables too (A and B
# may then be one carry folder: is a driver setting worth it?).
# usage: bench/gpu-machine/gpu_ab.sh <carry folder A> <carry folder B>   (ROUNDS=5; results to $OUT)
set -u
A=$(cd "$1" && pwd)
B=$(cd "$2" && pwd)
ROUNDS=${ROUNDS:-5}
RES=${OUT:-$PWD/gpu-out}
mkdir -p "$RES"
PY=/opt/torch/.venv/bin/python3
[ -x "$PY" ] || PY=python3

store() { echo "/tmp/cudaenv-ab-$1"; }
check() {  # check <label> <carry> <round>: one `check --all --json`, timed
    local start rc extra=()
    [ "$1" = B ] && read -r -a extra <<<"${B_ENV:-}"
    start=$(date +%s%N)
    env "${extra[@]}" CUDAENV_ROOT="$(store "$1")" "$2/cudaenv" check --all --json >"$RES/ab-$1-$3.json" 2>>"$RES/ab-$1.err"
    rc=$?
    echo "$1 round $3: exit status $rc, wall $(( ($(date +%s%N) - start) / 1000000 )) ms"
}
for side in A B; do
    carry=$A; [ "$side" = B ] && carry=$B
    rm -rf "$(store "$side")"
    {
        CUDAENV_ROOT=$(store "$side") "$carry/cudaenv" discover --add
        CUDAENV_ROOT=$(store "$side") "$carry/cudaenv" add "$carry/cudart-11.8"  # as gpu_check.sh does
    } >"$RES/ab-$side-setup.txt" 2>&1
    check "$side" "$carry" cold
done
for r in $(seq 1 "$ROUNDS"); do
    check A "$A" "$r"
    check B "$B" "$r"
done >"$RES/ab-wall.txt"
"$PY" - "$RES" "$ROUNDS" >"$RES/ab-summary.txt" <<'PY'
import json, os, sys
res, rounds = sys.argv[1], int(sys.argv[2])
walls = {}
for line in open(os.path.join(res, "ab-wall.txt")):
    side, _, r, *_ = line.split()
    walls[(side, r.rstrip(":"))] = line.split("wall ")[-1].strip()
for r in range(1, rounds + 1):
    for side in ("A", "B"):
        try:
            c = json.load(open(os.path.join(res, f"ab-{side}-{r}.json")))
        except ValueError:
            print(f"round {r} {side}: no JSON (ab-{side}.err says why)")
            continue
        parts = []
        for p in c["pairs"]:
            for s in p["steps"]:
                if s["step"] not in ("conv", "conv_fp16") or s["status"] not in ("ok", "warn"):
                    continue
                d = s["details"]
                am = d.get("timing", {}).get("amortised", {})
                parts.append("%s %s %.4f host %s %s" % (
                    p["spec"], "fp16" if s["step"] == "conv_fp16" else "fp32", d.get("amortised_ms", 0),
                    "%.4f" % am["host_ms_per_run"] if "host_ms_per_run" in am else "-", d.get("choice", "-")))
        print(f"round {r} {side} {walls.get((side, str(r)), '?')}: " + "; ".join(parts))
PY
cat "$RES/ab-wall.txt" "$RES/ab-summary.txt"
