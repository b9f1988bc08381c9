# cudaenv shell integration for zsh. Add to ~/.zshrc:  eval "$(cudaenv init zsh)"
typeset -g __cudaenv_bin=@CUDAENV_EXE@
# @include posix/function.sh
# @if AUTO_SWITCH
typeset -g __cudaenv_key
# Sets __ce_text to what the hook compares of a version file: "r" and its
# first characters, one more than the binary reads, or "u" when it cannot be read (the binary then
# says why, once per change of the key).
__cudaenv_read() {
  __ce_text=u
  if [ -r "$1" ]; then
    IFS= read -r -u 0 -k @READ_BYTES@ __ce_text 2>/dev/null <"$1" || :
    # Without NUL bytes (UTF-16 has many), so `*cuda*` matches there too.
    __ce_text="r${__ce_text//$'\0'/}"
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
