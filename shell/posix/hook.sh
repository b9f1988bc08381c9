# Auto-switch hook, shared by bash and zsh. The key is "k", then for every
# version file that can decide the pair here (the nearest .cudaenv and any
# .tool-versions below it) its path and first bytes (see __cudaenv_read). Files are only
# read into a string and compared; nothing in them is ever evaluated. Only
# regular files are read (`[ -f ]`: a FIFO or a device never blocks a prompt),
# and `[`, `read`, ${d%/*} are builtins, so an unchanged key costs no process.
__cudaenv_hook() {
  local __ce_rc=$?
  # @if ZSH
  emulate -L zsh
  # @end
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
        __ce_code="$(CUDAENV_SHELL=@SHELL@ "$__cudaenv_bin" hook-env)" && eval "$__ce_code"
      fi
    fi
  fi
  return "$__ce_rc"
}
