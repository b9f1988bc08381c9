# cudaenv shell integration for bash. Add to ~/.bashrc:  eval "$(cudaenv init bash)"
__cudaenv_bin='/opt/cudaenv/bin/cudaenv'
# The `cudaenv` function of the bash and zsh integrations: runs the binary
# with CUDAENV_SHELL set for the commands whose output is code, evaluates that
# output, and passes every other command on.
cudaenv() {
  case "${1-}" in
    'use'|'shell'|'deactivate')
      local __cudaenv_code
      __cudaenv_code="$(CUDAENV_SHELL='bash' "$__cudaenv_bin" "$@")" || return
      eval "$__cudaenv_code"
      ;;
    *) "$__cudaenv_bin" "$@" || return ;;
  esac
  # After deactivate (or a new .cudaenv here) the folder's pair applies again at once.
  case "${1-}" in 'deactivate'|'local') __cudaenv_key=; __cudaenv_hook ;; esac
}
# Sets __ce_text to what the hook compares of a version file: "r" and its
# first bytes, as many as decide what the binary reads (the binary refuses a
# file at its first NUL byte, and reads at most '8193' bytes, or
# '257' of UTF-16, one more than a file may hold), or "u" when it
# cannot be read (the binary then says why, once per change of the key).
# Bounded by bytes: `read -N` counts characters and drops NUL bytes, so a file
# of NULs (50 MB of zeros is 50 KB in git) would be read to its end at every
# prompt. So the file is read in pieces that end at each NUL (-d ''), with
# LC_ALL=C so that -n and ${#} count bytes; where the NULs were is kept too.
# A piece per NUL is a `read` each: a file that is not UTF-16 is done at its
# first NUL, a UTF-16 one at its first NUL character (two NULs, the second at
# an odd offset) or at '257' bytes (docs/version-files.md).
__cudaenv_read() {
  __ce_text=u
  if [ -r "$1" ]; then
    local LC_ALL=C __ce_left='8193' __ce_utf16='257' __ce_part __ce_nuls='' __ce_n=0
    __ce_text=r
    {
      while :; do
        if ! IFS= read -r -d '' -n "$__ce_left" __ce_part; then
          __ce_text+=$__ce_part  # the last piece, up to the end of the file
          break
        fi
        __ce_text+=$__ce_part
        # A piece that fills the window ended at the cap, not at a NUL.
        [ "${#__ce_part}" -lt "$__ce_left" ] || break
        __ce_nuls+=" ${#__ce_text}"
        __ce_n=$((__ce_n + 1))
        case $__ce_text in
          r$'\xff\xfe'* | r$'\xfe\xff'*)
            # This NUL is at offset ${#__ce_text} + __ce_n - 2 of the file.
            [ -n "$__ce_part" ] || [ $(((${#__ce_text} + __ce_n) % 2)) = 0 ] || break
            __ce_left=$((__ce_utf16 - ${#__ce_text} + 1 - __ce_n)) ;;
          *) break ;;
        esac
        [ "$__ce_left" -gt 0 ] || break
      done
    } <"$1" 2>/dev/null
    __ce_text+=$'\n'"nul$__ce_nuls"
  fi
}
# Auto-switch hook, shared by bash and zsh. The key is "k", then for every
# version file that can decide the pair here (the nearest .cudaenv and any
# .tool-versions below it) its path and first bytes (see __cudaenv_read). Files are only
# read into a string and compared; nothing in them is ever evaluated. Only
# regular files are read (`[ -f ]`: a FIFO or a device never blocks a prompt),
# and `[`, `read`, ${d%/*} are builtins, so an unchanged key costs no process.
__cudaenv_hook() {
  local __ce_rc=$?
  # An explicit `cudaenv use` (or a CUDAENV_VERSION of the user's) wins.
  if [ -z "${CUDAENV_VERSION-}" ]; then
    local __ce_d="${PWD%/}" __ce_k=k __ce_hit='' __ce_code __ce_text
    while :; do
      if [ -f "$__ce_d/.cudaenv" ]; then
        __cudaenv_read "$__ce_d/.cudaenv"
        __ce_k+=$'\n'"$__ce_d/.cudaenv"$'\n'"$__ce_text"
        __ce_hit=1
        break
      fi
      if [ -f "$__ce_d/.tool-versions" ]; then
        __cudaenv_read "$__ce_d/.tool-versions"
        __ce_k+=$'\n'"$__ce_d/.tool-versions"$'\n'"$__ce_text"
        case "$__ce_text" in *cuda*) __ce_hit=1 ;; esac
      fi
      [ -z "$__ce_d" ] && break
      __ce_d="${__ce_d%/*}"
    done
    if [ "$__ce_k" != "${__cudaenv_key-}" ]; then
      __cudaenv_key="$__ce_k"
      # With no .cudaenv and no .tool-versions that mentions cuda, and
      # nothing active, there is nothing to do.
      if [ -n "$__ce_hit" ] || [ -n "${__CUDAENV_STATE-}" ]; then
        __ce_code="$(CUDAENV_SHELL='bash' "$__cudaenv_bin" hook-env)" && eval "$__ce_code"
      fi
    fi
  fi
  return "$__ce_rc"
}
# PROMPT_COMMAND runs before each prompt; ours goes first (keeping $?) so the
# user's own prompt code already sees the new pair. bash 5.1 also allows an
# array there.
case ";${PROMPT_COMMAND[*]-};" in
  *__cudaenv_hook*) ;;
  *)
    # An array of two or more; ${#PROMPT_COMMAND[@]} would fail under set -u.
    if [ -n "${PROMPT_COMMAND[1]+x}" ]; then
      PROMPT_COMMAND=(__cudaenv_hook "${PROMPT_COMMAND[@]}")
    else
      __cudaenv_nl=$'\n'
      # A string here (bash before 5.1 allows nothing else), an array above.
      # shellcheck disable=SC2178
      PROMPT_COMMAND="__cudaenv_hook${PROMPT_COMMAND:+$__cudaenv_nl${PROMPT_COMMAND-}}"
      unset __cudaenv_nl
    fi ;;
esac
