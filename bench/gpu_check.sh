#!/usr/bin/env bash
# Runs on the H200 machine in one go: adopts its real CUDA/cuDNN pairs, runs
# `cudaenv check --all --json` on them, then the same convolution through
# PyTorch (cudnn.benchmark = True, same shape, dtype and math mode) so the
# two timings can be compared. Results go to $OUT (or ./gpu-out).
# usage: bench/gpu_check.sh [carry folder made by bench/gpu_carry.sh]
set -u
CARRY=$(cd "${1:-.devcarry}" && pwd)
RES=${OUT:-$PWD/gpu-out}
mkdir -p "$RES"
BIN=$CARRY/cudaenv
export CUDAENV_ROOT=/tmp/cudaenv-gpu-store
rm -rf "$CUDAENV_ROOT"
PY=/opt/torch/.venv/bin/python3
[ -x "$PY" ] || PY=python3
{
    echo "== machine"; nvidia-smi 2>&1 | head -12; uname -a
    echo "== discover --add"; "$BIN" discover --add
    echo "== add the Debian CUDA 11.8 runtime"; "$BIN" add "$CARRY/cudart-11.8"
    echo "== list"; "$BIN" list
} >"$RES/setup.txt" 2>&1

# src/check/api.hpp's hand-written constants against every real cuDNN header here.
HERE=$(cd "$(dirname "$0")" && pwd)
CUDA_INC=$(ls -d /usr/local/cuda/include /usr/local/cuda-*/include 2>/dev/null | head -1)
for inc in /usr/include /usr/include/x86_64-linux-gnu /opt/torch/.venv/lib/python3*/site-packages/nvidia/cudnn/include; do
    [ -f "$inc/cudnn.h" ] || continue
    ver=$(grep -hE '^#define CUDNN_(MAJOR|MINOR|PATCHLEVEL) ' "$inc/cudnn_version.h" | awk '{printf "%s.", $3}')
    if g++ -std=c++20 -fsyntax-only -I "$HERE/../src" -I "$CUDA_INC" -I "$inc" "$HERE/gpu_abi_check.cpp" 2>"$RES/abi.err"; then
        echo "api.hpp ABI check against cuDNN ${ver%.} ($inc) and $CUDA_INC: ok"
    else
        echo "api.hpp ABI check against cuDNN ${ver%.} ($inc): FAILED"; cat "$RES/abi.err"
    fi
done >"$RES/abi.txt" 2>&1

# The check of every pair, timed as a whole.
start=$(date +%s%N)
"$BIN" check --all --json >"$RES/check.json" 2>"$RES/check.err"
echo "check exit status: $? wall: $(( ($(date +%s%N) - start) / 1000000 )) ms" >>"$RES/setup.txt"
"$BIN" check --all >"$RES/check.txt" 2>&1
"$BIN" list >>"$RES/check.txt" 2>&1
"$BIN" doctor --json >"$RES/doctor.json" 2>&1

# The same convolutions through PyTorch.
"$PY" - >"$RES/torch.json" 2>"$RES/torch.err" <<'PY'
import json, torch, torch.nn.functional as F
torch.backends.cudnn.benchmark = True
torch.backends.cudnn.allow_tf32 = True   # cudaenv's fp32 run uses CUDNN_DEFAULT_MATH, which allows TF32
out = {"torch": torch.__version__, "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
       "device": torch.cuda.get_device_name(0)}
def bench(dtype, runs=25):
    g = torch.Generator(device="cuda").manual_seed(0)
    x = (torch.rand(32, 64, 56, 56, device="cuda", generator=g) * 2 - 1).to(dtype)
    w = (torch.rand(64, 64, 3, 3, device="cuda", generator=g) * 2 - 1).to(dtype)
    for _ in range(5):
        y = F.conv2d(x, w, padding=1)
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); F.conv2d(x, w, padding=1); e.record(); e.synchronize()
        times.append(s.elapsed_time(e))
    times.sort()
    med = (times[runs // 2] if runs % 2 else (times[runs // 2 - 1] + times[runs // 2]) / 2)
    flops = 2.0 * 32 * 64 * 56 * 56 * 64 * 9
    ref = F.conv2d(x.double(), w.double(), padding=1)
    rel = ((y.double() - ref).norm() / ref.norm()).item()
    return {"median_ms": med, "min_ms": times[0], "tflops": flops / (med * 1e-3) / 1e12, "rel_error": rel}
out["fp32"] = bench(torch.float32)
out["fp16"] = bench(torch.float16)
print(json.dumps(out, indent=2))
PY

# One table: cudaenv against PyTorch per pair.
"$PY" - "$RES" >"$RES/summary.md" <<'PY'
import json, sys, os
res = sys.argv[1]
c = json.load(open(os.path.join(res, "check.json")))
try:
    t = json.load(open(os.path.join(res, "torch.json")))
except Exception:
    t = None
print("| pair | result | check time | fp32 ms (TFLOP/s) | fp32 via | fp32 legacy / graph ms | rel. error | fp16 ms (TFLOP/s) | fp16 via | fp16 legacy / graph ms | vs PyTorch fp32 | vs PyTorch fp16 |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for p in c["pairs"]:
    st = {s["step"]: s for s in p["steps"]}
    def cell(name):
        s = st.get(name)
        if not s or s["status"] != "ok":
            return (s["status"] + ": " + s["summary"]) if s else "-", None
        d = s["details"]
        return "%.3f (%.1f)" % (d["median_ms"], d["tflops"]), d["median_ms"]
    def via(name):
        d = st.get(name, {}).get("details", {})
        return "%s %s" % (d.get("api", "-"), d.get("algo", ""))
    def both(name):
        d = st.get(name, {}).get("details", {})
        l = d.get("legacy", {}).get("median_ms"); g = d.get("graph", {}).get("median_ms")
        return "%s / %s" % ("%.3f" % l if l else "-", "%.3f" % g if g else d.get("graph", {}).get("error", "-"))
    f32, m32 = cell("conv"); f16, m16 = cell("conv_fp16")
    rel = st.get("conv", {}).get("details", {}).get("rel_error", "-")
    rel = "%.2e" % rel if isinstance(rel, float) else rel
    r32 = "%+.1f%%" % ((m32 / t["fp32"]["median_ms"] - 1) * 100) if (t and m32) else "-"
    r16 = "%+.1f%%" % ((m16 / t["fp16"]["median_ms"] - 1) * 100) if (t and m16) else "-"
    print(f"| {p['spec']} | {p['status']} | {p['seconds']:.2f} s | {f32} | {via('conv')} | {both('conv')} | {rel} | {f16} | {via('conv_fp16')} | {both('conv_fp16')} | {r32} | {r16} |")
if t:
    print()
    print(f"PyTorch {t['torch']} (CUDA {t['cuda']}, cuDNN {t['cudnn']}) on {t['device']}: "
          f"fp32 {t['fp32']['median_ms']:.3f} ms ({t['fp32']['tflops']:.1f} TFLOP/s, rel. error {t['fp32']['rel_error']:.2e}), "
          f"fp16 {t['fp16']['median_ms']:.3f} ms ({t['fp16']['tflops']:.1f} TFLOP/s)")
PY
cat "$RES/abi.txt" "$RES/setup.txt" "$RES/check.txt" "$RES/summary.md"

# ---- trace (issue 11): in its own script, run here with the same carry folder.
OUT=$RES bash "$HERE/gpu_trace.sh" "$CARRY"
