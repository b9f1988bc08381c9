#!/usr/bin/env bash
# The steps of the GitHub Action in ../action.yml, as one script the tests run
# (tests/install/test_lock.py, class Action, on Linux; tests/windows/action_win.py
# with cudaenv.exe under Wine: cold and warm, against a mirror on 127.0.0.1;
# there is no GitHub there). Bash on Linux runners and Git Bash on Windows ones.
#
#   cudaenv-action.sh key       the lock to install (a `spec` input is locked
#                               first, in a project folder of its own under
#                               $RUNNER_TEMP) and the cache key: the runner's OS
#                               and architecture and the lock's hash; to $GITHUB_OUTPUT
#   cudaenv-action.sh install   `cudaenv sync --frozen --store-only` of that lock
#                               into the store ($CUDAENV_ROOT, which the cache
#                               holds; nothing is written beside the lock), then
#                               CUDAENV_ROOT and (not on Windows: action/cudaenv-env.cmd
#                               does it there) the pair's variables into $GITHUB_ENV
#
# Inputs (action.yml sets them): INPUT_SPEC or INPUT_LOCK, INPUT_MIRROR,
# INPUT_CUDAENV (the program; default: cudaenv on PATH), CUDAENV_ROOT;
# `install` also reads CUDAENV_ACTION_PROJECT, the `project` output of `key`.
#
# Outputs and variables are written in GitHub's NAME<<DELIMITER form (a value
# may hold a line feed); a value with a carriage return, which the runner's
# reader would cut off, is refused before anything is written.
set -euo pipefail

# GitHub reads `::` lines on the step's output as commands: its own escapes
# keep a path in a message from starting a line.
die() {
  local m="$*"
  m="${m//%/%25}"
  m="${m//$'\r'/%0D}"
  m="${m//$'\n'/%0A}"
  echo "::error::cudaenv action: $m" >&2
  exit 1
}

# Windows runners: the runner and cudaenv.exe take Windows paths (D:\a\_temp),
# Git Bash's own are /d/a/_temp. MSYS converts some arguments of a Windows
# program by guessing from their look; the script converts every path that
# crosses over itself, with cygpath, and leaves nothing to the guess. Without
# cygpath (Linux) a path is used as it is.
cygpath="$(command -v cygpath || true)"
convert() { # -u|-w PATH -> REPLY (a trailing line feed of the path kept)
  if [ -z "$cygpath" ]; then
    REPLY="$2"
    return
  fi
  REPLY="$("$cygpath" "$1" -- "$2" && printf x)" || die "cygpath $1 could not convert '$2'"
  REPLY="${REPLY%$'\n'x}"
}

is_windows() {
  case "${RUNNER_OS:-$(uname -s)}" in Windows | MINGW* | MSYS* | CYGWIN*) return 0 ;; *) return 1 ;; esac
}

cudaenv_program() {
  if [ -n "${INPUT_CUDAENV:-}" ]; then
    convert -u "$INPUT_CUDAENV"
  elif REPLY="$(command -v cudaenv)"; then
    :
  else
    die "cudaenv is not on PATH: install it in an earlier step (README.md, 'GitHub Actions'), or give the 'cudaenv' input"
  fi
}

# The store as Windows programs (cudaenv.exe, actions/cache) and later steps take it.
store_path() {
  [ -n "${CUDAENV_ROOT:-}" ] || die "CUDAENV_ROOT must name the store the cache keeps"
  convert -w "$CUDAENV_ROOT"
  CUDAENV_ROOT="$REPLY"
  export CUDAENV_ROOT
  case "$CUDAENV_ROOT" in *$'\n'*) die "the store '$CUDAENV_ROOT' holds a line feed: actions/cache reads one path a line" ;; esac
  check_value store "$CUDAENV_ROOT"
}

# --mirror for cudaenv: a folder is made absolute here (the steps run cudaenv
# in the project's folder, the workflow names it from the workspace).
mirror_args=()
if [ -n "${INPUT_MIRROR:-}" ]; then
  case "$INPUT_MIRROR" in
    *://*) mirror_args=(--mirror "$INPUT_MIRROR") ;;
    *)
      convert -u "$INPUT_MIRROR"
      case "$REPLY" in /*) ;; *) REPLY="$PWD/$REPLY" ;; esac
      convert -w "$REPLY"
      mirror_args=(--mirror "$REPLY")
      ;;
  esac
fi

# Refused before anything is written: GitHub's reader ends a line at CR LF and
# would cut a carriage return off the end of a value.
check_value() { # what value
  case "$2" in *$'\r'*) die "$1 holds a carriage return, which GitHub's runner would not read back: '$2'" ;; esac
}

# One NAME<<DELIMITER block appended to FILE: the delimiter is random and
# found in no line of the value, as GitHub's own toolkit writes them.
put() { # file name value
  local delim
  check_value "$2" "$3"
  while :; do
    delim="ghadelimiter_$(printf '%04x' "$RANDOM" "$RANDOM" "$RANDOM" "$RANDOM" "$RANDOM" "$RANDOM" "$RANDOM" "$RANDOM")"
    case "$3" in *"$delim"*) ;; *) break ;; esac
  done
  printf '%s<<%s\n%s\n%s\n' "$2" "$delim" "$3" "$delim" >>"$1"
}

step_key() {
  local cudaenv project lock hash key os arch runner_temp
  cudaenv_program
  cudaenv="$REPLY"
  store_path
  if [ -n "${INPUT_SPEC:-}" ] && [ -n "${INPUT_LOCK:-}" ]; then die "give 'spec' or 'lock', not both"; fi
  if [ -n "${INPUT_LOCK:-}" ]; then
    convert -u "$INPUT_LOCK"
    lock="$REPLY"
    [ -f "$lock" ] || die "no lock file '$INPUT_LOCK'"
    [ "${lock##*/}" = cudaenv.lock ] || die "'$INPUT_LOCK' is not named cudaenv.lock"
    case "$lock" in */*) project="${lock%/*}" ;; *) project=. ;; esac
    project="$(cd -- "${project:-/}" && pwd && printf x)" || die "cannot enter the folder of '$INPUT_LOCK'"
    project="${project%$'\n'x}"
  elif [ -n "${INPUT_SPEC:-}" ]; then
    case "$INPUT_SPEC" in *[$'\r\n']*) die "the 'spec' input must be one line" ;; esac
    convert -u "${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
    runner_temp="$REPLY"
    project="$runner_temp/cudaenv-action/project"
    mkdir -p "$project"
    rm -f "$project/cudaenv.lock"  # locked afresh: nothing of an earlier use in this job carries over
    printf '%s\n' "$INPUT_SPEC" >"$project/.cudaenv"
    (cd -- "$project" && "$cudaenv" lock "${mirror_args[@]}") >&2 || die "cudaenv lock of '$INPUT_SPEC' failed (its error is above)"
  else
    die "give 'spec' or 'lock'"
  fi
  hash="$(sha256sum <"$project/cudaenv.lock")"
  hash="${hash:0:32}"
  # A store holds one platform's archives: an ARM64 runner must never restore an x86_64 one.
  os="${RUNNER_OS:-$(uname -s)}"
  arch="${RUNNER_ARCH:-$(uname -m)}"
  key="cudaenv-$os-$arch-$hash"
  check_value key "$key"
  check_value project "$project"
  put "${GITHUB_OUTPUT:-/dev/null}" key "$key"
  put "${GITHUB_OUTPUT:-/dev/null}" project "$project"
  put "${GITHUB_OUTPUT:-/dev/null}" store "$CUDAENV_ROOT"
  echo "$key"
}

step_install() {
  local cudaenv project pair
  cudaenv_program
  cudaenv="$REPLY"
  store_path
  project="${CUDAENV_ACTION_PROJECT:?the project output of the key step}"
  : "${GITHUB_ENV:?GITHUB_ENV must name the environment file of the job}"
  # A warm cache holds the pair already: sync then reads two files and stops.
  # --store-only: nothing is written beside the lock (the checkout stays
  # clean); --print-pair: the pair as cudaenv read it from the lock.
  pair="$(cd -- "$project" && "$cudaenv" sync --frozen --store-only --print-pair --quiet "${mirror_args[@]}")" ||
    die "cudaenv sync of $project/cudaenv.lock failed (its error is above)"
  pair="${pair%$'\r'}"  # cudaenv.exe ends its lines with CR LF
  case "$pair" in '' | *[$'\r\n']*) die "cudaenv sync printed no single pair for $project/cudaenv.lock: '$pair'" ;; esac
  # On Windows, action/cudaenv-env.cmd exports the pair from cmd: Git Bash's
  # PATH starts with Git's own folders, which must not reach later steps.
  if ! is_windows; then "$cudaenv" export github-env "$pair" -o "$GITHUB_ENV"; fi
  put "$GITHUB_ENV" CUDAENV_ROOT "$CUDAENV_ROOT"
  put "${GITHUB_OUTPUT:-/dev/null}" pair "$pair"
}

case "${1:-}" in
  key) step_key ;;
  install) step_install ;;
  *) die "usage: cudaenv-action.sh key|install" ;;
esac
