#!/usr/bin/env bash
# The steps of the GitHub Action in ../action.yml, as one script the tests run
# (tests/install/test_lock.py, class Action: cold and warm, against a mirror
# on 127.0.0.1; there is no GitHub there). Bash on Linux and Windows runners.
#
#   cudaenv-action.sh key       the lock to install (a `spec` input is locked
#                               first, in a project folder of its own) and the
#                               cache key: its hash; to $GITHUB_OUTPUT
#   cudaenv-action.sh install   `cudaenv sync --frozen` of that lock into the
#                               store ($CUDAENV_ROOT, which the cache holds),
#                               then the pair's variables into $GITHUB_ENV
#
# Inputs (action.yml sets them): INPUT_SPEC or INPUT_LOCK, INPUT_MIRROR,
# INPUT_CUDAENV (the program; default: cudaenv on PATH), CUDAENV_ROOT;
# `install` also reads CUDAENV_ACTION_PROJECT, the `project` output of `key`.
set -euo pipefail

die() {
  echo "::error::cudaenv action: $*" >&2
  exit 1
}

cudaenv_program() {
  if [ -n "${INPUT_CUDAENV:-}" ]; then
    printf '%s\n' "$INPUT_CUDAENV"
  elif command -v cudaenv >/dev/null 2>&1; then
    command -v cudaenv
  else
    die "cudaenv is not on PATH: install it in an earlier step (README.md, 'GitHub Actions'), or give the 'cudaenv' input"
  fi
}

mirror_args=()
if [ -n "${INPUT_MIRROR:-}" ]; then mirror_args=(--mirror "$INPUT_MIRROR"); fi

output() { printf '%s=%s\n' "$1" "$2" >>"${GITHUB_OUTPUT:-/dev/null}"; }

step_key() {
  local cudaenv project hash
  cudaenv="$(cudaenv_program)"
  : "${CUDAENV_ROOT:?CUDAENV_ROOT must name the store the cache keeps}"
  if [ -n "${INPUT_SPEC:-}" ] && [ -n "${INPUT_LOCK:-}" ]; then die "give 'spec' or 'lock', not both"; fi
  if [ -n "${INPUT_LOCK:-}" ]; then
    [ -f "$INPUT_LOCK" ] || die "no lock file '$INPUT_LOCK'"
    [ "$(basename "$INPUT_LOCK")" = cudaenv.lock ] || die "'$INPUT_LOCK' is not named cudaenv.lock"
    project="$(cd "$(dirname "$INPUT_LOCK")" && pwd)"
  elif [ -n "${INPUT_SPEC:-}" ]; then
    project="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/cudaenv-action/project"
    mkdir -p "$project"
    printf '%s\n' "$INPUT_SPEC" >"$project/.cudaenv"
    (cd "$project" && "$cudaenv" lock "${mirror_args[@]}") >&2
  else
    die "give 'spec' or 'lock'"
  fi
  hash="$(sha256sum "$project/cudaenv.lock" | cut -c1-32)"
  output key "cudaenv-${RUNNER_OS:-$(uname -s)}-$hash"
  output project "$project"
  output store "$CUDAENV_ROOT"
  echo "cudaenv-${RUNNER_OS:-$(uname -s)}-$hash"
}

step_install() {
  local cudaenv project pair
  cudaenv="$(cudaenv_program)"
  project="${CUDAENV_ACTION_PROJECT:?the project output of the key step}"
  # A warm cache holds the pair already: sync then reads two files and stops.
  (cd "$project" && "$cudaenv" sync --frozen --quiet "${mirror_args[@]}")
  pair="$(sed -n 's/^pair = "\(.*\)"\r*$/\1/p' "$project/cudaenv.lock")"
  [ -n "$pair" ] || die "$project/cudaenv.lock names no pair"
  "$cudaenv" export github-env "$pair" -o "${GITHUB_ENV:?}"
  output pair "$pair"
}

case "${1:-}" in
  key) step_key ;;
  install) step_install ;;
  *) die "usage: cudaenv-action.sh key|install" ;;
esac
