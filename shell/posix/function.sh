# The `cudaenv` function of the bash and zsh integrations: runs the binary
# with CUDAENV_SHELL set for the commands whose output is code, evaluates that
# output, and passes every other command on.
cudaenv() {
  # @if ZSH
  emulate -L zsh
  # @end
  case "${1-}" in
    @EVAL_COMMANDS@)
      local __cudaenv_code
      __cudaenv_code="$(CUDAENV_SHELL=@SHELL@ "$__cudaenv_bin" "$@")" || return
      eval "$__cudaenv_code"
      ;;
    *) "$__cudaenv_bin" "$@" || return ;;
  esac
  # @if AUTO_SWITCH
  # After deactivate (or a new .cudaenv here) the folder's pair applies again at once.
  case "${1-}" in @HOOK_COMMANDS@) __cudaenv_key=; __cudaenv_hook ;; esac
  # @end
}
