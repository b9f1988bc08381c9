#!/usr/bin/env bash
# End-to-end cases for `cudaenv trace`: the real binary traces the small C
# programs of this folder (and python3) loading the fake CUDA runtime and
# cuDNN from tests/fakes, laid out as NVIDIA ships them (versioned files and
# soname links).
# usage: trace_cases.sh <cudaenv binary> <fakes build dir> <programs dir> <case>
set -u
BIN=$1
FAKES=$2
PROGS=$3
CASE=$4
# shellcheck source=../lib/cases.sh
source "${BASH_SOURCE[0]%/*}/../lib/cases.sh"

# lay <src dir> <dest dir> <full version>: NVIDIA's layout, libX.so.<full> with a libX.so.<major> link.
lay() {
    mkdir -p "$2"
    for f in "$1"/lib*.so.*; do
        local name=${f##*/} major=${f##*.so.}
        cp "$f" "$2/${name%.so.*}.so.$3"
        ln -sf "${name%.so.*}.so.$3" "$2/${name%.so.*}.so.$major"
    done
}
mk_cudnn() {  # <dir> <full version>
    lay "$FAKES/cudnn9" "$1/lib" "$2"
    mkdir -p "$1/include"
    IFS=. read -r ma mi pa <<<"$2"
    printf '#define CUDNN_MAJOR %s\n#define CUDNN_MINOR %s\n#define CUDNN_PATCHLEVEL %s\n' "$ma" "$mi" "$pa" \
        >"$1/include/cudnn_version.h"
}
# The pair 12.6.3+9.8.0, and a second cuDNN 9.1.0 that is no pair of cudaenv's.
setup() {
    lay "$FAKES/cuda12" "$T/cuda-12.6/lib64" 12.6.77
    printf '{"cuda": {"name": "CUDA SDK", "version": "12.6.3"}}\n' >"$T/cuda-12.6/version.json"
    mk_cudnn "$T/cudnn/9.8.0_cuda12" 9.8.0
    mk_cudnn "$T/elsewhere/cudnn-9.1" 9.1.0
    run 0 "$BIN" add "$T/cuda-12.6"
    run 0 "$BIN" add "$T/cudnn/9.8.0_cuda12"
    PAIR=12.6.3+9.8.0
    OTHER=$T/elsewhere/cudnn-9.1/lib
}
lib() { jq -r "[.libraries[] | select(.name == \"$1\")][${3:-0}] | $2" <<<"$OUT"; }
lib_is() { local got; got=$(lib "$1" "$2" "${4:-0}"); [ "$got" = "$3" ] || { echo "$OUT" | head -c 6000; fail "$1 $2 = '$got', wanted '$3'"; }; }

case $CASE in
needed)
    # DT_NEEDED, found through the LD_LIBRARY_PATH that activation sets.
    setup
    run 0 "$BIN" trace 12.6 --json -- "$PROGS/trace_needed"
    has "$OUT" "needed: cudart 12060 cudnn 90800"
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudnn.so.9 .origin pair
    lib_is libcudnn.so.9 .how libpath
    lib_is libcudnn.so.9 .version 9.8.0
    lib_is libcudnn.so.9 .real_path "$T/cudnn/9.8.0_cuda12/lib/libcudnn.so.9.8.0"
    lib_is libcudart.so.12 .origin pair
    lib_is libcudart.so.12 .version 12.6.77
    jq_is "$OUT" .verdict.mismatch false
    has "$ERR" "verdict: all CUDA libraries came from $PAIR"
    has "$ERR" "found through LD_LIBRARY_PATH"
    ;;
same_version)
    # Two installs of CUDA 12.6.3: the traced one is named by the spec `list`
    # shows, and a library from the other is that pair's, not an unknown copy.
    setup
    lay "$FAKES/cuda12" "$T/second/cuda-12.6/lib64" 12.6.77
    printf '{"cuda": {"name": "CUDA SDK", "version": "12.6.3"}}\n' >"$T/second/cuda-12.6/version.json"
    run 0 "$BIN" add "$T/second/cuda-12.6"
    run 0 "$BIN" list --bare
    SECOND=$(grep -v "^$PAIR\$" <<<"$OUT" | grep '+9.8.0$')
    [ -n "$SECOND" ] && [ "$SECOND" != "$PAIR" ] || fail "no unique spec for the second 12.6.3: $OUT"
    run 0 "$BIN" trace "$SECOND" --json -- "$PROGS/trace_needed"
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudart.so.12 .origin pair
    lib_is libcudart.so.12 .real_path "$T/second/cuda-12.6/lib64/libcudart.so.12.6.77"
    has "$ERR" "verdict: all CUDA libraries came from $SECOND"
    # The program's RPATH leads to the first install's runtime.
    mkdir -p "$T/app"
    cp "$PROGS/trace_needed_rpath" "$T/app/prog"
    ln -s "$T/cuda-12.6/lib64" "$T/app/other"
    run 0 "$BIN" trace "$SECOND" --json -- "$T/app/prog"
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudart.so.12 .origin other-pair
    lib_is libcudart.so.12 .pair "$PAIR"
    has "$ERR" "did not come from $SECOND"
    ;;
dlopen_name)
    setup
    run 0 "$BIN" trace $PAIR --json -- "$PROGS/trace_loader" libcudnn.so.9 libcudnn_ops.so.9
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudnn_ops.so.9 .origin pair
    lib_is libcudnn_ops.so.9 .how libpath
    lib_is libcudnn_ops.so.9 .requester ""
    # the loader's own DT_NEEDED of libcudnn.so.9 (libcudart.so.12) is recorded too
    lib_is libcudart.so.12 .origin pair
    has "$ERR" "verdict: all CUDA libraries came from $PAIR"
    ;;
runpath)
    # DT_RUNPATH ($ORIGIN/other) to another cuDNN: LD_LIBRARY_PATH (the pair's)
    # is searched first and wins; with a pair that has no cuDNN, RUNPATH's copy is loaded.
    setup
    mkdir -p "$T/app"
    cp "$PROGS/trace_needed_runpath" "$T/app/prog"
    ln -s "$OTHER" "$T/app/other"
    run 0 "$BIN" trace $PAIR --json -- "$T/app/prog"
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudnn.so.9 .origin pair
    lib_is libcudnn.so.9 .how libpath
    run 0 "$BIN" trace 12.6.3+none --json -- "$T/app/prog"
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudnn.so.9 .origin other
    lib_is libcudnn.so.9 .how runpath
    lib_is libcudnn.so.9 .version 9.1.0
    has "$(lib libcudnn.so.9 .why)" "found through the RUNPATH of $T/app/prog (\$ORIGIN/other)"
    has "$(lib libcudnn.so.9 .advice)" "LD_LIBRARY_PATH is searched before RUNPATH"
    jq_is "$OUT" .verdict.mismatch true
    has "$ERR" "did not come from 12.6.3+none"
    ;;
rpath)
    # DT_RPATH is searched even before LD_LIBRARY_PATH: the other copy wins over the pair's.
    setup
    mkdir -p "$T/app"
    cp "$PROGS/trace_needed_rpath" "$T/app/prog"
    ln -s "$OTHER" "$T/app/other"
    run 0 "$BIN" trace $PAIR --json -- "$T/app/prog"
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudnn.so.9 .origin other
    lib_is libcudnn.so.9 .how runpath
    has "$(lib libcudnn.so.9 .why)" "found through the RPATH of $T/app/prog"
    has "$(lib libcudnn.so.9 .advice)" "DT_RPATH is searched even before LD_LIBRARY_PATH"
    # the copy that cudaenv knows as another pair is named as such
    run 0 "$BIN" add "$T/elsewhere/cudnn-9.1"
    run 0 "$BIN" trace $PAIR --json -- "$T/app/prog"
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudnn.so.9 .origin other-pair
    lib_is libcudnn.so.9 .pair 12.6.3+9.1.0
    ;;
absolute)
    # How frameworks preload their wheel's libraries: a full path, so no search path matters.
    setup
    W=$T/venv/lib/python3.12/site-packages/nvidia/cudnn/lib
    mkdir -p "$W" && cp -P "$OTHER"/* "$W/"
    run 0 "$BIN" trace $PAIR --json -- "$PROGS/trace_loader" "$W/libcudnn.so.9"
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudnn.so.9 .origin pip-wheel
    lib_is libcudnn.so.9 .package nvidia-cudnn
    lib_is libcudnn.so.9 .how absolute
    has "$(lib libcudnn.so.9 .advice)" "by absolute path: no search path can change that"
    has "$ERR" "came from the pip wheel nvidia-cudnn"
    # The verdict says that first, in one line; the details follow.
    has "$ERR" "verdict: trace_loader loads its wheel's cuDNN 9.1.0 by absolute path; this pair's cuDNN is not used"
    has "$(grep -A1 '^verdict:' <<<"$ERR" | tail -n 1)" "  - libcudnn.so.9 came from the pip wheel nvidia-cudnn"
    jq_is "$OUT" .verdict.summary "trace_loader loads its wheel's cuDNN 9.1.0 by absolute path; this pair's cuDNN is not used"
    ;;
mixed)
    # The pair's cuDNN core with a sub-library of another release.
    setup
    run 0 "$BIN" trace $PAIR --json -- "$PROGS/trace_loader" libcudnn.so.9 "$OTHER/libcudnn_ops.so.9"
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudnn_ops.so.9 .version 9.1.0
    has "$ERR" "mixes cuDNN libraries of different versions"
    has "$ERR" "SUBLIBRARY_VERSION_MISMATCH"
    jq_is "$OUT" .verdict.mismatch true
    ;;
fork_exec)
    setup
    run 0 "$BIN" trace $PAIR --json -- "$PROGS/trace_forker" "$PROGS/trace_loader" libcudart.so.12
    OUT=$(sed -n '/^{/,$p' "$T/out")
    has "$(cat "$T/out")" "forker: child exited 0"
    jq_is "$OUT" '.processes | length' 2
    child=$(lib libcudart.so.12 .pid)
    jq_is "$OUT" "[.processes[] | select(.pid == $child)][0].exe" "$PROGS/trace_loader"
    jq_is "$OUT" "[.processes[] | select(.pid == $child)][0].ppid != $child" true
    lib_is libcudart.so.12 .origin pair
    ;;
ctypes)
    command -v python3 >/dev/null || exit 77
    setup
    run 0 "$BIN" trace $PAIR --json -- python3 -c "import ctypes; ctypes.CDLL('libcudart.so.12'); print('ctypes ok')"
    has "$OUT" "ctypes ok"
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudart.so.12 .origin pair
    lib_is libcudart.so.12 .how libpath
    has "$ERR" "verdict: all CUDA libraries came from $PAIR"
    ;;
user_audit)
    # A user's own LD_AUDIT keeps running, and so does ours.
    setup
    LD_AUDIT=$PROGS/libtrace_user_audit.so run 0 "$BIN" trace $PAIR --json -- "$PROGS/trace_loader" libcudart.so.12
    has "$ERR" "user-audit: la_version"
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudart.so.12 .origin pair
    ;;
stdout_same)
    # The program's stdout is byte for byte what it is without trace.
    setup
    "$BIN" exec $PAIR -- "$PROGS/trace_forker" "$PROGS/trace_needed" >"$T/plain" 2>/dev/null
    "$BIN" trace $PAIR -- "$PROGS/trace_forker" "$PROGS/trace_needed" >"$T/traced" 2>"$T/err"
    cmp "$T/plain" "$T/traced" || fail "stdout differs under trace"
    [ -s "$T/plain" ] || fail "no output"
    has "$(cat "$T/err")" "verdict: all CUDA libraries came from $PAIR"
    ;;
json)
    # --json=FILE leaves stdout to the program alone.
    setup
    run 0 "$BIN" trace $PAIR --json="$T/report.json" -- "$PROGS/trace_needed"
    [ "$OUT" = "needed: cudart 12060 cudnn 90800" ] || fail "stdout: $OUT"
    OUT=$(cat "$T/report.json")
    jq_is "$OUT" .spec $PAIR
    jq_is "$OUT" .exit_code 0
    jq_is "$OUT" '.libraries | length' 2
    jq_is "$OUT" .verdict.summary "all CUDA libraries came from $PAIR"
    # the active pair is traced when no spec is given
    CUDAENV_VERSION=$PAIR run 0 "$BIN" trace --json="$T/r2.json" -- "$PROGS/trace_needed"
    jq_is "$(cat "$T/r2.json")" .spec $PAIR
    ;;
strict)
    setup
    run 0 "$BIN" trace $PAIR --strict -- "$PROGS/trace_loader" libcudnn.so.9
    run 0 "$BIN" trace $PAIR -- "$PROGS/trace_loader" "$OTHER/libcudnn.so.9"
    run 1 "$BIN" trace $PAIR --strict -- "$PROGS/trace_loader" "$OTHER/libcudnn.so.9"
    has "$ERR" "1 of 2 CUDA libraries did not come from $PAIR"
    # the command's own failure status wins over --strict
    run 3 "$BIN" trace $PAIR --strict -- "$PROGS/trace_loader" "$OTHER/libcudnn.so.9" /no/such.so
    ;;
bad_input)
    setup
    run 127 "$BIN" trace $PAIR -- no-such-command-xyz
    has "$ERR" "cudaenv: error: command not found: no-such-command-xyz"
    run 1 "$BIN" trace 99.1 -- true
    has "$ERR" "cudaenv: error:"
    has "$ERR" "12.6.3"
    run 2 "$BIN" trace $PAIR --
    has "$ERR" "no command to trace"
    run 2 "$BIN" trace --bogus -- true
    ;;
signal)
    setup
    run 139 "$BIN" trace $PAIR -- bash -c 'kill -SEGV $$'
    has "$ERR" "killed by SIGSEGV (exit status 139)"
    ;;
reexec)
    # A program that re-execs itself keeps being traced (the record fd survives exec).
    setup
    run 0 "$BIN" trace $PAIR --json -- bash -c "exec \"$PROGS/trace_loader\" libcudart.so.12"
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudart.so.12 .origin pair
    jq_is "$OUT" '.processes[0].exe' "$PROGS/trace_loader"
    ;;
closed_fd)
    # A program that closes every inherited fd (and reuses the number) is
    # still traced, and nothing is written into its own file.
    setup
    run 0 "$BIN" trace $PAIR --json -- bash -c "for fd in /proc/\$\$/fd/*; do n=\${fd##*/}; [ \$n -gt 2 ] && eval \"exec \$n>&-\"; done; exec 100>$T/mine; \"$PROGS/trace_loader\" libcudart.so.12 >&100"
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudart.so.12 .origin pair
    [ "$(cat "$T/mine")" = "loader: 1 of 1 loaded" ] || fail "the program's own fd 100 got: $(cat "$T/mine")"
    ;;
json_file)
    # --json=FILE that cannot be written is refused before the command runs
    # (it would leave a marker), creates no folder, and a failure to write
    # after the command keeps the command's exit status (issue 28.8).
    setup
    mkdir "$T/folder"
    run 1 "$BIN" trace $PAIR --json="$T/folder" -- touch "$T/ran"
    has "$ERR" "cudaenv: error:"
    [ ! -e "$T/ran" ] || fail "the command ran although its report could not be written"
    run 1 "$BIN" trace $PAIR --json="$T/no/such/dir/r.json" -- touch "$T/ran"
    [ ! -e "$T/ran" ] || fail "the command ran for a report in a missing folder"
    [ ! -e "$T/no" ] || fail "--json created a folder"
    if [ "$(id -u)" != 0 ]; then
        mkdir "$T/ro" && chmod 555 "$T/ro"
        run 1 "$BIN" trace $PAIR --json="$T/ro/r.json" -- touch "$T/ran"
        [ ! -e "$T/ran" ] || fail "the command ran for a report in a read-only folder"
    fi
    # A full disk after the command: the command's status stays, the failure is said.
    run 3 "$BIN" trace $PAIR --json=/dev/full -- "$PROGS/trace_loader" /no/such.so
    has "$ERR" "the JSON report was not written"
    [ -c /dev/full ] || fail "/dev/full is no longer a device"
    # Through a link: the link's target gets the report, the link stays.
    ln -s "$T/report-target.json" "$T/report.json"
    : >"$T/report-target.json"
    run 0 "$BIN" trace $PAIR --json="$T/report.json" -- "$PROGS/trace_loader" libcudart.so.12
    [ -L "$T/report.json" ] || fail "the report link was replaced"
    jq_is "$(cat "$T/report-target.json")" '.libraries[0].origin' pair
    ;;
long_tmpdir)
    # A TMPDIR of ~1000 characters still gets its records (issue 28.8).
    setup
    long=$T/$(printf 'd%.0s' $(seq 1 200))/$(printf 'e%.0s' $(seq 1 200))/$(printf 'f%.0s' $(seq 1 200))/$(printf 'g%.0s' $(seq 1 200))/$(printf 'h%.0s' $(seq 1 200))
    mkdir -p "$long"
    TMPDIR=$long run 0 "$BIN" trace $PAIR --json -- "$PROGS/trace_loader" libcudart.so.12
    OUT=$(sed -n '/^{/,$p' "$T/out")
    lib_is libcudart.so.12 .origin pair
    hasnt "$ERR" "loaded no CUDA library"
    ;;
control_chars)
    # Control bytes in a traced program's name and paths reach the terminal escaped.
    setup
    esc=$(printf 'evil\033[31mred')
    ln -s "$PROGS/trace_loader" "$T/$esc"
    run 0 "$BIN" trace $PAIR -- "$T/$esc" libcudart.so.12
    has "$ERR" 'evil\x1b[31mred'
    grep -q $'\033' "$T/err" && fail "a raw ESC reached the report"
    has "$ERR" "as the traced programs reported them"
    ;;
sigterm)
    # SIGTERM to trace goes to the command, then trace reports and removes its records folder.
    setup
    export TMPDIR=$T/tmp
    mkdir -p "$TMPDIR"
    "$BIN" trace $PAIR -- bash -c 'echo $$ >"$0"; exec sleep 60' "$T/child.pid" >"$T/out" 2>"$T/err" &
    tracer=$!
    for _ in $(seq 1 100); do [ -s "$T/child.pid" ] && break; sleep 0.1; done
    child=$(cat "$T/child.pid")
    kill -TERM "$tracer"
    wait "$tracer"
    rc=$?
    [ "$rc" = 143 ] || fail "trace exited $rc after SIGTERM, wanted 143 (the command's)"
    kill -0 "$child" 2>/dev/null && fail "the command $child was orphaned"
    [ -z "$(ls -A "$TMPDIR")" ] || fail "records left: $(ls -A "$TMPDIR")"
    has "$(cat "$T/err")" "killed by SIGTERM"
    ;;
*) fail "unknown case $CASE" ;;
esac
echo "ok [$CASE]"
