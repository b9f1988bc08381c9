# The case harness of the end-to-end bash suites (tests/check/check_cases.sh,
# tests/trace/trace_cases.sh): sourced after the suite sets BIN and CASE.
# Each case runs in a fresh temporary store and home, removed on exit.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export CUDAENV_ROOT=$T/store HOME=$T/home
mkdir -p "$HOME"
unset CUDAENV_VERSION CUDAENV_SHELL LD_LIBRARY_PATH LD_PRELOAD LD_AUDIT

fail() { echo "FAIL [$CASE]: $*" >&2; exit 1; }
# run <expected exit> <cmd...>: output in $OUT, stderr in $ERR
run() {
    local want=$1; shift
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
    [ "$rc" = "$want" ] || { echo "--- stdout"; echo "$OUT"; echo "--- stderr"; echo "$ERR"; fail "exit $rc, wanted $want: $*"; }
}
has() { grep -qF -- "$2" <<<"$1" || { echo "$1"; fail "missing: $2"; }; }
hasnt() { ! grep -qF -- "$2" <<<"$1" || { echo "$1"; fail "unexpected: $2"; }; }
jq_is() { local got; got=$(jq -r "$2" <<<"$1"); [ "$got" = "$3" ] || { echo "$1" | head -c 4000; fail "$2 = '$got', wanted '$3'"; }; }
