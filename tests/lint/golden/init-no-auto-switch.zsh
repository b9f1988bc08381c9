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
}
