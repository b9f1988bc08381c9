# cudaenv shell integration for zsh. Add to ~/.zshrc:  eval "$(cudaenv init zsh)"
typeset -g __cudaenv_bin='/opt/cudaenv/bin/cudaenv'
# The `cudaenv` function of the bash and zsh integrations: runs the binary
# with CUDAENV_SHELL set for the commands whose output is code, evaluates that
# output, and passes every other command on.
cudaenv() {
  emulate -L zsh
  case "${1-}" in
    'use'|'shell'|'deactivate')
      local __cudaenv_code
      __cudaenv_code="$(CUDAENV_SHELL='zsh' "$__cudaenv_bin" "$@")" || return
      eval "$__cudaenv_code"
      ;;
    *) "$__cudaenv_bin" "$@" || return ;;
  esac
  # After deactivate (or a new .cudaenv here) the folder's pair applies again at once.
  case "${1-}" in 'deactivate'|'local') __cudaenv_key=; __cudaenv_hook ;; esac
}
typeset -g __cudaenv_key
# One read(2) of the whole head of a file (zsh's `read -k` reads a byte a call).
zmodload -F zsh/system b:sysread 2>/dev/null
# Sets __ce_text to what the hook compares of a version file: "r" and its
# first bytes, as many as decide what the binary reads (docs/version-files.md:
# it refuses a file at its first NUL byte, and reads '8193' bytes, or
# '257' of UTF-16, one more than a file may hold), or "u" when it
# cannot be read (the binary then says why, once per change of the key).
# UTF-16's NULs are written \1 0 (a \1 as \1 1) and the text follows once
# more without them, so `*cuda*` matches there too.
__cudaenv_read() {
  __ce_text=u
  if [ -r "$1" ]; then
    if (( ! ${+builtins[sysread]} )); then  # a zsh without its zsh/system module
      IFS= read -r -u 0 -k '8193' __ce_text 2>/dev/null <"$1" || :
      __ce_text="r${__ce_text//$'\0'/}"
      return
    fi
    setopt localoptions no_multibyte  # bytes, not characters
    local __ce_raw= __ce_head __ce_1=$'\1' __ce_utf16='257'
    sysread -s '8193' __ce_raw <"$1" 2>/dev/null
    # (Parsed in the user's options when loaded, `emulate sh` included: no pattern groups.)
    case ${__ce_raw[1,2]} in
      $'\xff\xfe' | $'\xfe\xff')
        __ce_raw=${__ce_raw[1,__ce_utf16]}
        __ce_text="r${${__ce_raw//$__ce_1/${__ce_1}1}//$'\0'/${__ce_1}0}"$'\n'"${__ce_raw//$'\0'/}" ;;
      *)
        __ce_head=${__ce_raw%%$'\0'*}
        __ce_text="r$__ce_head"
        (( ${#__ce_head} == ${#__ce_raw} )) || __ce_text+=$'\n'nul ;;
    esac
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
  emulate -L zsh
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
        __ce_code="$(CUDAENV_SHELL='zsh' "$__cudaenv_bin" hook-env)" && eval "$__ce_code"
      fi
    fi
  fi
  return "$__ce_rc"
}
# chpwd on every directory change, precmd before each prompt (the first one,
# and edits of a .cudaenv); the key check makes repeats free. Run in zsh's own
# options, whatever the user's (ksh_arrays, emulate sh, no_unset).
() {
  emulate -L zsh
  typeset -ga chpwd_functions precmd_functions
  if (( ! ${chpwd_functions[(Ie)__cudaenv_hook]} )); then chpwd_functions+=(__cudaenv_hook); fi
  if (( ! ${precmd_functions[(Ie)__cudaenv_hook]} )); then precmd_functions=(__cudaenv_hook $precmd_functions); fi
}
