# cudaenv shell integration for zsh. Add to ~/.zshrc:  eval "$(cudaenv init zsh)"
typeset -g __cudaenv_bin=@CUDAENV_EXE@
# @include posix/function.sh
# @if AUTO_SWITCH
typeset -g __cudaenv_key
# One read(2) of the whole head of a file (zsh's `read -k` reads a byte a call).
zmodload -F zsh/system b:sysread 2>/dev/null
# Sets __ce_text to what the hook compares of a version file: "r" and its
# first bytes, as many as decide what the binary reads (docs/version-files.md:
# it refuses a file at its first NUL byte, and reads @READ_BYTES@ bytes, or
# @READ_BYTES_UTF16@ of UTF-16, one more than a file may hold), or "u" when it
# cannot be read (the binary then says why, once per change of the key).
# UTF-16's NULs are written \1 0 (a \1 as \1 1) and the text follows once
# more without them, so `*cuda*` matches there too.
__cudaenv_read() {
  __ce_text=u
  if [ -r "$1" ]; then
    if (( ! ${+builtins[sysread]} )); then  # a zsh without its zsh/system module
      IFS= read -r -u 0 -k @READ_BYTES@ __ce_text 2>/dev/null <"$1" || :
      __ce_text="r${__ce_text//$'\0'/}"
      return
    fi
    setopt localoptions no_multibyte  # bytes, not characters
    local __ce_raw= __ce_head __ce_1=$'\1' __ce_utf16=@READ_BYTES_UTF16@
    sysread -s @READ_BYTES@ __ce_raw <"$1" 2>/dev/null
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
# @include posix/hook.sh
# chpwd on every directory change, precmd before each prompt (the first one,
# and edits of a .cudaenv); the key check makes repeats free. Run in zsh's own
# options, whatever the user's (ksh_arrays, emulate sh, no_unset).
() {
  emulate -L zsh
  typeset -ga chpwd_functions precmd_functions
  if (( ! ${chpwd_functions[(Ie)__cudaenv_hook]} )); then chpwd_functions+=(__cudaenv_hook); fi
  if (( ! ${precmd_functions[(Ie)__cudaenv_hook]} )); then precmd_functions=(__cudaenv_hook $precmd_functions); fi
}
# @end
