# cudaenv shell integration for bash. Add to ~/.bashrc:  eval "$(cudaenv init bash)"
__cudaenv_bin=@CUDAENV_EXE@
# @include posix/function.sh
# @if AUTO_SWITCH
# Sets __ce_text to what the hook compares of a version file: "r" and its
# first characters, one more than the binary reads, or "u" when it cannot be read (the binary then
# says why, once per change of the key).
__cudaenv_read() {
  __ce_text=u
  if [ -r "$1" ]; then
    IFS= read -r -N @READ_BYTES@ __ce_text 2>/dev/null <"$1" || :
    __ce_text="r$__ce_text"
  fi
}
# @include posix/hook.sh
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
# @end
