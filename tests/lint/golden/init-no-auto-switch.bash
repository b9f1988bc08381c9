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
}
