#!/usr/bin/env bash
# A single-node Slurm cluster on 127.0.0.1, started and stopped here (as root,
# no systemd): munged with a generated key on its own socket, slurmctld and
# slurmd with -f on a minimal slurm.conf in a temp folder. Then, as in
# docs/cluster.md: `srun cudaenv exec`, an #SBATCH script running
# `cudaenv check --json`, and a job array over two pairs merged by
# `cudaenv check --report`.
# usage: slurm_cases.sh <cudaenv binary> <fakes dir>
set -u
BIN=$1
FAKES=$2
if [ "$(id -u)" != 0 ]; then
    echo "SKIP: the Slurm test starts munged, slurmctld and slurmd itself and needs root"
    exit 77
fi
for tool in munged slurmctld slurmd srun sbatch sinfo jq; do
    command -v $tool >/dev/null || { echo "FAIL: $tool is missing (bash .ci/deps.sh installs slurm-wlm munge jq)"; exit 1; }
done

T=$(mktemp -d /tmp/cudaenv-slurm-XXXXXX)
chmod 755 "$T"
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
    MUNGED=$(cat "$T/munged.pid" 2>/dev/null)
    [ -n "$MUNGED" ] && kill "$MUNGED" 2>/dev/null
    for _ in $(seq 50); do
        alive=0
        for p in "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ -n "$MUNGED" ] && kill -0 "$MUNGED" 2>/dev/null && alive=1
        [ $alive = 0 ] && break
        sleep 0.1
    done
    for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
    [ -n "$MUNGED" ] && kill -9 "$MUNGED" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*" >&2
    for f in slurmctld.log slurmd.log munged.log; do [ -f "$T/$f" ] && { echo "--- $f"; tail -20 "$T/$f"; } >&2; done
    exit 1
}

# --- the store: two synthetic pairs in the system store, made by the admin -----------------
unset CUDAENV_VERSION CUDAENV_SHELL LD_LIBRARY_PATH LD_PRELOAD ${!FAKECUDA_*} ${!FAKECUDNN*} 2>/dev/null
export CUDAENV_SYSTEM_ROOT=$T/system CUDAENV_ROOT=$T/user HOME=$T/home
mkdir -p "$HOME"
mk_toolkit() { mkdir -p "$1/lib64"; cp -P "$FAKES/cuda$2"/libcudart.so.* "$1/lib64/"
    printf '{"cuda": {"name": "CUDA SDK", "version": "%s"}}\n' "$3" >"$1/version.json"; }
mk_cudnn() { mkdir -p "$1/lib" "$1/include"; cp "$FAKES/cudnn$2"/libcudnn* "$1/lib/"
    IFS=. read -r ma mi pa <<<"$3"
    printf '#define CUDNN_MAJOR %s\n#define CUDNN_MINOR %s\n#define CUDNN_PATCHLEVEL %s\n' "$ma" "$mi" "$pa" >"$1/include/cudnn_version.h"; }
mk_toolkit "$T/ext/cuda-12.6" 12 12.6.3
mk_cudnn "$T/ext/cudnn-9.8.0_cuda12" 9 9.8.0
mk_toolkit "$T/ext/cuda-11.8" 11 11.8.0
mk_cudnn "$T/ext/cudnn-8.9.7_cuda11" 8 8.9.7
for d in cuda-12.6 cudnn-9.8.0_cuda12 cuda-11.8 cudnn-8.9.7_cuda11; do
    "$BIN" add --system "$T/ext/$d" >/dev/null 2>&1 || fail "add --system $d"
done
"$BIN" pair 11.8 8.9.7 >/dev/null 2>&1 || true
SMALL="--shape 2x8x12x12x8 --runs 5"

# --- munge and Slurm on 127.0.0.1 --------------------------------------------------------------
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 status=none
chmod 600 "$T/munge.key"
munged -f --key-file="$T/munge.key" --socket="$T/munge.sock" --pid-file="$T/munged.pid" \
    --log-file="$T/munged.log" --seed-file="$T/munged.seed" || fail "munged did not start"
for _ in $(seq 100); do [ -S "$T/munge.sock" ] && break; sleep 0.1; done
[ -S "$T/munge.sock" ] || fail "munged made no socket"

read -r P1 P2 < <(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1",0)) for x in s]
print(*[x.getsockname()[1] for x in s])')
NODE=$(hostname -s)
mkdir -p "$T/state" "$T/spool"
cat >"$T/slurm.conf" <<CONF
ClusterName=cudaenvtest
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$P1
SlurmdPort=$P2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$T/slurm.conf
slurmctld -D -f "$T/slurm.conf" >"$T/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$T/slurm.conf" -N "$NODE" >"$T/slurmd.out" 2>&1 &
PIDS+=($!)
state=
for _ in $(seq 150); do
    state=$(timeout 5 sinfo -h -o %t 2>/dev/null)
    [ "$state" = idle ] && break
    sleep 0.2
done
[ "$state" = idle ] || fail "the node did not come up (state '$state')"
echo "slurm: node $NODE idle"

# --- srun cudaenv exec ---------------------------------------------------------------------------
out=$(timeout 60 srun -N1 -n1 "$BIN" exec 12.6 -- printenv CUDA_PATH) || fail "srun cudaenv exec failed"
[ "$out" = "$T/ext/cuda-12.6" ] || fail "srun cudaenv exec printed '$out', wanted $T/ext/cuda-12.6"
echo "ok: srun cudaenv exec 12.6 -- printenv CUDA_PATH"

# --- an #SBATCH script: module load (when `cudaenv export` exists), cudaenv check --json ------
cat >"$T/check.sbatch" <<JOB
#!/bin/bash
#SBATCH --job-name=cudaenv-check
#SBATCH --output=$T/check.json
#SBATCH --error=$T/check.err
#SBATCH --time=5
if "$BIN" --help 2>&1 | grep -qE '^ +export( |\$)' && [ -f /usr/share/lmod/lmod/init/bash ]; then
    "$BIN" export lmod 12.6 -o "$T/modules" >&2
    . /usr/share/lmod/lmod/init/bash
    module use "$T/modules"
    name=\$(module -t avail 2>&1 | grep -m1 '12\.6')
    module load "\$name"
    echo "module-loaded \$name CUDA_PATH=\$CUDA_PATH" >"$T/module.txt"
fi
"$BIN" check 12.6 --json $SMALL
JOB
timeout 120 sbatch --wait "$T/check.sbatch" >/dev/null || fail "the sbatch job failed: $(cat "$T/check.err" 2>/dev/null)"
jq -e --arg h "$(hostname)" '.pass == true and .node.host == $h and .node.compute_capability == "9.0" and (.node.id | length) == 12' \
    "$T/check.json" >/dev/null || fail "check --json of the job lacks this node's key: $(head -c 2000 "$T/check.json")"
if [ -f "$T/module.txt" ]; then
    grep -q "CUDA_PATH=$T/ext/cuda-12.6\$" "$T/module.txt" || fail "module load: $(cat "$T/module.txt")"
    echo "ok: sbatch: module load of the exported modulefile"
else
    echo "note: \`cudaenv export lmod\` (or Lmod) is not there: the job's module load step was left out"
fi
echo "ok: sbatch job ran cudaenv check --json with this node's key"

# --- a job array over two pairs, merged by check --report ------------------------------------
mkdir -p "$T/matrix"
cat >"$T/array.sbatch" <<JOB
#!/bin/bash
#SBATCH --job-name=cudaenv-matrix
#SBATCH --array=0-1
#SBATCH --output=$T/matrix/%A_%a.json
#SBATCH --error=$T/matrix/%A_%a.err
#SBATCH --time=5
SPECS=(12.6 11.8)
"$BIN" check "\${SPECS[\$SLURM_ARRAY_TASK_ID]}" --json $SMALL
JOB
timeout 180 sbatch --wait "$T/array.sbatch" >/dev/null || fail "the job array failed: $(cat "$T"/matrix/*.err)"
rm -f "$T"/matrix/*.err
[ "$(ls "$T"/matrix/*.json | wc -l)" = 2 ] || fail "the job array left $(ls "$T/matrix")"
report=$("$BIN" check --report "$T/matrix") || fail "check --report failed"
grep -q "^| $(hostname) |" <<<"$report" || fail "report has no row for this node: $report"
grep -q "12.6.3+9.8.0" <<<"$report" && grep -q "11.8.0+8.9.7" <<<"$report" || fail "report lacks a pair: $report"
json=$("$BIN" check --report "$T/matrix" --json) || fail "check --report --json failed"
jq -e '(.nodes | length) == 1 and (.pairs | length) == 2 and .pass == true and
       ([.nodes[0].results[] | .status] == ["pass", "pass"])' <<<"$json" >/dev/null || fail "report JSON: $json"
# Another node's output (as another task of the array would write it) becomes a second row.
first=$(ls "$T"/matrix/*.json | head -1)
jq '.node.host = "gpu-b07" | .node.gpu = "NVIDIA A100-SXM4-80GB" | .node.compute_capability = "8.0" |
    .pass = false | .pairs[0].status = "fail" | .pairs[0].summary = "gpu: unsupported"' "$first" >"$T/matrix/gpu-b07.json"
json=$("$BIN" check --report "$T/matrix" --json) || fail "check --report --json failed"
jq -e '(.nodes | length) == 2 and .pass == false' <<<"$json" >/dev/null || fail "two-node report: $json"
report=$("$BIN" check --report "$T/matrix")
grep -q "^| gpu-b07 | NVIDIA A100-SXM4-80GB | 8.0 |.*\*\*FAIL\*\*" <<<"$report" || fail "two-node report: $report"
echo "ok: job array over two pairs merged by check --report"
printf '%s\n' "$report"

# --- bad input: a report folder with a file that is no check output ------------------------------
echo "not json" >"$T/matrix/junk.json"
err=$("$BIN" check --report "$T/matrix" 2>&1 >/dev/null) && fail "a junk file was accepted"
grep -q "^cudaenv: error: '$T/matrix/junk.json' is not the output of" <<<"$err" || fail "junk: $err"
echo "ok: a file that is no check output is named in a clear error"
exit 0
