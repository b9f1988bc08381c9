# shellcheck shell=bash
# Sourced by .ci/run: runs its stages, in the foreground or at the lowest CPU
# priority in the background, keeps each one's wall time, and at exit (also
# after a failure) prints them with the 15 slowest tests from CTest's own cost
# data (<build>/Testing/Temporary/CTestCostData.txt).
#   stage NAME CMD...          run CMD now; a failure ends the run
#   stage_bg NAME CMD...       run CMD in the background under nice 19, its
#                              output in $CI_LOGS/NAME.log
#   stage_wait NAME            wait for a background stage; its log is shown
#                              on failure, and a failure ends the run
# CI_BUILDS: the build folders whose tests are reported.

CI_LOGS=${CI_LOGS:-$PWD/build/ci-logs}
CI_BUILDS=${CI_BUILDS:-}
mkdir -p "$CI_LOGS"
: >"$CI_LOGS/stages.txt"
declare -A _ci_pid=()
_ci_t0=$(date +%s)

_ci_record() {  # NAME START END STATUS [bg]
    printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:-}" >>"$CI_LOGS/stages.txt"
}

stage() {
    local name=$1 start rc=0
    shift
    echo "== ci: $name" >&2
    start=$(date +%s)
    "$@" || rc=$?
    _ci_record "$name" "$start" "$(date +%s)" "$rc"
    [ "$rc" = 0 ] || { echo "== ci: $name failed (exit status $rc)" >&2; exit "$rc"; }
}

stage_bg() {
    local name=$1
    shift
    echo "== ci: $name (background, nice 19; log: $CI_LOGS/$name.log)" >&2
    (
        start=$(date +%s) rc=0
        nice -n 19 "$@" >"$CI_LOGS/$name.log" 2>&1 || rc=$?
        _ci_record "$name" "$start" "$(date +%s)" "$rc" bg
        exit "$rc"
    ) &
    _ci_pid[$name]=$!
}

stage_wait() {
    local name=$1 rc=0 start
    start=$(date +%s)
    wait "${_ci_pid[$name]}" || rc=$?
    unset "_ci_pid[$name]"
    if [ "$rc" != 0 ]; then
        echo "== ci: $name failed (exit status $rc); the end of its log:" >&2
        tail -n 150 "$CI_LOGS/$name.log" >&2
        exit "$rc"
    fi
    echo "== ci: $name done (waited $(( $(date +%s) - start )) s for it)" >&2
}

_ci_kill_tree() {  # a background stage that is still running when the run ends
    local child
    for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do _ci_kill_tree "$child"; done
    kill "$1" 2>/dev/null || true
}

_ci_report() {
    local rc=$? name
    for name in "${!_ci_pid[@]}"; do _ci_kill_tree "${_ci_pid[$name]}"; done
    {
        echo
        echo "== ci: wall time per stage (background stages ran at nice 19 beside the others)"
        awk -F'\t' -v t0="$_ci_t0" '{
            printf "  %-28s %6d s   from %5d s to %5d s%s%s\n", $1, $3 - $2, $2 - t0, $3 - t0,
                   ($5 == "bg" ? "  (background)" : ""), ($4 == 0 ? "" : "  FAILED (" $4 ")")
        }' "$CI_LOGS/stages.txt"
        echo "  total                        $(( $(date +%s) - _ci_t0 )) s"
        echo
        echo "== ci: the 15 slowest tests (seconds, CTest's cost data)"
        local build
        for build in $CI_BUILDS; do
            local data=$build/Testing/Temporary/CTestCostData.txt
            [ -f "$data" ] || continue
            awk -v preset="$(basename "$build")" '/^---/ {exit} NF == 3 {printf "%10.1f  %s: %s\n", $3, preset, $1}' "$data"
        done | sort -rn | head -n 15
    } >&2
    exit "$rc"
}
trap _ci_report EXIT
