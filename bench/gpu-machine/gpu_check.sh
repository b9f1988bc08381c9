#!/usr/bin/env bash
# Runs on the H200 machine in one go: adopts its real CUDA/cuDNN pairs, runs
# `cudaenv check --all --json` on them (timed as a whole), then the same
# convolution through PyTorch (cudnn.benchmark = True, same shape, dtype and
# math mode), both measured per call, amortised and as a CUDA graph, and
# prints one table. Results go to $OUT (or ./gpu-out). RUNS=3: the warm check
# and PyTorch's run three times, one table each (issue 37: three runs out of
# three); EXTRAS=0 leaves out the CMake and trace parts.
# usage: bench/gpu-machine/gpu_check.sh [carry folder made by bench/gpu-machine/gpu_carry.sh]
set -u
. "$(dirname "$0")/gpu_env.sh"
export CUDAENV_ROOT=/tmp/cudaenv-gpu-store
rm -rf "$CUDAENV_ROOT"
{
    echo "== machine"; nvidia-smi 2>&1 | head -12; uname -a
    echo "== discover --add"; "$BIN" discover --add
    echo "== add the Debian CUDA 11.8 runtime"; "$BIN" add "$CARRY/cudart-11.8"
    echo "== list"; "$BIN" list
} >"$RES/setup.txt" 2>&1

# src/check/api.hpp's hand-written constants against every real cuDNN header here.
CUDA_INC=$(ls -d /usr/local/cuda/include /usr/local/cuda-*/include 2>/dev/null | head -1)
for inc in /usr/include /usr/include/x86_64-linux-gnu /opt/torch/.venv/lib/python3*/site-packages/nvidia/cudnn/include; do
    [ -f "$inc/cudnn.h" ] || continue
    ver=$(grep -hE '^#define CUDNN_(MAJOR|MINOR|PATCHLEVEL) ' "$inc/cudnn_version.h" | awk '{printf "%s.", $3}')
    if g++ -std=c++20 -fsyntax-only -I "$SRC" -I "$CUDA_INC" -I "$inc" "$HERE/gpu_abi_check.cpp" 2>"$RES/abi.err"; then
        echo "api.hpp ABI check against cuDNN ${ver%.} ($inc) and $CUDA_INC: ok"
    else
        echo "api.hpp ABI check against cuDNN ${ver%.} ($inc): FAILED"; cat "$RES/abi.err"
    fi
done >"$RES/abi.txt" 2>&1

# The check of every pair, timed as a whole: run 1 cold (a fresh store: the
# libraries read from disk, the convolution paths chosen), then RUNS warm runs
# (the paths kept per pair and GPU, store/conv_choice).
RUNS=${RUNS:-1}
: >"$RES/timing.txt"
for i in $(seq 0 "$RUNS"); do
    start=$(date +%s%N)
    "$BIN" check --all --json >"$RES/check-$i.json" 2>"$RES/check.err"
    rc=$?
    echo "check --all $([ "$i" = 0 ] && echo cold || echo "warm $i"): exit status $rc, wall $(( ($(date +%s%N) - start) / 1000000 )) ms" >>"$RES/timing.txt"
done
cp "$RES/check-$RUNS.json" "$RES/check.json"
# The driver judged (issue 37): `list` for drivers older than this machine's.
for drv in 535.104.05 470.256.02; do
    echo "== list --driver $drv"; "$BIN" list --driver "$drv"
done >"$RES/list-driver.txt" 2>&1
# CHECK_ONLY=1: stop here (the check's timing alone, for a short GPU session).
if [ "${CHECK_ONLY:-0}" = 1 ]; then "$BIN" check --all >"$RES/check.txt" 2>&1; exit 0; fi
"$BIN" check --all >"$RES/check.txt" 2>&1
"$BIN" list >>"$RES/check.txt" 2>&1
"$BIN" doctor --json >"$RES/doctor.json" 2>&1

# The same convolutions through PyTorch, measured the three ways: per call
# (each call between two events: Python's and the dispatcher's launch cost
# included), amortised (200 calls back to back between two events, the median
# of 5 such batches run one after the other behind one untimed call, as
# cudaenv's check runs its own), and replayed as a CUDA graph (20 calls
# captured once, the graph launched 10 times between two events, 5 times
# behind one untimed launch). Like with like means on the same cuDNN: PyTorch
# runs once per cuDNN the pairs load (step `load`), its own wheel's as it is,
# any other put in its place with LD_PRELOAD (every libcudnn*.so.9 of that
# folder, so that the sub-libraries cuDNN opens by name are that release's
# too; PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK lets a release older than the
# one PyTorch was built with load). Each run says which cuDNN it reported and
# from which file its engines came (/proc/self/maps), and a pair is compared
# only with the run on its own cuDNN.
mapfile -t CUDNN_DIRS < <("$PY" - "$RES/check-$RUNS.json" <<'PY'
import json, os, sys
seen = []
for p in json.load(open(sys.argv[1]))["pairs"]:
    for s in p["steps"]:
        if s["step"] == "load":
            for lib in s["details"].get("libraries", []):
                if lib.get("name") == "libcudnn.so.9" and lib.get("path"):
                    d = os.path.dirname(lib["path"])
                    if d not in seen: seen.append(d)
print("\n".join(seen))
PY
)
for r in $(seq 1 "$RUNS"); do
for k in "${!CUDNN_DIRS[@]}"; do
dir=${CUDNN_DIRS[$k]}
preload=""
case $dir in
    */site-packages/nvidia/cudnn/lib) ;;  # PyTorch's own
    *) preload=$(printf '%s:' "$dir"/libcudnn*.so.9) ;;
esac
CUDNN_DIR=$dir LD_PRELOAD=$preload PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK=1 \
"$PY" - >"$RES/torch-$r-$k.json" 2>"$RES/torch-$k.err" <<'PY'
import json, os, torch, torch.nn.functional as F
torch.backends.cudnn.benchmark = True
torch.backends.cudnn.allow_tf32 = True   # cudaenv's fp32 run uses CUDNN_DEFAULT_MATH, which allows TF32
out = {"torch": torch.__version__, "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
       "device": torch.cuda.get_device_name(0), "cudnn_dir": os.environ["CUDNN_DIR"],
       "preloaded": bool(os.environ.get("LD_PRELOAD"))}
def median(v):
    v = sorted(v); n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
def timed(fn):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); fn(); e.record(); e.synchronize()
    return s.elapsed_time(e)
def back_to_back(n, lead, fn):
    # As cudaenv's check times its batches (src/check/conv_support.hpp): `lead`
    # untimed first, so the first event waits behind queued work, then n runs
    # of fn back to back, one event between each and the next.
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(n + 1)]
    lead(); ev[0].record()
    for i in range(n):
        fn(); ev[i + 1].record()
    ev[-1].synchronize()
    return [ev[i].elapsed_time(ev[i + 1]) for i in range(n)]
def bench(dtype, runs=25, batch=200, batches=5, captured=20, replays=10):
    g = torch.Generator(device="cuda").manual_seed(0)
    x = (torch.rand(32, 64, 56, 56, device="cuda", generator=g) * 2 - 1).to(dtype)
    w = (torch.rand(64, 64, 3, 3, device="cuda", generator=g) * 2 - 1).to(dtype)
    conv = lambda: F.conv2d(x, w, padding=1)
    for _ in range(5):
        y = conv()
    torch.cuda.synchronize()
    per_call = sorted(timed(conv) for _ in range(runs))
    def many():
        for _ in range(batch): conv()
    amortised = sorted(t / batch for t in back_to_back(batches, conv, many))
    # CUDA graph: captured on a side stream after a warm-up there, as PyTorch's docs do it.
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3): conv()
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(captured): conv()
    graph.replay(); torch.cuda.synchronize()
    def replay():
        for _ in range(replays): graph.replay()
    graphed = sorted(t / (replays * captured) for t in back_to_back(batches, graph.replay, replay))
    flops = 2.0 * 32 * 64 * 56 * 56 * 64 * 9
    ref = F.conv2d(x.double(), w.double(), padding=1)
    rel = ((y.double() - ref).norm() / ref.norm()).item()
    return {"per_call_ms": median(per_call), "per_call_min_ms": per_call[0],
            "amortised_ms": median(amortised), "graph_ms": median(graphed),
            "tflops": flops / (median(amortised) * 1e-3) / 1e12, "rel_error": rel,
            "runs": runs, "batch": batch, "batches": batches, "graph_calls": captured * replays}
out["fp32"] = bench(torch.float32)
out["fp16"] = bench(torch.float16)
out["engines_file"] = sorted({l.split()[-1] for l in open("/proc/self/maps") if "libcudnn_engines_precompiled" in l})
print(json.dumps(out, indent=2))
PY
done
done
cp "$RES/torch-$RUNS-0.json" "$RES/torch.json"

# One table per run: per pair and data type, cudaenv's three figures beside
# PyTorch's (warm check r beside PyTorch's run r).
for r in $(seq 1 "$RUNS"); do
"$PY" - "$RES" "$r" >"$RES/summary-$r.md" <<'PY'
import glob, json, sys, os
res, run = sys.argv[1], sys.argv[2]
c = json.load(open(os.path.join(res, f"check-{run}.json")))
# PyTorch's runs of this round, by the cuDNN folder each ran on.
torch_runs = {}
for f in sorted(glob.glob(os.path.join(res, f"torch-{run}-*.json"))):
    try:
        t = json.load(open(f))
        torch_runs[t["cudnn_dir"]] = t
    except (ValueError, KeyError):
        pass
def cudnn_dir(p):
    for s in p["steps"]:
        if s["step"] == "load":
            for lib in s["details"].get("libraries", []):
                if lib.get("name") == "libcudnn.so.9" and lib.get("path"):
                    return os.path.dirname(lib["path"])
    return None
print(f"run {run}:")
def ms(v):
    return "%.4f" % v if isinstance(v, (int, float)) and v > 0 else "-"
print("| pair | dtype | cudaenv per call ms | cudaenv amortised ms | cudaenv host ms to launch a run | cudaenv CUDA graph ms | via | PyTorch per call ms | PyTorch amortised ms | PyTorch CUDA graph ms | amortised vs PyTorch |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for p in c["pairs"]:
    st = {s["step"]: s for s in p["steps"]}
    for name, dt in (("conv", "fp32"), ("conv_fp16", "fp16")):
        s = st.get(name)
        if not s or s["status"] not in ("ok", "warn"):
            why = (s["status"] + ": " + s["summary"]) if s else "-"
            print(f"| {p['spec']} | {dt} | {why} | | | | | | | | |")
            continue
        d = s["details"]
        tim = d.get("timing", {})
        pc = tim.get("per_call", {}).get("median_ms", d.get("per_call_ms"))
        am = tim.get("amortised", {}).get("median_ms", d.get("amortised_ms"))
        gr = tim.get("cuda_graph", {}).get("median_ms")
        via = "%s %s" % (d.get("api", "-"), d.get("algo", ""))
        if d.get("api") == "graph" and d.get("graph", {}).get("config"):
            via += " [%s]" % d["graph"]["config"]  # engine and knob choices, as kept
        host = tim.get("amortised", {}).get("host_ms_per_run")
        t = torch_runs.get(cudnn_dir(p))
        ran = t and "%d.%d.%d" % (t["cudnn"] // 10000, t["cudnn"] % 10000 // 100, t["cudnn"] % 100)
        if t and ran != st["versions"]["details"].get("cudnnGetVersion", {}).get("decoded"):
            t = None  # the preload did not take: not the same cuDNN
        tt = t[dt] if t else {}
        vs = "%+.1f%%" % ((am / tt["amortised_ms"] - 1) * 100) if (t and am) else "- (no PyTorch run on this cuDNN)"
        print(f"| {p['spec']} ({p['cudnn'] or 'no cuDNN'}) | {dt} | {ms(pc)} | {ms(am)} | {ms(host)} | {ms(gr)} | {via} | "
              f"{ms(tt.get('per_call_ms'))} | {ms(tt.get('amortised_ms'))} | {ms(tt.get('graph_ms'))} | {vs} |")
for d, t in torch_runs.items():
    print()
    print(f"PyTorch {t['torch']} (CUDA {t['cuda']}) on cuDNN {t['cudnn']} from {d}"
          f"{' (put in place of its own with LD_PRELOAD)' if t['preloaded'] else ' (its own)'}, engines from "
          f"{', '.join(t.get('engines_file', [])) or '?'}, on {t['device']}, cudnn.benchmark, allow_tf32. "
          f"Per call: median of {t['fp32']['runs']} event-timed calls; amortised: median of {t['fp32']['batches']} batches "
          f"of {t['fp32']['batch']} back-to-back calls; CUDA graph: {t['fp32']['graph_calls']} captured calls replayed. "
          f"fp32 rel. error {t['fp32']['rel_error']:.2e}. Each pair is compared with the PyTorch run on its own cuDNN.")
print()
print("Per pair, the check as a whole (`seconds`):", ", ".join(f"{p['spec']} {p['seconds']:.2f} s" for p in c["pairs"]))
PY
done
cat "$RES"/summary-*.md >"$RES/summary.md"
cat "$RES/abi.txt" "$RES/setup.txt" "$RES/check.txt" "$RES/summary.md" "$RES/timing.txt" "$RES/list-driver.txt"
[ "${EXTRAS:-1}" = 1 ] || exit 0

# --- clients: CMake with enable_language(CUDA) under `cudaenv exec` of the CUDA 13.0 pair
# (bench/gpu-machine/gpu_cmake_cuda.sh), as it is and with an unrelated nvcc first on PATH.
bash "$HERE/gpu_cmake_cuda.sh" "$BIN" 13.0 >"$RES/cmake_cuda.txt" 2>&1
cat "$RES/cmake_cuda.txt"

# ---- trace (issue 11): in its own script, run here with the same carry folder.
OUT=$RES bash "$HERE/gpu_trace.sh" "$CARRY"
